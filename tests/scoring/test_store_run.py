"""Scores file, shards and resume, score_task, the rule's config schema, lm-eval-style samples."""

import json
from pathlib import Path

import jsonschema
import numpy as np
import pandas as pd
import pytest
import yaml
from scoring_fixtures import make_items

from benchval.models.loader import load_model
from benchval.plumbing.folders import REPO_ROOT
from benchval.scoring import task_scoring as run_module
from benchval.scoring.scorer_factory import make_scorer
from benchval.evaluation.lmeval_format import lmeval_sample_rows, write_lmeval_samples
from benchval.scoring.requests import build_requests
from benchval.scoring.store import ScoresFileError, read_scores, read_scores_meta, write_scores


def _write_task(tmp_path: Path, mode: str, n_copies: int = 1) -> Path:
    items = make_items(mode)
    if n_copies > 1:  # more items, so that there are several shards
        items = pd.concat([items.assign(id=items["id"] + f"-{k}") for k in range(n_copies)], ignore_index=True)
    path = tmp_path / "tasks" / "toy.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    items.to_parquet(path)
    path.with_name("toy.meta.json").write_text(json.dumps({"task": "toy", "scoring_mode": mode}))
    return path


def _score(tmp_path, items_path, model_dir, engine="fast", shard_items=2, scorer=None, out="scores.parquet"):
    return run_module.score_task(
        items_path,
        model_dir,
        tmp_path / out,
        {
            "engine": engine,
            "normalisation": "per_token",
            "batch_tokens": 512,
            "shard_items": shard_items,
            "progress": False,
        },
        {"device": "cpu", "dtype": "float32"},
        tmp_path / "shards",
        model_name="toy-model",
        threads=1,
        scorer=scorer,
    )


def test_scores_file_roundtrip_and_validation(tmp_path, loaded):
    model, tok = loaded["llama_nobos"]
    scores = make_scorer("reference", model, tok).score(build_requests(make_items("mc"), "mc"))
    path = write_scores(scores, tmp_path / "s.parquet", {"model": "m", "cache_key": "k"})
    back = read_scores(path)
    assert read_scores_meta(path) == {"model": "m", "cache_key": "k"}
    assert back.drop(columns="token_logprobs").equals(scores.drop(columns="token_logprobs"))
    assert all(np.array_equal(a, b) for a, b in zip(back["token_logprobs"], scores["token_logprobs"]))
    broken = scores.assign(n_tokens=scores["n_tokens"] + 1)
    write_scores(broken, tmp_path / "bad.parquet", {})
    with pytest.raises(ScoresFileError, match=r"bad.parquet: row 0: \d+ token_logprobs but n_tokens"):
        read_scores(tmp_path / "bad.parquet")
    with pytest.raises(ScoresFileError, match="lack columns"):
        write_scores(scores.drop(columns="is_greedy"), tmp_path / "x.parquet", {})


