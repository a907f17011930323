"""Identities that hold (issue 33): one test per wrong merge the review named, the alias rule, the family
order, the display-name guard, and the identity check against hand labels."""

import pandas as pd
import pytest

from benchval.atlas.identity_check import (
    DISAGREEMENT_COLUMNS,
    draw_sample,
    identity_scores,
    label_agreement,
    load_disagreements,
    resolution_problems,
)
from benchval.analysis.model_names import alias, normalise
from benchval.atlas.registry import RegistryError, build_registry, load_display_names, load_overrides, load_rules
from benchval.plumbing.folders import REPO_ROOT

CONFIG = REPO_ROOT / "config" / "atlas"
RULES = load_rules(CONFIG / "registry_rules.yaml")
OVERRIDES = load_overrides(CONFIG / "model_overrides.csv")
DISPLAY = load_display_names(CONFIG / "display_names.csv")
RULER = "benchmarks/ruler_bench_241002_longcontext.csv"


def registry_of(*rows):
    frame = pd.DataFrame([{"source": s, "line": i + 2, "raw_name": r} for i, (s, r) in enumerate(rows)])
    return build_registry(frame, RULES, OVERRIDES, DISPLAY)


def model_of(registry, source, raw):
    return registry.canonical(source, raw)


@pytest.mark.parametrize(
    "ruler_name, other_source, other_name",
    [
        ("Qwen1.5-72b", "mmlu_pro.csv", "Qwen/Qwen1.5-72B"),  # RULER ran the chat model
        ("Qwen2-72b", "mmlu_pro.csv", "Qwen/Qwen2-72B"),
        ("Llama-3.1-70b", "mmlu_pro.csv", "Llama-3.1-70B"),  # MMLU-Pro's base model
        ("Mixtral-8x7B", "v1.csv", "mistralai/Mixtral-8x7B-v0.1"),
        ("Mistral-7b", "mixeval.csv", "mistralai/Mistral-7B-v0.1"),
        ("Mixtral-8x22B", "v1.csv", "mistralai/Mixtral-8x22B-v0.1"),
        ("Yi-34b", "helm.csv", "01-ai/Yi-34B"),  # RULER ran Yi-34B-200K
        ("Mistral-Large", "arena.csv", "Mistral Large (2402)"),  # RULER ran Mistral-Large-Instruct-2407
        ("GradientAI/Llama3-70b", "olmes.csv", "llama3_70b"),  # the 1M-context fine-tune is not Meta's base
        ("GradientAI/Llama3-8b", "olmes.csv", "llama3_8b"),
    ],
)
def test_each_wrong_merge_of_the_review_is_apart(ruler_name, other_source, other_name):
    registry = registry_of((RULER, ruler_name), (other_source, other_name))
    assert model_of(registry, RULER, ruler_name) != model_of(registry, other_source, other_name)


def test_ruler_names_join_what_ruler_ran():
    registry = registry_of(
        (RULER, "Yi-34b"),
        ("v1.csv", "01-ai/Yi-34B-200K"),
        (RULER, "Qwen2-72b"),
        ("arena.csv", "qwen2-72b-instruct"),
        (RULER, "GradientAI/Llama3-8b"),
        ("olmes.csv", "llama3_8b"),
        ("v1.csv", "meta-llama/Meta-Llama-3-8B"),
    )
    assert model_of(registry, RULER, "Yi-34b") == "01-ai/yi-34b-200k"
    assert model_of(registry, RULER, "Qwen2-72b") == model_of(registry, "arena.csv", "qwen2-72b-instruct")
    assert model_of(registry, "olmes.csv", "llama3_8b") == "meta-llama/meta-llama-3-8b"


def test_a_display_name_the_reviewed_mapping_lacks_fails_naming_file_and_name():
    with pytest.raises(RegistryError, match=r"ruler_bench.*'New-Model-9b'"):
        registry_of((RULER, "New-Model-9b"))


