"""A task with no items (unavailable here) gets an empty, valid scores file without loading a model."""

import json

import pandas as pd

from benchval.scoring.task_scoring import score_task
from benchval.scoring.store import COLUMNS, read_scores


def test_empty_task_writes_an_empty_scores_file(tmp_path):
    empty = {
        "id": pd.Series([], dtype=str),
        "context": pd.Series([], dtype=str),
        "options": pd.Series([], dtype=object),
        "label": pd.Series([], dtype="int64"),
    }
    pd.DataFrame(empty).to_parquet(tmp_path / "t.parquet")
    (tmp_path / "t.meta.json").write_text(json.dumps({"task": "t", "scoring_mode": "mc"}))
    summary = score_task(
        tmp_path / "t.parquet", tmp_path / "no-model-here", tmp_path / "s.parquet", {}, {}, tmp_path / "shards"
    )
    scores = read_scores(tmp_path / "s.parquet")
    assert summary["n_requests"] == 0 and scores.empty and list(scores.columns) == COLUMNS
