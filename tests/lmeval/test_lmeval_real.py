"""lm-evaluation-harness 0.4.13 itself, run offline on a tiny random-weight model and two mirror tasks
(task YAMLs of our own: dataset_path json, local data_files), imported item by item.

The run (one process, 6 items per task, bootstrap_iters 0 so that lm-eval's stderr are "N/A") is
built once for the module; the tests below read copies of its output folder.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from sklearn.metrics import f1_score

from benchval.analysis.study_import import StudyImportError
from benchval.lmeval.steps.import_score_table import import_study
from benchval.lmeval.importer import lm_eval_study
from benchval.lmeval.output_files import discover_runs
from benchval.lmeval.provenance import read_provenance
from benchval.lmeval.recompute import continuation_tokens
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.testing.snakemake_run import job_counts, offline_env, run_snakemake, snakemake_command
from benchval.testing.tiny import build_tiny_model

pytestmark = pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")
N_ITEMS = 6
TASKS = {
    "piqa": {"harness_task": "mirror_piqa", "role": "cs_original"},
    "creak": {"harness_task": "mirror_creak", "role": "downstream"},
}
TASK_YAML = """task: mirror_{name}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: multiple_choice
doc_to_text: {text}
doc_to_target: {target}
doc_to_choice: {choice}
metric_list:
  - metric: acc
  - metric: acc_norm
  - metric: f1
metadata:
  version: {version}
"""


def _write_tasks(folder: Path, mirror: Path) -> None:
    folder.mkdir()
    goals = (mirror / "piqa/valid.jsonl").read_text(encoding="utf-8").splitlines()[:N_ITEMS]
    labels = (mirror / "piqa/valid-labels.lst").read_text().split()[:N_ITEMS]
    piqa = [json.dumps({**json.loads(line), "label": int(label)}) for line, label in zip(goals, labels)]
    (folder / "piqa.jsonl").write_text("\n".join(piqa) + "\n", encoding="utf-8")
    creak = (mirror / "creak/dev.json").read_text(encoding="utf-8").splitlines()[:N_ITEMS]
    (folder / "creak.jsonl").write_text("\n".join(creak) + "\n", encoding="utf-8")
    specs = {
        "piqa": ('"Question: {{goal}}\\nAnswer:"', "label", '"{{[sol1, sol2]}}"', "1.0"),
        "creak": ('"{{sentence}} True or false?"', "\"{{0 if label == 'true' else 1}}\"", '["true", "false"]', "2.0"),
    }
    for name, (text, target, choice, version) in specs.items():
        yaml_text = TASK_YAML.format(
            name=name, data=folder / f"{name}.jsonl", text=text, target=target, choice=choice, version=version
        )
        (folder / f"mirror_{name}.yaml").write_text(yaml_text, encoding="utf-8")


# lm-eval's own command line (`lm_eval run ... --log_samples --include_path`) has no --bootstrap_iters
# in 0.4.13, and its default of 100000 sklearn resamples behind f1_stderr takes minutes even on 6 items;
# so the run goes through lm-eval's Python API, as its command line does it (simple_evaluate, then the
# EvaluationTracker writes results_<date>.json and samples_<task>_<date>.jsonl), with bootstrap_iters=0.
RUN_LM_EVAL = """
import sys
from lm_eval import simple_evaluate
from lm_eval.loggers import EvaluationTracker
from lm_eval.tasks import TaskManager

model, include_path, output_path = sys.argv[1:4]
tracker = EvaluationTracker(output_path=output_path)
results = simple_evaluate(
    model="hf", model_args=f"pretrained={model},dtype=float32", tasks=["mirror_piqa", "mirror_creak"],
    device="cpu", batch_size=1, log_samples=True, bootstrap_iters=0, evaluation_tracker=tracker,
    task_manager=TaskManager(include_path=include_path),
)
samples = results.pop("samples")
tracker.save_results_aggregated(results=results, samples=samples)
for task in results["configs"]:
    tracker.save_results_samples(task_name=task, samples=samples[task])