def test_aliases_join_org_prefix_meta_and_separator_variants_but_never_base_with_instruct():
    registry = registry_of(
        ("a.csv", "llama-3-8b-instruct"),
        ("b.csv", "llama3-8b-instruct"),
        ("c.csv", "meta-llama/Meta-Llama-3-8B-Instruct"),
        ("d.csv", "Llama-3-8B"),
        ("e.csv", "command-r-0824"),
        ("f.csv", "command-r-08-2024"),
    )
    instruct = {
        model_of(registry, s, r) for s, r in [("a.csv", "llama-3-8b-instruct"), ("b.csv", "llama3-8b-instruct")]
    }
    assert instruct == {"meta-llama/meta-llama-3-8b-instruct"}
    assert model_of(registry, "d.csv", "Llama-3-8B") != "meta-llama/meta-llama-3-8b-instruct"
    assert model_of(registry, "e.csv", "command-r-0824") == model_of(registry, "f.csv", "command-r-08-2024")
    assert alias(normalise("Llama-2-7b-hf")).key == alias(normalise("llama-2-7b")).key


def test_undated_joins_the_one_dated_snapshot_and_stays_apart_with_several():
    registry = registry_of(
        ("a.csv", "Claude 3 Haiku"),
        ("b.csv", "anthropic/claude-3-haiku"),
        ("c.csv", "claude-3-haiku-20240307"),
        ("d.csv", "gpt-4"),
        ("e.csv", "gpt-4-0314"),
        ("f.csv", "gpt-4-0613"),
    )
    haiku = {model_of(registry, s, r) for s, r in [("a.csv", "Claude 3 Haiku"), ("b.csv", "anthropic/claude-3-haiku")]}
    assert haiku == {model_of(registry, "c.csv", "claude-3-haiku-20240307")}
    assert (
        len(
            {
                model_of(registry, s, r)
                for s, r in [("d.csv", "gpt-4"), ("e.csv", "gpt-4-0314"), ("f.csv", "gpt-4-0613")]
            }
        )
        == 3
    )
    assert "several dated snapshots" in registry.names.set_index("raw_name").at["gpt-4", "rule"]


@pytest.mark.parametrize(
    "raw, family",
    [
        ("kyujinpy/PlatYi-34B-Llama", "yi"),
        ("chargoddard/internlm2-base-20b-llama", "internlm"),
        ("duoqi/nanbeige-16b-base-llama", "nanbeige"),
        ("jondurbin/airoboros-33b-gpt4-1.3", "llama"),
        ("nomic-ai/gpt4all-13b-snoozy", "llama"),
    ],
)
def test_a_lineage_token_wins_only_where_it_names_the_lineage(raw, family):
    registry = registry_of(("v1.csv", raw))
    model = registry.models.loc[normalise(raw)]
    assert model["family"] == family
    assert model["open_weights"]  # the gpt4 token of a data source does not make a model closed


def test_identity_scores_count_a_wrong_join_and_a_missed_alias():
    """The cheapest wrong registry - every name its own model - has recall 0; one wrong join lowers precision."""
    names = pd.DataFrame(
        {
            "source": ["a", "b", "c", "d"],
            "raw_name": ["m-7b", "org/m-7b", "m-7b-chat", "x"],
            "canonical_id": ["org/m-7b", "org/m-7b", "org/m-7b", "x"],
        }
    )
    models = pd.DataFrame({"family": ["m", None], "size_b": [7.0, None]}, index=["org/m-7b", "x"])
    labels = pd.DataFrame(
        {
            "raw_name": ["m-7b", "x"],
            "source": ["a", "d"],
            "same_as": ["org/m-7b", ""],
            "family": ["m", "unknown"],
            "size_b": ["7", ""],
            "evidence": ["hand", "hand"],
        }
    )
    settings = {"size_tolerance": 0.1, "n_bootstrap": 50, "ci_level": 0.95, "seed": 1}
    summary, detail = identity_scores(labels, names, models, settings)
    values = summary.set_index("measure")["value"]
    assert values["merge_precision"] == pytest.approx(0.5)  # m-7b-chat joined wrongly
    assert values["merge_recall"] == 1.0 and values["family_accuracy"] == 1.0
    assert detail.at[0, "wrong_joins"] == "m-7b-chat"
    apart = names.assign(canonical_id=names["raw_name"])
    models_apart = pd.DataFrame({"family": "m", "size_b": 7.0}, index=apart["raw_name"])
    summary, _ = identity_scores(labels, apart, models_apart, settings)
    assert summary.set_index("measure").at["merge_recall", "value"] == 0.0


