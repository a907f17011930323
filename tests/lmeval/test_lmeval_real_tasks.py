"""Real lm-evaluation-harness 0.4.13 ``--log_samples`` outputs of HellaSwag (4 options), ARC-Easy and
ARC-Challenge (3-5 options), an MMLU subject, a group of two MMLU subjects and a generative exact-match
task, imported item by item.

The outputs in tests/lmeval/real_runs/out/ were made by lm-eval itself on a tiny random model and mirror
data (tests/lmeval/real_runs/make_real_runs.py says exactly how). Before issue 37 the import of every
task with more than two options failed with sklearn's ``Target is multiclass but average='binary'``
(lm-eval's binary f1 was recomputed although the results JSON did not report it).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import f1_score

from benchval.lmeval.errors import LmEvalImportError
from benchval.lmeval.importer import lm_eval_study
from benchval.lmeval.recompute import exact_match

OUT = Path(__file__).parent / "real_runs" / "out"
TASKS = {
    "hellaswag": {"harness_task": "hellaswag", "role": "cs_original"},
    "arc_easy": {"harness_task": "arc_easy", "role": "downstream"},
    "arc_challenge": {"harness_task": "arc_challenge", "role": "downstream"},
    "mmlu_aa": {"harness_task": "mmlu_abstract_algebra", "role": "control"},
    "mmlu_mini": {"harness_task": "mmlu_mini", "role": "control"},
    "arc_gen": {"harness_task": "arc_easy_gen", "role": "downstream"},
}


def _study(path: Path = OUT, **samples) -> dict:
    return {
        "source": "lm_eval",
        "path": str(path),
        "samples": {"bootstrap": 100, **samples},
        "models": {"tiny-model": {"name": "tiny", "family": "llama"}},
        "tasks": {task: dict(spec) for task, spec in TASKS.items()},
    }


def _results(folder: Path = OUT) -> tuple[Path, dict]:
    path = next(folder.rglob("results_*.json"))
    return path, json.loads(path.read_text())


def _samples(folder: Path, task: str) -> list[dict]:
    path = next(folder.rglob(f"samples_{task}_*.jsonl"))
    return [json.loads(line) for line in path.read_text().splitlines()]


def _values(scores) -> dict:
    return {(row.task, row.metric): row.value for row in scores.itertuples()}


def test_the_outputs_are_lm_evals_own_and_have_more_than_two_options():
    _, payload = _results()
    assert payload["lm_eval_version"] == "0.4.13"
    options = {task: {len(s["arguments"]) for s in _samples(OUT, task)} for task in ("hellaswag", "arc_challenge")}
    assert options["hellaswag"] == {4} and max(options["arc_challenge"]) >= 4
    assert payload["group_subtasks"]["mmlu_mini"] == ["mmlu_abstract_algebra", "mmlu_college_mathematics"]
    assert payload["configs"]["arc_easy_gen"]["output_type"] == "generate_until"
    assert "f1,none" not in payload["results"]["hellaswag"]  # lm-eval reports acc and acc_norm only


def test_every_task_imports_with_lm_evals_own_figures():
    _, payload = _results()
    results = payload["results"]
    plain = _values(lm_eval_study("s", _study(normalisation="sum"), None)[0])
    per_char = _values(lm_eval_study("s", _study(normalisation="per_char"), None)[0])
    for task, spec in TASKS.items():
        figures = results[spec["harness_task"]]
        key = "exact_match,none" if task == "arc_gen" else "acc,none"
        assert plain[(task, "accuracy")] == pytest.approx(figures[key], abs=1e-15), task
        if "acc_norm,none" in figures:
            assert per_char[(task, "accuracy")] == pytest.approx(figures["acc_norm,none"], abs=1e-15), task
    assert ("arc_gen", "macro_f1") not in plain  # exact match: accuracy only
    assert 0 < plain[("arc_gen", "accuracy")] < 1  # both values occur (make_real_runs.py)


def _argmax_predictions(task: str) -> tuple[np.ndarray, np.ndarray]:
    records = _samples(OUT, task)
    gold = np.array([int(r["target"]) for r in records])
    predicted = np.array([int(np.argmax([float(lp) for lp, _ in r["filtered_resps"]])) for r in records])
    return gold, predicted


def test_macro_f1_is_sklearns_over_the_logged_log_likelihoods():
    plain = _values(lm_eval_study("s", _study(normalisation="sum"), None)[0])
    for task in ("hellaswag", "arc_easy", "mmlu_aa"):
        gold, predicted = _argmax_predictions(TASKS[task]["harness_task"])
        expected = f1_score(gold, predicted, average="macro", zero_division=0)
        assert plain[(task, "macro_f1")] == pytest.approx(expected, abs=1e-15), task


def test_a_group_is_its_subtasks_items():
    scores, _, intervals = lm_eval_study("s", _study(), None)
    correct = np.concatenate([np.equal(*_argmax_predictions(t)) for t in _results()[1]["group_subtasks"]["mmlu_mini"]])
    assert _values(scores)[("mmlu_mini", "accuracy")] == pytest.approx(correct.mean(), abs=1e-15)
    assert intervals.set_index(["task", "metric"]).loc[("mmlu_mini", "accuracy"), "n_items"] == 16


def test_exact_match_is_lm_evals_on_the_logged_answers_and_on_edge_cases():
    from lm_eval.api.metrics import exact_match_hf_evaluate

    _, payload = _results()
    options = next(m for m in payload["configs"]["arc_easy_gen"]["metric_list"] if m["metric"] == "exact_match")
    records = _samples(OUT, "arc_easy_gen")
    responses, targets = [r["filtered_resps"][0] for r in records], [r["target"] for r in records]
    cases = [
        (responses, targets, options),
        (["Paris.", "paris", "A 12", "x  ", "ab"], ["paris", "Paris!", "a 13", "x", "AB"], options),
        (["Paris.", "paris", "A 12", "x  ", "ab"], ["paris", "Paris!", "a 13", "x", "AB"], {"ignore_numbers": True}),
        (["The answer: 4", "4"], ["4", "4"], {"regexes_to_ignore": ["The answer: "]}),
    ]
    for got_r, got_t, opts in cases:
        keywords = {k: v for k, v in opts.items() if k in ("ignore_case", "ignore_punctuation", "ignore_numbers")}
        per_item = [
            exact_match_hf_evaluate([r], [t], regexes_to_ignore=opts.get("regexes_to_ignore"), **keywords)[
                "exact_match"
            ]
            for r, t in zip(got_r, got_t)
        ]
        assert list(exact_match(got_r, got_t, opts)) == per_item


def _copy(tmp_path: Path) -> tuple[Path, Path, dict]:
    copy = shutil.copytree(OUT, tmp_path / "copy")
    path, payload = _results(copy)
    return copy, path, payload


def _rewrite_samples(folder: Path, task: str, edit) -> None:
    path = next(folder.rglob(f"samples_{task}_*.jsonl"))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    edit(records)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.mark.parametrize(
    "case, match",
    [
        ("binary_f1_on_4_options", r"lm-eval's f1 \(binary\) reported for a task with more than two classes"),
        ("acc_of_another_run", r"samples_hellaswag_.*recomputed acc,none .* differs from"),
        ("acc_norm_of_another_run", r"samples_arc_challenge_.*recomputed acc_norm,none .* differs from"),
        ("logged_exact_match_edited", r"samples_arc_easy_gen_.*: line 2: exact_match recomputed .* differs"),
        ("exact_match_of_another_run", r"recomputed exact_match,none .* differs from"),
        ("group_figure_edited", r"group 'mmlu_mini' acc,none 0.9 is neither the mean"),
        ("two_filters", r"'arc_easy_gen' reports exact_match under filters \['none', 'strict-match'\]: name one"),
        ("generative_list_target", r"samples_arc_easy_gen_.*: line 1: target .* not one text each"),
    ],
)
def test_what_does_not_add_up_is_named(tmp_path, case, match):
    copy, path, payload = _copy(tmp_path)
    results = payload["results"]
    if case == "binary_f1_on_4_options":
        results["hellaswag"]["f1,none"] = 0.5
    elif case == "acc_of_another_run":
        results["hellaswag"]["acc,none"] = 0.875
    elif case == "acc_norm_of_another_run":
        results["arc_challenge"]["acc_norm,none"] = 0.5
    elif case == "logged_exact_match_edited":
        _rewrite_samples(copy, "arc_easy_gen", lambda rs: rs[1].update(exact_match=1.0))
    elif case == "exact_match_of_another_run":
        results["arc_easy_gen"]["exact_match,none"] = 0.25
    elif case == "group_figure_edited":
        results["mmlu_mini"]["acc,none"] = 0.9
    elif case == "two_filters":
        results["arc_easy_gen"]["exact_match,strict-match"] = 0.5
    elif case == "generative_list_target":
        _rewrite_samples(copy, "arc_easy_gen", lambda rs: rs[0].update(target=["a", "b"]))
    path.write_text(json.dumps(payload, indent=2))
    with pytest.raises(LmEvalImportError, match=match):
        lm_eval_study("s", _study(copy), None)


def test_a_named_filter_is_read_and_an_absent_one_is_an_error(tmp_path):
    copy, path, payload = _copy(tmp_path)
    payload["results"]["arc_easy_gen"]["exact_match,strict-match"] = 0.0
    path.write_text(json.dumps(payload, indent=2))
    study = _study(copy)
    study["tasks"]["arc_gen"]["filter"] = "none"
    assert _values(lm_eval_study("s", study, None)[0])[("arc_gen", "accuracy")] == 0.5
    study["tasks"]["arc_gen"]["filter"] = "flexible-extract"
    with pytest.raises(LmEvalImportError, match=r"no filter 'flexible-extract' \(it has \['none', 'strict-match'\]\)"):
        lm_eval_study("s", study, None)