"""


@pytest.fixture(scope="module")
def lm_eval_run(tmp_path_factory):
    """(output folder, model folder) of one real lm-eval run with logged samples, offline."""
    root = tmp_path_factory.mktemp("lmeval")
    model = build_tiny_model(root / "tiny-model", seed=3)
    _write_tasks(root / "tasks", default_mirror())
    command = [sys.executable, "-c", RUN_LM_EVAL, str(model), str(root / "tasks"), str(root / "out")]
    result = subprocess.run(command, env=offline_env(OMP_NUM_THREADS="1"), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    return root / "out", model


def _study(path, model, **samples):
    return {
        "source": "lm_eval",
        "path": str(path),
        "samples": {"bootstrap": 200, **samples},
        "models": {str(model): {"name": "tiny", "family": "tiny-llama"}},
        "tasks": {task: dict(spec) for task, spec in TASKS.items()},
    }


def _results(folder: Path) -> dict:
    return json.loads(next(folder.rglob("results_*.json")).read_text())


def _logged_f1_pairs(folder: Path, harness_task: str) -> np.ndarray:
    path = next(folder.rglob(f"samples_{harness_task}_*.jsonl"))
    return np.array([json.loads(line)["f1"] for line in path.read_text().splitlines()], dtype=int)


def _values(scores: pd.DataFrame) -> dict:
    return {(row.task, row.metric): row.value for row in scores.itertuples()}


def test_recomputed_metrics_equal_lm_evals_own(lm_eval_run):
    out, model = lm_eval_run
    results = _results(out)["results"]
    plain = _values(lm_eval_study("s", _study(out, model, normalisation="sum"), None)[0])
    per_char = _values(lm_eval_study("s", _study(out, model, normalisation="per_char"), None)[0])
    for task, spec in TASKS.items():
        figures = results[spec["harness_task"]]
        assert plain[(task, "accuracy")] == figures["acc,none"]
        assert per_char[(task, "accuracy")] == figures["acc_norm,none"]
        gold, predicted = _logged_f1_pairs(out, spec["harness_task"]).T  # lm-eval logs [gold, argmax] per item
        assert f1_score(gold, predicted) == pytest.approx(figures["f1,none"], abs=1e-15)  # lm-eval's f1: binary
        ours = f1_score(gold, predicted, average="macro", zero_division=0)
        assert plain[(task, "macro_f1")] == pytest.approx(ours, abs=1e-15)
        assert figures["acc_stderr,none"] == "N/A"  # --bootstrap_iters 0: lm-eval writes "N/A", not read as a value


def test_provenance_size_and_intervals(lm_eval_run):
    import torch
    from transformers import AutoModelForCausalLM

    out, model = lm_eval_run
    scores, tasks, intervals = lm_eval_study("s", _study(out, model), None)
    counted = sum(p.numel() for p in AutoModelForCausalLM.from_pretrained(model, dtype=torch.float32).parameters())
    assert _results(out)["config"]["model_num_parameters"] == counted
    assert (scores["size_b"] == counted / 1e9).all() and (scores["family"] == "tiny-llama").all()
    assert set(tasks["task"]) == set(TASKS)
    assert (intervals["ci_low"] <= intervals["value"]).all() and (intervals["value"] <= intervals["ci_high"]).all()
    assert (intervals["n_items"] == N_ITEMS).all()
    run = discover_runs(out)[0]
    provenance = read_provenance(run.payload, "pretrained", run.results)
    assert (provenance.dtype, provenance.revision, provenance.source_model) == ("torch.float32", "main", str(model))


def test_per_byte_is_argmax_over_utf8_bytes_of_the_choice(lm_eval_run):
    """Hand-computed from the raw samples lines: log-likelihood / UTF-8 bytes of the choice without
    lm-eval's target delimiter (" "), argmax, compared with the target."""
    out, model = lm_eval_run
    per_byte = _values(lm_eval_study("s", _study(out, model, normalisation="per_byte"), None)[0])
    for task, spec in TASKS.items():
        path = next(out.rglob(f"samples_{spec['harness_task']}_*.jsonl"))
        correct = []
        for line in path.read_text().splitlines():
            record = json.loads(line)
            choices = [a["arg_1"].removeprefix(" ") for a in record["arguments"].values()]
            scores = [float(lp) / len(c.encode("utf-8")) for (lp, _), c in zip(record["filtered_resps"], choices)]
            correct.append(int(np.argmax(scores)) == int(record["target"]))
        assert per_byte[(task, "accuracy")] == np.mean(correct)


