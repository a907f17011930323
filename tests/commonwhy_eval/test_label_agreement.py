"""The double-labelled sample of the check set: blind sample (no labels shown) and kappa against sklearn."""

from __future__ import annotations

import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from benchval.commonwhy.eval.label_agreement import agreement, blind_sample, labeller_agreement, not_a_reference


def _check(n=20):
    return pd.DataFrame(
        {
            "pair_id": [f"p{i:04d}" for i in range(n)],
            "item": [f"i{i // 4}" for i in range(n)],
            "kind": ["reference", "broken_link"] * (n // 2),
            "origin": "rule",
            "expected": [True, False] * (n // 2),
            "question": [f"Why q{i}?" for i in range(n)],
            "references": [[f"Because r{i}."] for i in range(n)],
            "answer": [f"a{i}" for i in range(n)],
            "note": "",
        }
    )


def test_the_blind_sample_shows_no_label_and_is_seeded():
    check = _check()
    blind, key = blind_sample(check, 8, 3, [""] * len(check))
    assert not {"kind", "expected", "origin", "note", "pair_id"} & set(blind.columns)
    again, key2 = blind_sample(check, 8, 3, [""] * len(check))
    pd.testing.assert_frame_equal(key, key2)
    with pytest.raises(ValueError, match="label sample"):
        blind_sample(check, 99, 3, [""] * len(check))


def test_kappa_is_sklearns_and_every_disagreement_is_listed():
    check = _check()
    blind, key = blind_sample(check, 10, 1, [""] * len(check))
    truth = key.merge(check, on="pair_id")["expected"].tolist()
    second = truth[:]
    second[0], second[3] = not second[0], not second[3]  # two disagreements
    labels = pd.DataFrame({"sample_id": key["sample_id"], "label": ["yes" if s else "no" for s in second], "why": ""})
    summary, table = agreement(check, key, labels)
    assert summary["kappa"] == pytest.approx(cohen_kappa_score(truth, second))
    assert summary["n_disagreements"] == 2 and summary["raw_agreement"] == 0.8
    with pytest.raises(ValueError, match="yes or no"):
        agreement(check, key, labels.assign(label="maybe"))
    with pytest.raises(ValueError, match="do not cover"):
        agreement(check, key, labels.iloc[1:])


def test_the_hard_sample_draws_only_answers_that_are_no_reference_verbatim():
    check = _check(8)
    check.loc[0, "answer"] = "  because R0. "  # the reference, case and whitespace aside: not drawable
    check.loc[1, "answer"] = None  # empty: not drawable
    check.loc[2, "answer"] = "Because r2, and more."  # shares words only: drawable
    drawable = not_a_reference(check, excluded_pairs=["p0003"])
    assert drawable.tolist() == [False, False, True, False, True, True, True, True]
    blind, key = blind_sample(check[drawable.to_numpy()], 3, 1, [""] * int(drawable.sum()), stream=35, prefix="h")
    assert set(key["pair_id"]) <= {"p0002", "p0004", "p0005", "p0006", "p0007"}
    assert blind["sample_id"].tolist() == ["h000", "h001", "h002"]


def test_two_labellers_are_compared_on_shared_ids_by_sklearns_kappa():
    first = pd.DataFrame({"sample_id": ["s0", "s1", "s2", "s3", "s4"], "label": ["yes", "no", "yes", "no", "no"]})
    second = pd.DataFrame({"sample_id": ["s1", "s2", "s3", "s4", "s9"], "label": ["no", "no", "no", "Yes", "yes"]})
    result = labeller_agreement(first, second)
    assert result["n"] == 4 and result["differ"] == ["s2", "s4"] and result["raw_agreement"] == 0.5
    assert result["kappa"] == pytest.approx(cohen_kappa_score([0, 1, 0, 0], [0, 0, 0, 1]))
    with pytest.raises(ValueError, match="yes or no"):
        labeller_agreement(first, second.assign(label="unsure"))
    with pytest.raises(ValueError, match="share no sample id"):
        labeller_agreement(first, second.assign(sample_id=["t1", "t2", "t3", "t4", "t5"]))