def test_the_kept_sample_is_the_seeded_draw_and_every_row_has_evidence():
    labels = pd.read_csv(CONFIG / "identity_sample.csv", dtype=str, keep_default_na=False)
    assert len(labels) >= 300 and labels["evidence"].str.strip().ne("").all()
    names = pd.DataFrame({"source": ["s"] * 5, "raw_name": list("abcde")})
    assert draw_sample(names, 3, 1).equals(draw_sample(names, 3, 1))


def test_helm_prefix_is_no_organisation_and_it_means_instruct():
    registry = registry_of(
        ("helm.csv", "huggingface/llama-65b"),
        ("v1.csv", "huggyllama/llama-65b"),
        ("arena.csv", "llama-3.2-3b-it"),
        ("v2.csv", "meta-llama/Llama-3.2-3B-Instruct"),
        ("v2.csv", "google/gemma-7b"),
        ("arena.csv", "gemma-7b-it"),
    )
    assert model_of(registry, "helm.csv", "huggingface/llama-65b") == "huggyllama/llama-65b"
    assert model_of(registry, "arena.csv", "llama-3.2-3b-it") == "meta-llama/llama-3.2-3b-instruct"
    assert model_of(registry, "arena.csv", "gemma-7b-it") != model_of(registry, "v2.csv", "google/gemma-7b")


def test_writers_palmyra_is_neither_palm_nor_closed():
    """Found by the identity sample: the PaLM pattern matched Writer's open Palmyra models."""
    registry = registry_of(("v1.csv", "Writer/palmyra-20b-chat"), ("helm.csv", "PaLM-2 (Bison)"))
    palmyra = registry.models.loc["writer/palmyra-20b-chat"]
    assert palmyra["family"] != "palm" and palmyra["open_weights"]
    assert registry.models.loc[normalise("PaLM-2 (Bison)"), "family"] == "palm"


def _labels(families, sizes, same_as):
    return pd.DataFrame(
        {
            "raw_name": [f"n{i}" for i in range(len(families))],
            "source": "s",
            "same_as": same_as,
            "family": families,
            "size_b": sizes,
            "evidence": "hand",
        }
    )


def test_label_agreement_kappa_by_hand_and_alias_pairs():
    """po = 3/4, pe = 1/2 * 1/4 + 1/2 * 3/4 = 1/2: kappa = (0.75 - 0.5) / 0.5 = 0.5."""
    first = _labels(["x", "x", "y", "y"], ["7", "", "13", "70"], ["a|b", "", "", "c"])
    blind = _labels(["x", "y", "y", "y"], ["7.2", "", "", "65"], ["a", "", "", "c|d"])
    table = label_agreement(first, blind, 0.1).set_index("measure")
    assert table.at["family_kappa", "value"] == pytest.approx(0.5)
    assert table.at["size_agreement", "count"] == 3  # 7 ~ 7.2, both unknown, 70 ~ 65; 13 vs unknown differs
    assert table.at["alias_pairs_agreement", "count"] == 2 and table.at["alias_pairs_agreement", "of"] == 4