def test_per_token_counts_are_lm_evals_encoding(lm_eval_run):
    """Our continuation token counts equal the continuation lm-eval's HFLM encodes for each request."""
    from lm_eval.models.huggingface import HFLM
    from transformers import AutoTokenizer

    out, model = lm_eval_run
    harness = HFLM(pretrained=str(model), device="cpu", batch_size=1)
    tokenizer = AutoTokenizer.from_pretrained(model)
    checked = 0
    for path in out.rglob("samples_*.jsonl"):
        for line in path.read_text().splitlines():
            for request in json.loads(line)["arguments"].values():
                context, continuation = request["arg_0"], request["arg_1"]
                _, expected = harness._encode_pair(context, continuation)
                assert continuation_tokens(tokenizer, context, continuation) == len(expected)
                checked += 1
    assert checked == 2 * 2 * N_ITEMS
    study = _study(out, model, normalisation="per_token")
    with pytest.raises(StudyImportError, match="no n_tokens for per_token normalisation.*tokenizers"):
        lm_eval_study("s", study, None)
    study["samples"]["tokenizers"] = {str(model): str(model)}
    assert len(lm_eval_study("s", study, None)[0]) == 4


def _as_early_04(out: Path, destination: Path) -> Path:
    """The run rewritten as lm-eval 0.4.0-0.4.2 wrote it (its __main__.py): results.json and
    <model_args>_<task>.jsonl holding one indented JSON array; arguments as [context, continuation]
    lists, numbers and booleans, int targets, no hashes."""
    destination.mkdir(parents=True)
    payload = _results(out)
    payload.pop("task_hashes")
    (destination / "results.json").write_text(json.dumps(payload))
    for path in out.rglob("samples_*.jsonl"):
        task = next(t["harness_task"] for t in TASKS.values() if path.name.startswith(f"samples_{t['harness_task']}_"))
        records = []
        for line in path.read_text().splitlines():
            record = json.loads(line)
            record["arguments"] = [[a["arg_0"], a["arg_1"]] for a in record["arguments"].values()]
            record["resps"] = [[[float(lp), greedy == "True"]] for [[lp, greedy]] in record["resps"]]
            record["filtered_resps"] = [[float(lp), greedy == "True"] for lp, greedy in record["filtered_resps"]]
            record["target"] = int(record["target"])
            for key in ("doc_hash", "prompt_hash", "target_hash"):
                record.pop(key)
            records.append(record)
        # lm-eval 0.4.0-0.4.2: json.dumps(samples[task], indent=2) into <model_args>_<task>.jsonl
        (destination / f"pretrained__tiny,dtype__float32_{task}.jsonl").write_text(json.dumps(records, indent=2))
    return destination


def test_older_04_layout_gives_the_same_metrics(lm_eval_run, tmp_path):
    out, model = lm_eval_run
    early = _as_early_04(out, tmp_path / "early")
    assert [run.layout for run in discover_runs(early)] == ["0.4-early"]
    expected = lm_eval_study("s", _study(out, model, normalisation="per_char"), None)[0]
    got = lm_eval_study("s", _study(early, model, normalisation="per_char"), None)[0]
    pd.testing.assert_frame_equal(got, expected)
    (early / "results.json").rename(early / "tiny-run.json")  # --output_path tiny-run.json
    assert [run.layout for run in discover_runs(early)] == ["0.4-early"]
    pd.testing.assert_frame_equal(lm_eval_study("s", _study(early, model, normalisation="per_char"), None)[0], expected)
    samples = next(early.glob("*_mirror_piqa.jsonl"))
    samples.write_text(samples.read_text()[:-40])
    with pytest.raises(StudyImportError, match=r"_mirror_piqa.jsonl: line \d+: not valid JSON, truncated"):
        lm_eval_study("s", _study(early, model), None)


def test_03_layouts_fail_clearly(tmp_path):
    folder = tmp_path / "v03"
    folder.mkdir()
    (folder / "results.json").write_text(
        json.dumps({"results": {"piqa": {"acc": 0.6, "acc_stderr": 0.01}}, "config": {"model_args": "pretrained=m"}})
    )
    study = {"source": "lm_eval", "path": str(folder), "samples": {}, "models": {"m": {"name": "m", "family": "f"}}}
    with pytest.raises(StudyImportError, match=r"results\.json.*0\.3 layout"):
        lm_eval_study("s", {**study, "tasks": TASKS}, None)
    (folder / "results.json").unlink()
    (folder / "piqa_write_out_info.json").write_text("[]")
    with pytest.raises(StudyImportError, match="piqa_write_out_info.json: lm-evaluation-harness 0.3"):
        lm_eval_study("s", {**study, "tasks": TASKS}, None)