def test_score_task_writes_the_contract(tmp_path, model_dirs):
    items_path = _write_task(tmp_path, "calibrated")
    summary = _score(tmp_path, items_path, model_dirs["llama_bos"])
    scores = read_scores(tmp_path / "scores.parquet")
    meta = read_scores_meta(tmp_path / "scores.parquet")
    requests = build_requests(pd.read_parquet(items_path), "calibrated")
    assert scores["request_id"].tolist() == requests["request_id"].tolist()
    assert (scores["kind"] == "prior").sum() == requests["kind"].eq("prior").sum() > 0
    assert meta["model"] == "toy-model" and meta["engine"] == "fast" and meta["scoring_mode"] == "calibrated"
    assert len(meta["weights_sha256"]) == 64 and len(meta["cache_key"]) == 64
    n_priors = int(requests["kind"].eq("prior").sum())
    assert summary["scored_shards"] == summary["n_shards"] == 2 + -(-n_priors // 2)  # 2 + 2 items, then priors
    ref = make_scorer("reference", *load_model(model_dirs["llama_bos"])).score(requests)
    assert np.max(np.abs(scores["logprob_sum"] - ref["logprob_sum"])) <= 1e-4


class Interrupt(RuntimeError):
    pass


def test_resume_after_interruption_gives_identical_output(tmp_path, model_dirs):
    items_path = _write_task(tmp_path, "mc", n_copies=2)  # 8 items -> 4 shards of 2
    model, tok = load_model(model_dirs["llama_nobos"])
    full = tmp_path / "full"
    full.mkdir()
    _score(full, items_path, model_dirs["llama_nobos"], scorer=make_scorer("fast", model, tok, batch_tokens=512))

    scorer = make_scorer("fast", model, tok, batch_tokens=512)
    real_score, calls = scorer.score, []

    def dying_score(requests):
        calls.append(len(requests))
        if len(calls) == 3:
            raise Interrupt("killed during the third shard")
        return real_score(requests)

    scorer.score = dying_score
    with pytest.raises(Interrupt):
        _score(tmp_path, items_path, model_dirs["llama_nobos"], scorer=scorer)
    assert not (tmp_path / "scores.parquet").exists()
    assert sorted(p.name for p in (tmp_path / "shards").iterdir()) == ["shard-00000.parquet", "shard-00001.parquet"]

    calls.clear()
    summary = _score(tmp_path, items_path, model_dirs["llama_nobos"], scorer=scorer)
    assert summary["reused_shards"] == 2 and summary["scored_shards"] == 2 and len(calls) == 2
    resumed, uninterrupted = read_scores(tmp_path / "scores.parquet"), read_scores(full / "scores.parquet")
    assert resumed.drop(columns="token_logprobs").equals(uninterrupted.drop(columns="token_logprobs"))
    assert all(np.array_equal(a, b) for a, b in zip(resumed["token_logprobs"], uninterrupted["token_logprobs"]))


def test_changed_engine_invalidates_shards(tmp_path, model_dirs):
    items_path = _write_task(tmp_path, "mc")
    _score(tmp_path, items_path, model_dirs["llama_nobos"], engine="fast")
    again = _score(tmp_path, items_path, model_dirs["llama_nobos"], engine="fast")
    assert again["reused_shards"] == again["n_shards"]
    other = _score(tmp_path, items_path, model_dirs["llama_nobos"], engine="reference")
    assert other["reused_shards"] == 0 and other["scored_shards"] == other["n_shards"]


def test_missing_scoring_mode_is_reported(tmp_path, model_dirs):
    items_path = _write_task(tmp_path, "mc")
    items_path.with_name("toy.meta.json").write_text(json.dumps({"task": "toy"}))
    with pytest.raises(KeyError, match="no 'scoring_mode'"):
        _score(tmp_path, items_path, model_dirs["llama_nobos"])


def test_lmeval_samples_shape(tmp_path, loaded):
    model, tok = loaded["llama_nobos"]
    items = make_items("mc")
    scores = make_scorer("fast", model, tok).score(build_requests(items, "mc"))
    rows = lmeval_sample_rows(scores, items)
    assert [r["doc_id"] for r in rows] == list(range(len(items)))
    first = rows[0]
    assert first["arguments"][0] == [items["context"][0], items["options"][0][0]]
    assert first["filtered_resps"][0] == [scores["logprob_sum"][0], bool(scores["is_greedy"][0])]
    assert first["resps"][0] == [first["filtered_resps"][0]]
    assert first["target"] == int(items["label"][0])
    lls = [r[0] for r in rows[2]["filtered_resps"]]
    assert rows[2]["acc"] == float(np.argmax(lls) == items["label"][2])
    path = write_lmeval_samples(scores, items, tmp_path / "samples.jsonl")
    assert [json.loads(line) for line in path.read_text().splitlines()] == rows
    with pytest.raises(ValueError, match="item 'i-0': 2 scored options, expected 3"):
        lmeval_sample_rows(scores.drop(index=0), items)


def test_config_scoring_block_follows_the_schema():
    schema = yaml.safe_load((REPO_ROOT / "workflow" / "schemas" / "scoring.schema.yaml").read_text())
    config = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())
    validator = jsonschema.validators.validator_for(schema)(schema)
    validator.validate(config["scoring"])
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**config["scoring"], "unknown_key": 1})
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**config["scoring"], "engine": "turbo"})


def test_job_resources_grow_with_model_size():
    from benchval.scoring.resources import job_resources

    small, large = job_resources(0.135), job_resources(1.5)
    assert large["mem_mb"] > small["mem_mb"] and large["runtime"] > small["runtime"]
    assert job_resources(1.5, "bfloat16")["mem_mb"] < large["mem_mb"]
