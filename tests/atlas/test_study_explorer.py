"""The explorer of one study (benchval.atlas.study_explorer): a user's own study gets the atlas's page,
its criteria, predictors and models read from its own tables."""

from __future__ import annotations

import pandas as pd

from benchval.atlas.study_explorer import predictor_table, write_study_explorer

TASKS = pd.DataFrame(
    {
        "task": ["hs", "arc", "gsm", "mmlu"],
        "role": ["cs_original", "cs_original", "downstream", "control"],
        "pairs_with": "",
        "axes": "",
        "label": ["HellaSwag", "ARC <b>C</b>", "GSM8K", "MMLU"],
    }
)


def _files(tmp_path, n_models: int, with_rho: bool) -> dict[str, str]:
    scores = pd.DataFrame(
        [
            {"model": f"m{i}", "family": f"f{i % 3}", "size_b": 1.0, "task": t, "metric": "accuracy", "value": 0.1 * i}
            for i in range(n_models)
            for t in TASKS["task"]
        ]
    )
    rows = [("hs", "gsm", 0.8, 0.6, 0.9), ("arc", "gsm", 0.3, -0.1, 0.6)] if with_rho else []
    correlations = pd.DataFrame(
        [
            {
                "metric": "accuracy",
                "benchmark": b,
                "downstream": d,
                "role": "cs_original",
                "rho": r,
                "ci_low": lo,
                "ci_high": hi,
                "n_models": n_models,
            }
            for b, d, r, lo, hi in rows
        ],
        columns=["metric", "benchmark", "downstream", "role", "rho", "ci_low", "ci_high", "n_models"],
    )
    paths = {
        "score_table": tmp_path / "score_table.csv",
        "tasks": tmp_path / "tasks.csv",
        "correlations_cs_downstream": tmp_path / "correlations_cs_downstream.csv",
    }
    scores.to_csv(paths["score_table"], index=False)
    TASKS.to_csv(paths["tasks"], index=False)
    correlations.to_csv(paths["correlations_cs_downstream"], index=False)
    return {name: str(path) for name, path in paths.items()}


def test_a_study_with_correlations_gets_its_predictors_and_models(tmp_path):
    inputs = _files(tmp_path, 8, with_rho=True)
    table = predictor_table(pd.read_csv(inputs["correlations_cs_downstream"]), TASKS)
    assert list(table["criterion"]) == ["GSM8K", "GSM8K"] and list(table["predictor"]) == ["HellaSwag", "ARC <b>C</b>"]
    page = write_study_explorer("mine", inputs, 0.95, 20, str(tmp_path / "explorer" / "mine.html")).read_text()
    assert "benchval explorer: study mine (8 models)" in page
    assert 'id="predictors"' in page and 'id="pairs"' in page
    assert "<b>C</b>" not in page  # a label is data for Plotly, never markup of the page
    assert 'href="../score_table.csv"' in page


def test_a_study_with_too_few_models_says_so_and_still_shows_its_models(tmp_path):
    inputs = _files(tmp_path, 3, with_rho=False)
    page = write_study_explorer("default", inputs, 0.95, 20, str(tmp_path / "default.html")).read_text()
    assert "No Spearman rho: 3 models are too few" in page
    assert 'id="predictors"' not in page and 'id="pairs"' in page and "GSM8K against HellaSwag" in page