def _copy(out: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """A copy of the run: (folder, its results JSON, its piqa samples file)."""
    copy = shutil.copytree(out, tmp_path / "copy")
    return copy, next(copy.rglob("results_*.json")), next(copy.rglob("samples_mirror_piqa_*.jsonl"))


def _edit_line(path: Path, number: int, edit) -> None:
    lines = path.read_text().splitlines()
    lines[number - 1] = edit(lines[number - 1])
    path.write_text("\n".join(lines) + "\n")


def _set_logprob(value):
    def edit(line):
        record = json.loads(line)
        record["filtered_resps"][1][0] = value
        return json.dumps(record)

    return edit


@pytest.mark.parametrize(
    "case, match",
    [
        ("truncated", r"line 3: not valid JSON, truncated"),
        ("doc_twice", r"line 4: doc_id 1 seen twice \(first at line 2\)"),
        ("na_logprob", r"line 2: option 1: log-likelihood 'N/A' is not a number"),
        ("bool_logprob", r"line 2: option 1: log-likelihood True is not a number"),
        ("orphan_samples", r"samples_mirror_.*: samples file without its results JSON"),
        ("no_samples", r"results_.*json: task 'mirror_piqa' has no samples file beside it"),
        ("na_metric", r"results_.*json: line 7: results\['mirror_piqa'\]\['acc,none'\] = 'N/A' is not a number"),
        ("bool_metric", r"results_.*json: line 9: results\['mirror_piqa'\]\['f1,none'\] = True is not a number"),
        ("other_run", r"recomputed acc,none .* differs from .*results_"),
    ],
)
def test_bad_input_fails_naming_file_and_line(lm_eval_run, tmp_path, case, match):
    out, model = lm_eval_run
    copy, results, samples = _copy(out, tmp_path)
    payload = json.loads(results.read_text())
    if case == "truncated":
        _edit_line(samples, 3, lambda line: line[: len(line) // 2])
    elif case == "doc_twice":
        _edit_line(samples, 4, lambda line: json.dumps({**json.loads(line), "doc_id": 1}))
    elif case == "na_logprob":
        _edit_line(samples, 2, _set_logprob("N/A"))
    elif case == "bool_logprob":
        _edit_line(samples, 2, _set_logprob(True))
    elif case == "orphan_samples":
        results.unlink()
    elif case == "no_samples":
        samples.unlink()
    elif case in ("na_metric", "bool_metric", "other_run"):
        key, value = {"na_metric": ("acc,none", "N/A"), "bool_metric": ("f1,none", True)}.get(case, ("acc,none", 0.5))
        payload["results"]["mirror_piqa"][key] = value
        if case == "other_run":
            payload["results"]["mirror_piqa"][key] = 1 - payload["results"]["mirror_piqa"][key]
        results.write_text(json.dumps(payload, indent=2))  # as lm-eval writes it, one key a line
    with pytest.raises(StudyImportError, match=match):
        lm_eval_study("s", _study(copy, model), None)


def _second_model(copy: Path, results: Path, name: str, edit=None) -> Path:
    """Another model's run beside the first: the same output under its own folder and model_args."""
    folder = copy / name
    shutil.copytree(results.parent, folder)
    path = next(folder.glob("results_*.json"))
    payload = json.loads(path.read_text())
    payload["config"]["model_args"] = f"pretrained={name},dtype=float32"
    if edit is not None:
        edit(payload)
    path.write_text(json.dumps(payload))
    return path


@pytest.mark.parametrize(
    "edit, match",
    [
        (lambda p: p["config"].update(limit=3), r"model 'other': .* ran with limit 3"),
        (lambda p: p["versions"].update(mirror_creak=3.0), r"task 'creak': version differs between models"),
        (lambda p: p["n-shot"].update(mirror_piqa=5), r"task 'piqa': few-shot count differs between models"),
        (lambda p: p["task_hashes"].update(mirror_piqa="x"), r"task 'piqa': task hash differs between models"),
        (lambda p: p.update(chat_template_sha="abc"), r"chat template on models \['other'\] only"),
    ],
)
def test_runs_that_are_not_comparable_are_named(lm_eval_run, tmp_path, edit, match):
    out, model = lm_eval_run
    copy, results, _ = _copy(out, tmp_path)
    study = _study(copy, model)
    study["models"]["other"] = {"name": "other", "family": "tiny-llama"}
    _second_model(copy, results, "other")
    assert lm_eval_study("s", study, None)[0]["model"].nunique() == 2  # comparable as they are
    shutil.rmtree(copy / "other")
    _second_model(copy, results, "other", edit)
    with pytest.raises(StudyImportError, match=match):
        lm_eval_study("s", study, None)
    study["samples"]["allow_incomparable"] = True
    assert lm_eval_study("s", study, None)[0]["model"].nunique() == 2


def test_a_model_in_two_result_folders_is_an_error_naming_both(lm_eval_run, tmp_path):
    out, model = lm_eval_run
    copy, results, _ = _copy(out, tmp_path)
    shutil.copytree(results.parent, copy / "again")
    with pytest.raises(StudyImportError, match=r"found in two result folders: .*copy/__.* and .*copy/again"):
        lm_eval_study("s", _study(copy, model), None)


def test_item_intervals_table(lm_eval_run, tmp_path):
    from benchval.lmeval.importer import write_item_intervals

    out, model = lm_eval_run
    first = write_item_intervals("s", _study(out, model), None, tmp_path / "item_intervals.csv", seed=5)
    table = pd.read_csv(tmp_path / "item_intervals.csv")
    assert len(table) == 4 and (table["n_boot"] == 200).all() and table[["ci_low", "ci_high"]].notna().all().all()
    again = write_item_intervals("s", _study(out, model), None, tmp_path / "again.csv", seed=5)
    pd.testing.assert_frame_equal(first, again)  # seeded: the same intervals


def test_import_study_writes_the_score_table(lm_eval_run, tmp_path):
    out, model = lm_eval_run
    import_study("s", _study(out, model, normalisation="per_char"), None, tmp_path / "t.csv", tmp_path / "k.csv")
    table = pd.read_csv(tmp_path / "t.csv")
    assert set(table["task"]) == set(TASKS) and set(table["metric"]) == {"accuracy", "macro_f1"}


def test_study_target_plans_the_import_and_analysis_only(lm_eval_run, tmp_path):
    """docs/configuration.md's second step: `snakemake study_<name>` imports and analyses, scores nothing."""
    out, model = lm_eval_run
    overlay = tmp_path / "my-lmeval.yaml"
    study = _study(out, model, normalisation="per_char")
    overlay.write_text(yaml.safe_dump({"studies": {"my_lmeval": study}}))
    command = snakemake_command(tmp_path, REPO_ROOT / "config/config.yaml", overlay, cores=1)
    result, _ = run_snakemake([*command, "-n", "study_my_lmeval"])
    assert result.returncode == 0, result.stderr[-3000:]
    jobs = job_counts(result.stdout + result.stderr)
    assert jobs["import_score_table"] == jobs["lmeval_item_intervals"] == jobs["study_my_lmeval"] == 1
    assert any(rule.startswith("analysis_figure_") for rule in jobs)
    assert not any(rule.startswith(("score", "prepare", "evaluate", "calibrate")) for rule in jobs)


def test_item_results_give_task_reliability_its_item_bootstrap(lm_eval_run, tmp_path):
    """Issue 25 x 26: an lm_eval study read item by item gets task reliability from its samples (the item
    bootstrap), not from a declared item count; the items' accuracy is the imported score."""
    from benchval.analysis.reliability import reliability_table
    from benchval.analysis.study_table import load_study
    from benchval.lmeval.importer import item_results

    out, model = lm_eval_run
    copy, results, _ = _copy(out, tmp_path)
    study = _study(copy, model)
    study["models"]["other"] = {"name": "other", "family": "tiny-llama"}
    _second_model(copy, results, "other")
    per_task = item_results("s", study, None)
    scores, tasks, _ = lm_eval_study("s", study, None)
    for task, found in per_task.items():
        assert set(found.predictions) == {"tiny", "other"}
        for name, predicted in found.predictions.items():
            accuracy = float(np.mean(predicted == found.labels))
            row = (scores["model"] == name) & (scores["task"] == task) & (scores["metric"] == "accuracy")
            expected = scores.loc[row, "value"].item()
            assert accuracy == pytest.approx(expected, abs=1e-12)
    scores.to_csv(tmp_path / "score_table.csv", index=False)
    tasks.to_csv(tmp_path / "tasks.csv", index=False)
    settings = {"seed": 1, "n_bootstrap": 50, "min_models": 5, "n_splits": 4}
    table = reliability_table(
        load_study(tmp_path / "score_table.csv", tmp_path / "tasks.csv"), ["accuracy"], per_task, {}, settings
    )
    assert set(table["variance_source"]) == {"item_bootstrap"}, table[["task", "variance_source"]]
