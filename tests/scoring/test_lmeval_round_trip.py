"""results/lmeval/ read by lm-evaluation-harness's own reader: the keys mean what lm-eval means by them.

Our per-model results JSON and samples (benchval.evaluation.lmeval_format, .evaluate) are given to
``lm_eval.utils.make_table`` (what ``lm_eval`` prints after a run); the table must show the numbers we
computed, and lm-eval's keys must hold lm-eval's figures: ``acc`` by summed log-likelihood, ``acc_norm``
per character of the choice (``ConfigurableTask.process_results``), ``f1`` binary
(``lm_eval.api.metrics.f1_score``), while our metrics appear only under their own names."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from benchval.evaluation.evaluate import lmeval_results, lmeval_samples

lm_eval_utils = pytest.importorskip("lm_eval.utils")
lm_eval_metrics = pytest.importorskip("lm_eval.api.metrics")


def _task(n_options: int, n_items: int = 12, seed: int = 5):
    """Items whose options differ in length, so that acc, acc_norm and our per-token prediction differ."""
    rng = np.random.default_rng(seed)
    items, scores = [], []
    for i in range(n_items):
        options = ["x" * int(rng.integers(1, 9)) for _ in range(n_options)]
        items.append(
            {"id": f"q{i}", "context": f"Question {i}:", "options": options, "label": int(rng.integers(n_options))}
        )
        for k, option in enumerate(options):
            continuation = " " + option
            scores.append(
                {
                    "item_id": f"q{i}",
                    "option_index": k,
                    "kind": "option",
                    "context": f"Question {i}:",
                    "continuation": continuation,
                    "logprob_sum": float(-rng.uniform(1, 10)),
                    "is_greedy": False,
                    "n_tokens": int(rng.integers(1, 4)),
                    "n_chars": len(continuation),
                    "n_bytes": len(continuation.encode()),
                }
            )
    return pd.DataFrame(items), pd.DataFrame(scores)


def _ours(items: pd.DataFrame, scores: pd.DataFrame):
    """Our metrics under a per-token normalisation (the default study's), as the evaluate rule writes them."""
    per_token = scores["logprob_sum"] / scores["n_tokens"]
    predicted = scores.assign(s=per_token).sort_values(["item_id", "s"]).groupby("item_id").tail(1)
    prediction = dict(zip(predicted["item_id"], predicted["option_index"]))
    predictions = pd.DataFrame({"id": items["id"], "label": items["label"], "prediction": items["id"].map(prediction)})
    from sklearn.metrics import f1_score

    accuracy = float((predictions["label"] == predictions["prediction"]).mean())
    macro = float(f1_score(predictions["label"], predictions["prediction"], average="macro"))
    rows = pd.DataFrame(
        {
            "model": "m",
            "task": "t",
            "metric": ["accuracy", "macro_f1"],
            "value": [accuracy, macro],
            "n_items": len(items),
            "normalisation": "per_token",
            "note": "",
        }
    )
    return rows, predictions


def _lm_eval_reference(items: pd.DataFrame, scores: pd.DataFrame) -> dict:
    """acc, acc_norm and f1 as lm-eval's process_results computes them from the choices' log-likelihoods."""
    acc, acc_norm, pairs = [], [], []
    for item in items.itertuples(index=False):
        lls = scores[scores["item_id"] == item.id].sort_values("option_index")["logprob_sum"].to_numpy()
        completion_len = np.array([float(len(choice)) for choice in item.options])  # lm-eval: len(choice)
        acc.append(float(np.argmax(lls) == item.label))
        acc_norm.append(float(np.argmax(lls / completion_len) == item.label))
        pairs.append((item.label, int(np.argmax(lls))))
    reference = {"acc": lm_eval_metrics.mean(acc), "acc_norm": lm_eval_metrics.mean(acc_norm)}
    if len(items["options"].iloc[0]) == 2:
        reference["f1"] = float(lm_eval_metrics.f1_score(pairs))
    return reference


def _table_values(table: str) -> dict[str, str]:
    """Metric -> value as lm-eval's markdown table prints them."""
    values = {}
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 7 and cells[4]:
            values[cells[4]] = cells[6]
    return values


@pytest.mark.parametrize("n_options", [2, 4])
def test_lm_eval_make_table_prints_our_numbers_under_lm_evals_meaning(tmp_path, n_options, capsys):
    items, scores = _task(n_options)
    rows, predictions = _ours(items, scores)
    samples = lmeval_samples(items, scores, predictions)
    payload = lmeval_results(
        rows,
        {"task": "t", "scoring_mode": "mc", "n_raw": 12},
        "m",
        {},
        predictions,
        {"seed": 1, "bootstrap_iters": 200},
        samples,
    )
    path = tmp_path / "results.json"
    path.write_text(json.dumps(payload, indent=2))
    table = lm_eval_utils.make_table(json.loads(path.read_text()))  # lm-eval's own reader and printer
    printed = _table_values(table)
    reference = _lm_eval_reference(items, scores)
    ours = dict(zip(rows["metric"], rows["value"]))
    expected = {name: f"{value:.4f}" for name, value in {**reference, **ours}.items()}
    assert printed == expected, table
    summed = [int(np.argmax([r[0] for r in record["filtered_resps"]])) for record in samples]
    assert summed != [record["benchval_prediction"] for record in samples]  # the two keys hold other figures
    # side by side, for the report: metric, lm-eval's printed value, our number
    with capsys.disabled():
        print(f"\n{n_options}-option task, lm_eval.utils.make_table:\n{table}")
        for name, value in {**reference, **ours}.items():
            print(f"  {name:9s} lm-eval printed {printed[name]}  ours {value:.6f}")
    row = [c.strip() for c in table.splitlines()[2].strip().strip("|").split("|")]
    assert row[1] == payload["versions"]["t"] and row[3] == "0"  # Version and n-shot filled
    assert ("f1" in printed) is (n_options == 2)  # lm-eval's binary f1 only where it is defined


def test_the_old_layout_put_our_metrics_under_lm_evals_keys():
    """What the reader got before: acc,none held our per-token accuracy and f1,none macro-F1."""
    items, scores = _task(4)
    rows, predictions = _ours(items, scores)
    payload = lmeval_results(rows, {"task": "t", "scoring_mode": "mc", "n_raw": 12}, "m", {}, predictions)
    result = payload["results"]["t"]
    assert "acc,none" not in result and "f1,none" not in result  # no samples, no lm-eval figure claimed
    assert result["accuracy,none"] == rows["value"].iloc[0] and payload["higher_is_better"]["t"]["accuracy"] is True
    assert payload["n-shot"] == {"t": 0}
