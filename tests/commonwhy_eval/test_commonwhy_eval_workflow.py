"""The commonwhy_eval rules end to end with tiny local models, a tiny KG store and tiny question tables."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from benchval.plumbing.folders import REPO_ROOT
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
        }
        for i, split in enumerate(["head", "longtail"])
    ]
    pq.write_table(
        pa.Table.from_pylist(constructed, schema=CONSTRUCTED_SCHEMA), wf / "results/commonwhy/constructed.parquet"
    )


@pytest.mark.slow
def test_rules_run_end_to_end(tmp_path, tiny_lm_builder):
    import pyoxigraph as ox

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
    prompts = {p.name: str(p) for p in (REPO_ROOT / "config/prompts").glob("commonwhy_*.txt")}
    mirror = wf / "mirror"
    mirror.mkdir()
    (mirror / "sentences.json").write_text(
        "".join(
            json.dumps({"text": f"{a} was born in {b}"}) + "\n"
            for a in ("anna berg", "tour alpha", "germany")
            for b in ("france", "germany", "anna")
        )
    )
    digest = hashlib.sha256((mirror / "sentences.json").read_bytes()).hexdigest()
    (mirror / "SHA256SUMS").write_text(f"{digest}  sentences.json\n")  # checked where the baseline rule reads it
    config = {
        "seed": 3,
        "mirror": str(mirror),
        "models": {
            n: {"family": "tiny", "size_b": 0.0001, "dtype": "float32", "device": "cpu"} for n in ("tiny-a", "tiny-b")
        },
        "commonwhy": {"kg": {"source": "local", "store": "resources/kg/tiny.oxigraph"}},
        # a scored study that uses the criterion: commonwhy_eval_outputs() lists the files only then
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
        "rule all:\n    input: commonwhy_eval_outputs()\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", "-q"], cwd=wf, capture_output=True, text=True, timeout=900
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out = wf / "results/commonwhy_eval"
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
