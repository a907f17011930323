"""The commonwhy_eval rules end to end with tiny local models, a tiny KG store and tiny question tables."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.snakemake_run import job_counts, offline_env, run_snakemake, snakemake_command
from benchval.testing.tiny import build_tiny_encoder

from kg_fixture import tiny_store

# the tiny BERT of the BERTScore rules: words of the tiny questions and answers
ENCODER_WORDS = "because anna berg is german tour alpha was in france why did happen a citizen of germany".split()


def _manifest(folder, name):
    from benchval.models.manifest import weight_files, weights_sha256, write_manifest

    files = weight_files(folder)
    write_manifest(
        folder,
        {
            "manifest_version": 1,
            "name": name,
            "family": "tiny",
            "size_b": 0.0001,
            "dtype": "float32",
            "device": "cpu",
            "source": {"type": "local", "path": str(folder)},
            "gguf_sha256": None,
            "weights_sha256": weights_sha256(files),
            "weights_files": [f.name for f in files],
            "load_from": {"kind": "folder", "path": "."},
            "tokenizer_class": "PreTrainedTokenizerFast",
            "adds_bos": False,
            "transformers_version": "test",
            "torch_version": "test",
            "preparation_seconds": 0,
        },
    )


def _question_tables(wf):
    from benchval.commonwhy.dataset import COLUMNS
    from benchval.commonwhy.pipeline import CONSTRUCTED_SCHEMA

    published = []
    for split in ("head", "longtail"):
        for i in range(3):
            published.append(
                {c: None for c in COLUMNS}
                | {
                    "item_id": f"commonwhy-{split}-{i:05d}",
                    "split": split,
                    "source_row": i + 1,
                    "question": f"Why is Anna Berg a citizen of Germany {i}?",
                    "answer": "Because Anna Berg is German.",
                    "answers": ["Because Anna Berg is German."],
                    "rule": f"rule {i}",
                    "popularity": 5 + i,
                    "rule_labels": [],
                    "anchor_qids": ["Q1"],
                    "anchor_labels": ["Anna Berg"],
                    "join_status": "joined",
                    "audit_reasons": [],
                }
            )
    (wf / "results/commonwhy").mkdir(parents=True)
    pd.DataFrame(published).to_parquet(wf / "results/commonwhy/published.parquet")
    constructed = [
        {
            "question_id": f"c{i}",
            "rule_id": "cw001",
            "rule": "r",
            "origin": "published",
            "reasoning_category": None,
            "domain": None,
            "question": "Why did Tour Alpha happen in France?",
            "answers": ["Because Tour Alpha was in France."],
            "template_answer": "",
            "anchor_qids": ["Q3"],
            "anchor_labels": ["Tour Alpha"],
            "popularity": 3 - i,
            "split": split,
            "subgraph": [],
            "n_facts": 0,
            "kg_source": "tiny",
            "audit_reasons": [],
        }
        for i, split in enumerate(["head", "longtail"])
    ]
    pq.write_table(
        pa.Table.from_pylist(constructed, schema=CONSTRUCTED_SCHEMA), wf / "results/commonwhy/constructed.parquet"
    )


RAW_FILES = ("sentences.json", "commonwhy/inference_rule_entities.json")  # the toy mirror's files


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory, tiny_lm_builder):
    """The commonwhy_eval rules run to the end once on tiny models; the tests below read it or dry-run it."""
    import pyoxigraph as ox

    tmp_path = tmp_path_factory.mktemp("commonwhy_eval")
    wf = tmp_path / "wf"
    models = wf / "resources/models"
    for name in ("tiny-a", "tiny-b"):
        tiny_lm_builder(models / name, seed=len(name) + ord(name[-1]))
        _manifest(models / name, name)
    _question_tables(wf)
    store_dir = wf / "resources/kg/tiny.oxigraph"
    store_dir.parent.mkdir(parents=True)
    disk = ox.Store(str(store_dir))
    disk.extend(tiny_store())
    disk.flush()
    del disk
    encoder = build_tiny_encoder(tmp_path / "encoder", ENCODER_WORDS)
    # copies of the shipped prompts, so that a test can edit one (test_a_prompt_edit_plans_its_rules)
    (wf / "prompts").mkdir()
    prompts = {
        p.name: str(shutil.copy(p, wf / "prompts" / p.name))
        for p in (REPO_ROOT / "config/prompts").glob("commonwhy_*.txt")
    }
    mirror = wf / "mirror"
    mirror.mkdir()
    (mirror / "sentences.json").write_text(
        "".join(
            json.dumps({"text": f"{a} was born in {b}"}) + "\n"
            for a in ("anna berg", "tour alpha", "germany")
            for b in ("france", "germany", "anna")
        )
    )
    # the rules' grounding queries, which the check-set rules read (benchval.commonwhy.rule_audit.GroundingQueries)
    (mirror / "commonwhy").mkdir()
    (mirror / "commonwhy" / "inference_rule_entities.json").write_text(
        json.dumps(
            {
                rule: {"sparql": "?item p:P27 ?statement0. ?statement0 (ps:P27/(wdt:P279*)) wd:Q183.", "entities": []}
                for rule in ("rule 0", "rule 1", "rule 2", "r")
            }
        )
    )
    # declared as the shared mirror declares them: checked where the baseline and check-set rules read them
    sums = [f"{hashlib.sha256((mirror / name).read_bytes()).hexdigest()}  {name}" for name in RAW_FILES]
    (mirror / "SHA256SUMS").write_text("\n".join(sums) + "\n")
    config = {
        "seed": 3,
        "mirror": str(mirror),
        "models": {
            n: {"family": "tiny", "size_b": 0.0001, "dtype": "float32", "device": "cpu"} for n in ("tiny-a", "tiny-b")
        },
        "commonwhy": {"kg": {"source": "local", "store": "resources/kg/tiny.oxigraph"}},
        # a scored study that uses the criterion: commonwhy_eval_functions.outputs lists the files only then
        "studies": {"s": {"source": "scored", "models": ["tiny-a"], "tasks": [], "commonwhy_criterion": True}},
        "commonwhy_eval": {
            "models": ["tiny-a", "tiny-b"],
            "sample": {"published": 2, "constructed": 1},
            "generation": {"max_new_tokens": 6, "batch_size": 2, "prompt": prompts["commonwhy_answer.txt"]},
            "metrics": {
                "bertscore": {
                    "model_type": encoder,
                    "num_layers": 2,
                    "baseline": {"corpus": "sentences.json", "fields": ["text"], "n_pairs": 4},
                }
            },
            "judge": {"system": "tiny-b", "prompt": prompts["commonwhy_judge.txt"]},
            "judge_check": {"min_pairs": 10, "n_bootstrap": 100},
            "baselines": {
                "backbone": "tiny-a",
                "sources": ["published", "constructed"],
                "kbbinder_prompt": prompts["commonwhy_kbbinder.txt"],
                "kbbinder_answer_prompt": prompts["commonwhy_kbbinder_answer.txt"],
                "kgr_prompt": prompts["commonwhy_kgr_claim.txt"],
                "max_new_tokens": 8,
            },
        },
    }
    (wf / "config.yaml").write_text(yaml.safe_dump(config))
    (wf / "Snakefile").write_text(
        f'configfile: "config.yaml"\ninclude: "{REPO_ROOT}/workflow/rules/commonwhy_eval.smk"\n'
        "from benchval.jobs.commonwhy_eval_functions import outputs\n"
        "rule all:\n    input: outputs(LAYOUT)\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", "-q"], cwd=wf, capture_output=True, text=True, timeout=900
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return wf


@pytest.mark.slow
def test_rules_run_end_to_end(finished_run):
    out = finished_run / "results/commonwhy_eval"
    results = pd.read_csv(out / "results.csv")
    systems = {"tiny-a", "tiny-b", "kbbinder-tiny-a", "kgr-tiny-a"}
    assert set(results["system"]) == systems
    assert set(zip(results["source"], results["split"])) == {
        ("published", "head"),
        ("published", "longtail"),
        ("constructed", "head"),
        ("constructed", "longtail"),
    }
    assert results.loc[results["source"] == "published", "n"].eq(2).all()
    validity = json.loads((out / "judge_check/tiny-b.json").read_text())
    assert validity["n_pairs"] >= 10 and isinstance(validity["valid"], bool)
    scores = pd.read_csv(out / "judge_check/judge_check.csv")
    assert {"all", "evasive", "restated_question"} <= set(scores["subset"])
    canaries = json.loads((out / "judge_check/canaries.json").read_text())
    assert [c["judge"] for c in canaries] == [
        "canary-reference-words",
        "canary-always-yes",
        "canary-always-no",
        "canary-lexical-overlap",
        "canary-string-matcher",
        "canary-template-matcher",
        "canary-twin-matcher",
        "canary-surface-answer",
        "canary-surface-pair",
    ]
    assert not any(c["valid"] for c in canaries)  # every canary fails the gate
    assert set(scores.loc[scores["measured_by"] == "this run (canary)", "judge"]) == {c["judge"] for c in canaries}
    check_answers = pd.read_parquet(out / "judge_check/answers/tiny-a.parquet")
    assert len(check_answers) == len(pd.read_parquet(out / "judge_check/check_questions.parquet"))
    judged = pd.read_parquet(out / "judged/tiny-a.parquet")
    assert judged["judge_valid"].eq(validity["valid"]).all()
    if not validity["valid"]:  # a random-weight judge: correctness is invalid and its criterion rows absent
        assert results["correctness_status"].str.startswith("invalid").all()
        assert "judge_correct" not in set(pd.read_csv(out / "criterion_rows.csv")["metric"])
    rows = pd.read_csv(out / "criterion_rows.csv")
    assert set(rows["model"]) == {"tiny-a", "tiny-b"} and set(rows["task"]) == {"commonwhy_head", "commonwhy_longtail"}
    assert (out / "table2.png").stat().st_size > 1000
    # per split (Long-Tail, Head): 3 BERTScore, ROUGE-L, BLEU, METEOR, correctness, 3 BERTScore rescaled, FActScore,
    # coverage; + Notes
    wide = pd.read_csv(out / "table2_published.csv", index_col=0)
    assert wide.shape == (4, 2 * 12 + 1) and "BS-* (rescaled): (x - b) / (1 - b)" in wide["Notes"].iloc[0]
    baseline = pd.read_csv(out / "bertscore_baseline.csv")
    assert list(baseline.columns) == ["LAYER", "P", "R", "F"] and len(baseline) == 3  # embeddings + 2 layers
    metrics = pd.read_parquet(out / "metrics/tiny-a.parquet")
    b = baseline.loc[2, "F"]
    assert metrics["bs_f1_rescaled"].tolist() == pytest.approx(((metrics["bs_f1"] - b) / (1 - b)).tolist())
    kb = pd.read_parquet(out / "answers/kbbinder-tiny-a.parquet")
    assert kb["status"].notna().all() and kb["n_drafts"].eq(3).all()
    assert json.loads((out / "answers/kbbinder-tiny-a.timing.json").read_text())["n_drafts"] == 3 * len(kb)
    # resumable: the checkpoint holds every answered question once
    lines = (out / "answers/tiny-a.checkpoint.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 6


# --- what a change reruns (docs/workflow.md, "What reruns when"), on the finished run -------------------------------

ANSWER_GENERATION = {"commonwhy_eval_answer", "commonwhy_eval_kbbinder", "commonwhy_eval_kgr"}
ANSWERS_AND_SCORES = ANSWER_GENERATION | {"commonwhy_eval_sample", "commonwhy_eval_score"}
AFTER_JUDGING = {"commonwhy_eval_factscore", "commonwhy_eval_table2", "commonwhy_eval_criterion", "all"}


def _edited_config(wf, name, edit):
    config = yaml.safe_load((wf / "config.yaml").read_text())
    edit(config["commonwhy_eval"])
    path = wf / name
    path.write_text(yaml.safe_dump(config))
    return path


def _source_copy(root, *modules):
    """A copy of the package and workflow files with a comment appended to each of `modules` (the real source
    stays as it is)."""
    for part in ("src/benchval", "workflow", "config"):
        shutil.copytree(REPO_ROOT / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    for module in modules:
        edited = root / "src/benchval" / module
        edited.write_text(edited.read_text() + "# an edit that changes nothing but the module's bytes\n")
    return root


def _planned(wf, configfile=None, snakefile="Snakefile", pythonpath=None):
    """Rule -> job count of a dry run of the finished run (with `configfile` over config.yaml)."""
    command = snakemake_command(wf, *([configfile] if configfile else []), cores=2, snakefile=wf / snakefile)
    env = offline_env(**({"PYTHONPATH": str(pythonpath)} if pythonpath else {}))
    result, _ = run_snakemake([*command, "-n"], env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return job_counts(result.stdout + result.stderr)


def _planned_with_edited_file(wf, path):
    """The planned jobs after appending a line to ``path`` (put back afterwards, its bytes as they were)."""
    text = path.read_text()
    path.write_text(text + "Answer carefully.\n")
    try:
        return _planned(wf)
    finally:
        path.write_text(text)


@pytest.fixture(scope="module")
def plans(finished_run, tmp_path_factory):
    """Name -> planned jobs of each change, two dry runs at a time."""
    wf = finished_run
    copy = _source_copy(
        tmp_path_factory.mktemp("checkout"),
        "commonwhy/eval/steps/commonwhy_eval_factscore.py",
        "commonwhy/eval/factscore.py",
    )
    (wf / "Snakefile.copy").write_text(
        (wf / "Snakefile").read_text().replace(str(REPO_ROOT / "workflow"), str(copy / "workflow"))
    )
    runs = {
        "unchanged": lambda: _planned(wf),
        "answer_limit": lambda: _planned(
            wf, _edited_config(wf, "answer-limit.yaml", lambda c: c["judge_check"].update(answer_limit=1))
        ),
        "judge_decision": lambda: _planned(
            wf, _edited_config(wf, "judge-decision.yaml", lambda c: c["judge"].update(decision="calibrated"))
        ),
        "gate_bar": lambda: _planned(wf, _edited_config(wf, "bar.yaml", lambda c: c["judge_check"].update(bar=0.9))),
        "factscore_module": lambda: _planned(wf, snakefile="Snakefile.copy", pythonpath=copy / "src"),
    }
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(run) for name, run in runs.items()}
        planned = {name: future.result() for name, future in futures.items()}
    # a prompt file edited in place (the same path: only its content changed), then put back
    planned["judge_prompt"] = _planned_with_edited_file(wf, wf / "prompts/commonwhy_judge.txt")
    planned["answer_prompt"] = _planned_with_edited_file(wf, wf / "prompts/commonwhy_answer.txt")
    planned["restored"] = _planned(wf)
    for name, jobs in planned.items():
        print(f"{name}: {jobs}")
    return planned


@pytest.mark.slow
def test_finished_run_plans_nothing(plans):
    print("unchanged:", plans["unchanged"])
    assert plans["unchanged"] == {}


@pytest.mark.slow
def test_judge_keys_plan_no_answer_generation(plans):
    decision, limit = plans["judge_decision"], plans["answer_limit"]
    print("judge.decision:", decision)
    print("judge_check.answer_limit:", limit)
    # judge.decision: the judge's check and everything judged after it, nothing of the check set or the answers
    assert set(decision) == {
        "commonwhy_eval_judge_check",
        "commonwhy_eval_judge_check_report",
        "commonwhy_eval_judge",
    } | (AFTER_JUDGING)
    # answer_limit bounds the check questions the models answer: the check set is rebuilt, no evaluation answer
    assert {"commonwhy_eval_check_questions", "commonwhy_eval_check_set", "commonwhy_eval_judge"} <= set(limit)
    assert not ANSWERS_AND_SCORES & (set(decision) | set(limit))


@pytest.mark.slow
def test_gate_key_plans_no_check_answers(plans):
    print("judge_check.bar:", plans["gate_bar"])
    gate = {"commonwhy_eval_judge_canaries", "commonwhy_eval_judge_check", "commonwhy_eval_judge_check_report"}
    assert set(plans["gate_bar"]) == gate | {"commonwhy_eval_judge"} | AFTER_JUDGING


@pytest.mark.slow
def test_factscore_modules_plan_only_factscore_and_what_follows(plans):
    """The FActScore stage and the FActScore library module (the KG claim check, .kg_claims, is shared)."""
    print("stages/factscore.py and factscore.py edited:", plans["factscore_module"])
    assert set(plans["factscore_module"]) == AFTER_JUDGING


@pytest.mark.slow
def test_a_prompt_edit_plans_its_rules_and_what_follows(plans):
    """Issue 32: a prompt file is an input of the rules that read it (ancient, its content a param:
    benchval.jobs.rule_files). Appending a line to the judge's prompt replans the judge's check and the judge
    and what follows them, nothing else; the answer prompt replans the direct answers and the check answers and
    what follows them (the check set, so the judge's check), not KB-Binder (its prompts are others) nor the
    sampled questions. Put back, nothing is planned."""
    print("judge prompt:", plans["judge_prompt"])
    print("answer prompt:", plans["answer_prompt"])
    assert (
        set(plans["judge_prompt"])
        == {
            "commonwhy_eval_judge_check",
            "commonwhy_eval_judge_check_report",
            "commonwhy_eval_judge",
        }
        | AFTER_JUDGING
    )
    answer = set(plans["answer_prompt"])
    assert {"commonwhy_eval_answer", "commonwhy_eval_check_answer", "commonwhy_eval_score"} <= answer
    assert not {"commonwhy_eval_kbbinder", "commonwhy_eval_sample", "commonwhy_eval_check_questions"} & answer
    assert plans["restored"] == {}