def test_a_resolved_label_that_differs_silently_is_reported():
    """The cheapest way to fudge the resolved file - change a label and write no resolution - is caught."""
    first = _labels(["x", "unknown"], ["7", ""], ["a", ""])
    blind = _labels(["x", "y"], ["7", "8"], ["a|b", ""])
    rows = [
        ("n1", "family", "unknown", "y", "unknown", "assumption"),
        ("n1", "size_b", "", "8", "", "not stated"),
        ("n0", "same_as:b", "no", "yes", "yes", "same weights"),
    ]
    rulings = pd.DataFrame(rows, columns=DISAGREEMENT_COLUMNS)
    resolved = _labels(["x", "unknown"], ["7", ""], ["a|b", ""])
    assert resolution_problems(first, blind, resolved, rulings, 0.1) == []
    silent = resolved.assign(family=["z", "unknown"])  # agrees with neither labelling, no row
    assert any("n0: family" in p for p in resolution_problems(first, blind, silent, rulings, 0.1))
    ignored = resolved.assign(same_as=["a", ""])  # the ruling says yes, the file says no
    assert any("same_as:b" in p for p in resolution_problems(first, blind, ignored, rulings, 0.1))
    assert any("n1: size_b" in p for p in resolution_problems(first, blind, resolved, rulings.iloc[[0, 2]], 0.1))


def test_the_kept_resolution_covers_every_difference_and_quotes_both_labellings():
    read = lambda name: pd.read_csv(CONFIG / name, dtype=str, keep_default_na=False)  # noqa: E731
    first, blind, resolved = (read(f"identity_sample{s}.csv") for s in ("", "_blind", "_resolved"))
    rulings = load_disagreements(CONFIG / "identity_sample_disagreements.csv")
    assert resolution_problems(first, blind, resolved, rulings, 0.1) == []
    by_name = {"first": first.set_index("raw_name"), "blind": blind.set_index("raw_name")}
    for row in rulings.itertuples(index=False):
        for who in ("first", "blind"):
            label = by_name[who].loc[row.raw_name]
            quoted = getattr(row, f"label_{who}")
            if row.field.startswith("same_as:"):
                other = row.field.split(":", 1)[1]
                assert quoted == ("yes" if other in {s.strip() for s in label["same_as"].split("|")} else "no")
            else:
                assert quoted == label[row.field], (row.raw_name, row.field, who)


# --- issue 43: one test per wrong join and per missed merge the issue names (each fails on the old rules) ---


def test_an_undated_open_weights_name_does_not_join_its_dated_release():
    """OLMo-7B (February 2024) is not OLMo-7B-0424 (April 2024): a dated open-weights repository holds other
    weights; only an API model's undated name is its one dated snapshot."""
    registry = registry_of(
        ("biggen.csv", "allenai/OLMo-7B"),
        ("mixeval.csv", "OLMo-7B"),
        ("obsscaling.csv", "allenai/OLMo-7B-0424-hf"),
    )
    assert model_of(registry, "biggen.csv", "allenai/OLMo-7B") == "allenai/olmo-7b"
    assert model_of(registry, "obsscaling.csv", "allenai/OLMo-7B-0424-hf") == "allenai/olmo-7b-0424-hf"
    assert model_of(registry, "mixeval.csv", "OLMo-7B") != "allenai/olmo-7b-0424-hf"


def test_command_r_plus_is_not_its_08_2024_update():
    registry = registry_of(
        ("v1.csv", "CohereForAI/c4ai-command-r-plus"),
        ("enkrypt.csv", "c4ai-command-r-plus"),
        ("v2.csv", "CohereForAI/c4ai-command-r-plus-08-2024"),
    )
    update = model_of(registry, "v2.csv", "CohereForAI/c4ai-command-r-plus-08-2024")
    assert model_of(registry, "v1.csv", "CohereForAI/c4ai-command-r-plus") != update
    assert model_of(registry, "enkrypt.csv", "c4ai-command-r-plus") == "cohereforai/c4ai-command-r-plus"


