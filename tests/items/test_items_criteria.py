"""Joining MMLU-Pro's model names to the atlas registry, and choosing the best supported criterion."""

from __future__ import annotations

import pandas as pd
import pytest

from benchval.items import criteria

NAMES = pd.DataFrame(
    {
        "key": [
            "meta-llama/meta-llama-3.1-8b",
            "mistral-7b-instruct-v0.2",
            "dfurman/mistral-7b-instruct-v0.2",
            "mistralai/mistral-7b-instruct-v0.2",
            "01-ai/yi-6b",
        ],
        "canonical_id": [
            "meta-llama/meta-llama-3.1-8b",
            "mistral-7b-instruct-v0.2",
            "dfurman/mistral-7b-instruct-v0.2",
            "mistralai/mistral-7b-instruct-v0.2",
            "01-ai/yi-6b",
        ],
    }
)


def test_join_rules():
    joined = criteria.join_registry(
        ["Meta-Llama-3_1-8B", "Mistral-7B-Instruct-v0.2", "Yi-6B", "gemini-1.5-pro-002"], NAMES, {}
    ).set_index("model")
    assert joined.at["Meta-Llama-3_1-8B", "canonical_id"] == "meta-llama/meta-llama-3.1-8b"  # 3_1 read as 3.1
    assert joined.at["Yi-6B", "canonical_id"] == "01-ai/yi-6b"  # the HF id's name part
    assert joined.at["Mistral-7B-Instruct-v0.2", "canonical_id"] == ""  # several match: not guessed
    assert "several" in joined.at["Mistral-7B-Instruct-v0.2", "rule"]
    assert joined.at["gemini-1.5-pro-002", "canonical_id"] == ""
    overridden = criteria.join_registry(
        ["Mistral-7B-Instruct-v0.2"], NAMES, {"Mistral-7B-Instruct-v0.2": "mistralai/mistral-7b-instruct-v0.2"}
    )
    assert overridden["canonical_id"].tolist() == ["mistralai/mistral-7b-instruct-v0.2"]


def test_best_supported_criterion_and_exclusions():
    joined = pd.DataFrame({"model": ["a", "b", "c"], "canonical_id": ["A", "B", "C"]})
    cells = pd.DataFrame(
        {
            "leaderboard": ["v2"] * 6 + ["arena"] * 3 + ["v2"] * 3,
            "column": ["BBH"] * 3 + ["GPQA"] * 3 + ["elo"] * 3 + ["MMLU-PRO"] * 3,
            "canonical_id": ["A", "B", "C"] * 4,
            "value": range(12),
        }
    )
    settings = {"criteria_leaderboards": ["arena", "v2"], "exclude_columns": ["MMLU-PRO"], "min_models": 3}
    scores, support = criteria.atlas_criteria(joined, cells, settings)
    assert "MMLU-PRO" not in scores.columns
    # all share 3 models: the tie goes to the order of criteria_leaderboards, then the column name
    assert support.loc[support["best_supported"], "column"].tolist() == ["elo"]
    assert scores.loc["b", "BBH"] == 1
    twice = pd.concat([cells, cells.iloc[[0]]])
    with pytest.raises(ValueError, match="two values"):
        criteria.atlas_criteria(joined, twice, settings)
