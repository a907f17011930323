"""Items -> requests for each scoring mode (docs/data-contract.md, section 1)."""

import pandas as pd
import pytest

from benchval.scoring.requests import REQUEST_COLUMNS, RequestError, build_requests


def _items(rows):
    return pd.DataFrame(
        [
            {"id": i, "context": c, "options": o, "label": 0, "target": t, "task": "t", "source_row": n + 1}
            for n, (i, c, o, t) in enumerate(rows)
        ]
    )


def test_mc_one_request_per_option():
    req = build_requests(_items([("a", "Ctx", [" x", " y"], None), ("b", "C2", [" z"], None)]), "mc")
    assert list(req.columns) == REQUEST_COLUMNS
    assert req["request_id"].tolist() == ["a#0", "a#1", "b#0"]
    assert req[["item_id", "option_index", "kind", "context", "continuation"]].values.tolist() == [
        ["a", 0, "option", "Ctx", " x"],
        ["a", 1, "option", "Ctx", " y"],
        ["b", 0, "option", "C2", " z"],
    ]


def test_mc_with_a_shared_suffix_scores_each_option_in_place():
    """An mc item's target (e.g. the rest of a TimeDial sentence after the mask) follows every option;
    items without one (None or NaN from a parquet column) are plain mc."""
    req = build_requests(
        _items(
            [
                ("t", "B: It took", [" ten minutes", " a century"], " to cook"),
                ("u", "B: It took", [" an hour"], None),
                ("v", "C", [" x"], float("nan")),
            ]
        ),
        "mc",
    )
    assert req["context"].tolist() == ["B: It took"] * 3 + ["C"]
    assert req["continuation"].tolist() == [" ten minutes to cook", " a century to cook", " an hour", " x"]


def test_partial_scores_the_shared_target_after_each_option():
    req = build_requests(
        _items([("w", "The trophy did not fit because", [" it", " the case"], " was too big.")]), "partial"
    )
    assert req["context"].tolist() == ["The trophy did not fit because it", "The trophy did not fit because the case"]
    assert req["continuation"].tolist() == [" was too big.", " was too big."]


def test_minimal_pair_has_empty_context():
    req = build_requests(_items([("m", "", ["Dogs bark.", "Dogs barks."], None)]), "minimal_pair")
    assert req["context"].tolist() == ["", ""]
    assert req["continuation"].tolist() == ["Dogs bark.", "Dogs barks."]


def test_calibrated_adds_one_prior_per_distinct_option_text():
    req = build_requests(
        _items([("a", "Q1", [" yes", " no"], None), ("b", "Q2", [" no", " maybe"], None)]),
        "calibrated",
        prior_context="N/A",
    )
    options, priors = req[req["kind"] == "option"], req[req["kind"] == "prior"]
    assert len(options) == 4
    assert priors["continuation"].tolist() == [" yes", " no", " maybe"]
    assert (priors["context"] == "N/A").all() and (priors["item_id"] == "").all()
    assert (priors["option_index"] == -1).all()
    assert priors["request_id"].is_unique and req["request_id"].is_unique


@pytest.mark.parametrize(
    "rows, mode, message",
    [
        ([("a", "Ctx ", [" x"], None)], "mc", "ends in whitespace"),
        ([("a", "Ctx", [], None)], "mc", "no options"),
        ([("a", "Ctx", [" x", ""], None)], "mc", "option 1"),
        ([("a", "Ctx", [" x"], None)], "partial", "non-empty target"),
        ([("a", "Ctx", [" x"], None)], "minimal_pair", "empty context"),
        ([("a", "Ctx", [" x"], None), ("a", "C", [" y"], None)], "mc", "duplicate item id"),
        ([("a", "Ctx", [" x"], None)], "cloze", "unknown scoring mode"),
    ],
)
def test_bad_items_name_the_problem(rows, mode, message):
    with pytest.raises(RequestError, match=message):
        build_requests(_items(rows), mode)


def test_error_names_source_row():
    with pytest.raises(RequestError, match=r"item 'b' \(source_row 2\)"):
        build_requests(_items([("a", "C", [" x"], None), ("b", "C ", [" y"], None)]), "mc")
