"""score_tasks (rule score_model_<model>): several tasks with one model loaded once, the same files
as one score_task job per task, and a rerun that rescores only the task that changed."""

import json
from pathlib import Path

import numpy as np
from scoring_fixtures import make_items

from benchval.jobs.cluster_resources import model_resources
from benchval.scoring import task_scoring as run_module
from benchval.scoring.store import read_scores, read_scores_meta

SCORING = {"engine": "fast", "normalisation": "per_token", "batch_tokens": 512, "shard_items": 2, "progress": False}
MODEL = {"device": "cpu", "dtype": "float32"}
MODES = {"toy_mc": "mc", "toy_partial": "partial", "toy_calibrated": "calibrated"}


def write_tasks(root: Path, modes=MODES, empty=()) -> dict[str, Path]:
    paths = {}
    for task, mode in modes.items():
        items = make_items(mode).iloc[:0] if task in empty else make_items(mode)
        path = root / "tasks" / f"{task}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        items.to_parquet(path)
        path.with_name(f"{task}.meta.json").write_text(json.dumps({"task": task, "scoring_mode": mode}))
        paths[task] = path
    return paths


def task_files(root: Path, items: dict[str, Path], out: str) -> list[run_module.TaskFiles]:
    return [
        run_module.TaskFiles(str(path), str(root / out / f"{task}.parquet"), str(root / out / f"{task}.shards"))
        for task, path in items.items()
    ]


def count_loads(monkeypatch) -> list:
    loads = []
    real = run_module.load_scorer

    def counting(*args, **kwargs):
        loads.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(run_module, "load_scorer", counting)
    return loads


def assert_same_scores(a: Path, b: Path):
    left, right = read_scores(a), read_scores(b)
    assert left.drop(columns="token_logprobs").equals(right.drop(columns="token_logprobs"))
    assert all(np.array_equal(x, y) for x, y in zip(left["token_logprobs"], right["token_logprobs"]))
    assert read_scores_meta(a)["cache_key"] == read_scores_meta(b)["cache_key"]


def test_one_load_for_all_tasks_and_the_same_files_as_per_task_jobs(tmp_path, model_dirs, monkeypatch):
    items = write_tasks(tmp_path)
    loads = count_loads(monkeypatch)
    summaries = run_module.score_tasks(
        task_files(tmp_path, items, "per_model"),
        model_dirs["llama_bos"],
        SCORING,
        MODEL,
        model_name="toy-model",
        threads=1,
    )
    assert len(loads) == 1 and len(summaries) == len(MODES)
    for task, path in items.items():
        run_module.score_task(
            path,
            model_dirs["llama_bos"],
            tmp_path / "per_task" / f"{task}.parquet",
            SCORING,
            MODEL,
            tmp_path / "per_task" / f"{task}.shards",
            model_name="toy-model",
            threads=1,
        )
        assert_same_scores(tmp_path / "per_model" / f"{task}.parquet", tmp_path / "per_task" / f"{task}.parquet")
    assert len(loads) == 1 + len(MODES)  # each per-task job loads the model itself


def test_a_rerun_rescores_only_the_changed_task(tmp_path, model_dirs, monkeypatch):
    items = write_tasks(tmp_path)
    files = task_files(tmp_path, items, "scores")
    run_module.score_tasks(files, model_dirs["llama_nobos"], SCORING, MODEL, model_name="toy-model")
    changed = make_items("mc").iloc[:-1]  # one item fewer
    changed.to_parquet(items["toy_mc"])
    summaries = run_module.score_tasks(files, model_dirs["llama_nobos"], SCORING, MODEL, model_name="toy-model")
    by_task = {Path(out).stem: summary for out, summary in summaries.items()}
    assert by_task["toy_partial"]["scored_shards"] == 0 and by_task["toy_partial"]["reused_shards"] > 0
    assert by_task["toy_calibrated"]["scored_shards"] == 0
    assert by_task["toy_mc"]["scored_shards"] >= 1
    assert set(read_scores(files[0].out_parquet)["item_id"]) == set(changed["id"])


def test_no_model_is_loaded_when_no_task_has_items(tmp_path, monkeypatch):
    items = write_tasks(tmp_path, {"unavailable": "mc"}, empty={"unavailable"})
    loads = count_loads(monkeypatch)
    summaries = run_module.score_tasks(
        task_files(tmp_path, items, "scores"), tmp_path / "no-model-here", SCORING, MODEL, model_name="toy-model"
    )
    assert loads == [] and next(iter(summaries.values()))["n_requests"] == 0
    assert read_scores(tmp_path / "scores" / "unavailable.parquet").empty


def test_a_per_model_job_gets_runtime_for_each_task_and_the_memory_of_one():
    one = model_resources(0.5, "score", on_gpu=False, dtype="float32")
    nineteen = model_resources(0.5, "score", on_gpu=False, dtype="float32", n_tasks=19)
    assert nineteen["mem_mb"] == one["mem_mb"]
    assert nineteen["runtime"] - 30 == 19 * (one["runtime"] - 30)
    gpu_one = model_resources(70, "score", on_gpu=True, dtype="bfloat16")
    gpu_all = model_resources(70, "score", on_gpu=True, dtype="bfloat16", n_tasks=19)
    assert gpu_all["gpu"] == gpu_one["gpu"] and gpu_all["runtime"] == 30 + 19 * 2 * 70
    assert model_resources(70, "generate", on_gpu=True, dtype="bfloat16", n_tasks=19)["runtime"] == 30 + 4 * 70
