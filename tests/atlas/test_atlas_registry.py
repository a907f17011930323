"""The model registry's identity traps (issue 23): each with the case it must merge or keep apart."""

import pandas as pd
import pytest

from benchval.analysis.model_names import normalise
from benchval.atlas.registry import RegistryError, build_registry, load_overrides, load_rules, parse_size
from benchval.plumbing.folders import REPO_ROOT

RULES = load_rules(REPO_ROOT / "config" / "atlas" / "registry_rules.yaml")
OVERRIDES = load_overrides(REPO_ROOT / "config" / "atlas" / "model_overrides.csv")


def registry_of(*rows):
    """Registry of (source, raw_name) rows, lines numbered in order."""
    frame = pd.DataFrame([{"source": s, "line": i + 2, "raw_name": r} for i, (s, r) in enumerate(rows)])
    return build_registry(frame, RULES, OVERRIDES)


def test_a_date_with_a_slash_is_not_an_organisation():
    registry = registry_of(("alpaca.csv", "Claude_3_Opus_(02/29)"), ("alpaca.csv", "Claude_3_Sonnet_(02/29)"))
    assert sorted(registry.models.index) == ["claude-3-opus-0229", "claude-3-sonnet-0229"]
    assert registry.merges().empty


def test_display_date_and_api_date_meet():
    registry = registry_of(("alpaca.csv", "Claude_3_Opus_(02/29)"), ("arena.csv", "claude-3-opus-20240229"))
    assert list(registry.models.index) == ["claude-3-opus-0229"]
    assert registry.models.at["claude-3-opus-0229", "n_sources"] == 2
    assert not registry.models.at["claude-3-opus-0229", "open_weights"]


def test_same_weights_under_two_organisations_are_one_model_and_the_merge_is_listed():
    registry = registry_of(
        ("v1.csv", "mistralai/Mixtral-8x22B-v0.1"),
        ("v1.csv", "mistral-community/Mixtral-8x22B-v0.1"),
        ("v2.csv", "gpt2"),
        ("v2.csv", "openai-community/gpt2"),
    )
    assert sorted(registry.models.index) == ["mistralai/mixtral-8x22b-v0.1", "openai-community/gpt2"]
    merges = registry.merges().set_index("canonical_id")
    assert "mistral-community/Mixtral-8x22B-v0.1" in merges.at["mistralai/mixtral-8x22b-v0.1", "raw_names"]
    assert "override" in merges.at["mistralai/mixtral-8x22b-v0.1", "rules"]
    assert "bare name joins" in merges.at["openai-community/gpt2", "rules"]
    mixtral = registry.models.loc["mistralai/mixtral-8x22b-v0.1"]
    assert (mixtral["size_b"], mixtral["active_b"], mixtral["moe"], mixtral["family"]) == (141.0, 39.0, True, "mistral")


def test_a_bare_name_matching_several_organisations_is_kept_apart_and_reported():
    registry = registry_of(("a.csv", "a/model-7b"), ("a.csv", "b/model-7b"), ("b.csv", "model-7b"))
    assert "model-7b" in registry.models.index
    unresolved = registry.unresolved()
    assert ((unresolved["canonical_id"] == "model-7b") & (unresolved["field"] == "identity")).any()


def test_case_and_whitespace_variants_are_one_model():
    assert normalise("m1 ") == normalise("M1") == "m1"
    registry = registry_of(("a.csv", "m1 "), ("b.csv", "M1"), ("c.csv", "Llama 2 (70B)"), ("d.csv", "llama-2-70b"))
    assert sorted(registry.models.index) == ["llama-2-70b", "m1"]


def test_contaminated_entries_are_excluded_by_rule_and_listed():
    registry = registry_of(
        ("v1.csv", "Contamination/contaminated_proof_7b_v1.0"), ("v1.csv", "meta-llama/Llama-2-7b-hf")
    )
    assert list(registry.models.index) == ["meta-llama/llama-2-7b-hf"]
    assert registry.excluded["raw_name"].tolist() == ["Contamination/contaminated_proof_7b_v1.0"]
    assert "contaminated" in registry.excluded["why"].iloc[0]


@pytest.mark.parametrize(
    "name, size, active, moe",
    [
        ("llama-2-7b-hf", 7.0, None, False),
        ("opt-350m", 0.35, None, False),
        ("rwkv-4-1b5-pile", 1.5, None, False),
        ("qwen2-57b-a14b", 57.0, 14.0, True),
        ("mixtral-8x7b-v0.1", None, None, True),
        ("gpt2-medium", None, None, None),
        ("merge-13b-7b", None, None, None),
    ],
)
def test_size_tokens(name, size, active, moe):
    parsed = parse_size(name)
    assert (parsed["size_b"] if parsed["size_b"] == parsed["size_b"] else None) == size
    assert (parsed["active_b"] if parsed["active_b"] == parsed["active_b"] else None) == active
    assert (None if parsed["moe"] is pd.NA else parsed["moe"]) == moe


def test_family_is_the_pretraining_lineage_and_unknown_stays_unresolved():
    registry = registry_of(
        ("v1.csv", "someone/Llama-2-13b-finetuned"),
        ("v1.csv", "codellama/CodeLlama-7b-hf"),
        ("v1.csv", "MTSAIR/MultiVerse_70B"),
    )
    assert registry.models.at["someone/llama-2-13b-finetuned", "family"] == "llama"
    assert registry.models.at["codellama/codellama-7b-hf", "family"] == "llama"
    assert pd.isna(registry.models.at["mtsair/multiverse-70b", "family"])
    unresolved = registry.unresolved()
    assert unresolved.loc[unresolved["canonical_id"] == "mtsair/multiverse-70b", "field"].tolist() == ["family"]


def test_base_and_instruct_tokens():
    registry = registry_of(
        ("a.csv", "Qwen/Qwen2-7B-Instruct"), ("a.csv", "deepseek-ai/deepseek-llm-7b-base"), ("a.csv", "x/y-7b")
    )
    assert registry.models.at["qwen/qwen2-7b-instruct", "tuning"] == "instruct"
    assert registry.models.at["deepseek-ai/deepseek-llm-7b-base", "tuning"] == "base"
    assert pd.isna(registry.models.at["x/y-7b", "tuning"])


def test_an_override_without_evidence_is_rejected(tmp_path):
    path = tmp_path / "overrides.csv"
    path.write_text("raw_key,canonical_id,family,size_b,active_b,moe,open_weights,tuning,evidence\na/b,c/d,,,,,,,\n")
    with pytest.raises(RegistryError, match="line 2: every override needs raw_key and evidence"):
        load_overrides(path)


def test_an_underscore_between_digits_is_a_decimal_point_only_in_dash_separated_names():
    registry = registry_of(
        ("v2.csv", "stabilityai/stablelm-2-1_6b"),
        ("v2.csv", "Qwen-1_8B-Chat"),
        ("helm.csv", "llama_2_13b_chat"),
        ("x.csv", "stabilityai/stablelm-zephyr-3b"),
    )
    sizes = registry.models["size_b"].to_dict()
    assert sizes == {
        "stabilityai/stablelm-2-1-6b": 1.6,
        "qwen-1-8b-chat": 1.8,
        "llama-2-13b-chat": 13.0,
        "stabilityai/stablelm-zephyr-3b": 3.0,
    }
    assert registry.models.at["stabilityai/stablelm-zephyr-3b", "family"] == "stablelm"
