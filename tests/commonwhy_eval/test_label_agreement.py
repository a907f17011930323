"""The double-labelled sample of the check set: blind sample (no labels shown) and kappa against sklearn."""

from __future__ import annotations

import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from benchval.commonwhy.eval.label_agreement import agreement, blind_sample


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