def test_a_bare_name_does_not_join_another_organisations_only_hf_id():
    """AlpacaEval's Llama-3-Instruct-8B-SimPO is princeton-nlp's; the only HF id of that name in the mirror is
    haoranxu's. Phi-2_DPO likewise: being the only candidate is no evidence."""
    registry = registry_of(
        ("alpaca.csv", "Llama-3-Instruct-8B-SimPO"),
        ("v2.csv", "haoranxu/Llama-3-Instruct-8B-SimPO"),
        ("alpaca.csv", "Phi-2_DPO"),
        ("v1.csv", "huseyinatahaninan/phi-2-dpo"),
    )
    assert model_of(registry, "alpaca.csv", "Llama-3-Instruct-8B-SimPO") == "llama-3-instruct-8b-simpo"
    assert model_of(registry, "alpaca.csv", "Phi-2_DPO") == "phi-2-dpo"
    kept = registry.names.set_index("raw_name").at["Phi-2_DPO", "rule"]
    assert "not a publisher's" in kept


def test_a_bare_name_joins_a_publishers_hf_id_or_a_reviewed_override_row():
    registry = registry_of(
        ("v2.csv", "gpt2"),
        ("v1.csv", "openai-community/gpt2"),
        ("eq.csv", "NeuralBeagle14-7B"),
        ("v1.csv", "mlabonne/NeuralBeagle14-7B"),
    )
    assert model_of(registry, "v2.csv", "gpt2") == "openai-community/gpt2"
    assert model_of(registry, "eq.csv", "NeuralBeagle14-7B") == "mlabonne/neuralbeagle14-7b"


def test_eq_bench_emoji_prefix_is_no_part_of_the_name():
    registry = registry_of(("eq.csv", "🆕Phi-3.5-mini-instruct"), ("v2.csv", "microsoft/Phi-3.5-mini-instruct"))
    assert model_of(registry, "eq.csv", "🆕Phi-3.5-mini-instruct") == "microsoft/phi-3.5-mini-instruct"
    assert normalise("New gpt-4o") == "gpt-4o"


@pytest.mark.parametrize("size", ["7", "13", "70"])
def test_alpacaeval_plus_spelling_of_tulu_2_dpo_joins(size):
    registry = registry_of(("alpaca.csv", f"Tulu_2+DPO_{size}B"), ("biggen.csv", f"allenai/tulu-2-dpo-{size}b"))
    assert model_of(registry, "alpaca.csv", f"Tulu_2+DPO_{size}B") == f"allenai/tulu-2-dpo-{size}b"
    best_of = registry_of(
        ("alpaca.csv", f"PairRM_0.4B+Tulu_2+DPO_{size}B_(best-of-16)"), ("b.csv", f"tulu-2-dpo-{size}b")
    )
    assert len(best_of.models) == 2  # a reranked system is another entry


def test_starlinglm_without_a_separator_joins_starling_lm():
    registry = registry_of(("wildbench.csv", "StarlingLM-7B-beta"), ("v1.csv", "Nexusflow/Starling-LM-7B-beta"))
    assert model_of(registry, "wildbench.csv", "StarlingLM-7B-beta") == "nexusflow/starling-lm-7b-beta"


def test_gpt_4_omni_spelling_joins_gpt_4o():
    registry = registry_of(("alpaca.csv", "GPT-4_Omni_(05/13)"), ("helm.csv", "openai/gpt-4o-2024-05-13"))
    assert model_of(registry, "alpaca.csv", "GPT-4_Omni_(05/13)") == "openai/gpt-4o-0513"


def test_command_r_plus_sign_joins_cohere_command_r_plus():
    registry = registry_of(("mixeval.csv", "Command R+"), ("helm.csv", "cohere/command-r-plus"))
    assert model_of(registry, "mixeval.csv", "Command R+") == "cohere/command-r-plus"


@pytest.mark.parametrize("typo", ["GPT-4-0-2024-05-13", "GPT-40-20240513"])
def test_the_two_gpt_4o_typos_join_gpt_4o(typo):
    registry = registry_of(("lcb.csv", typo), ("helm.csv", "openai/gpt-4o-2024-05-13"))
    assert model_of(registry, "lcb.csv", typo) == "openai/gpt-4o-0513"


def test_a_leading_new_word_goes_but_an_hf_name_part_keeps_it():
    assert normalise("New gpt-4o") == "gpt-4o"
    assert normalise("pansophic/new_model_test2") == "pansophic/new-model-test2"
