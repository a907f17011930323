"""The explorer of one study (``results/explorer/{study}.html``): the atlas explorer's page
(:mod:`benchval.atlas.explorer`) drawn from a study's own tables, so that a user's csv or lm-eval study,
its pairs and its models can be explored like the atlas (docs/report.md, "Explorer of a study").

* **criteria** are the study's downstream tasks, **predictors** its commonsense benchmarks, each pair's
  Spearman rho with its bootstrap interval and n read from ``correlations_cs_downstream.csv`` (one
  criterion per downstream task and metric where the study has several metrics);
* **the models behind a pair**: the study's score table (one point per model, coloured by family);
* every label is the study's task label (``tasks.csv``); the page escapes it (Plotly draws text, the page's
  own text goes through ``html.escape``).

A study with too few models for correlations has no rho: its page says so and still shows its models.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from benchval.atlas.explorer import relative_links, write_explorer


def _labels(tasks: pd.DataFrame) -> dict[str, str]:
    return {row.task: (row.label or row.task) for row in tasks.fillna("").itertuples(index=False)}


def predictor_table(correlations: pd.DataFrame, tasks: pd.DataFrame) -> pd.DataFrame:
    """The atlas explorer's predictor table: criterion (downstream label and metric), predictor, rho, CI, n."""
    labels = _labels(tasks)
    rows = correlations[(correlations["role"] != "control") & correlations["rho"].notna()]
    several = rows["metric"].nunique() > 1
    criterion = rows["downstream"].map(labels).fillna(rows["downstream"])
    return pd.DataFrame(
        {
            "criterion": criterion + (" (" + rows["metric"] + ")" if several else ""),
            "predictor": rows["benchmark"].map(labels).fillna(rows["benchmark"]),
            "rho": rows["rho"],
            "ci_low": rows["ci_low"],
            "ci_high": rows["ci_high"],
            "n_models": rows["n_models"],
        }
    ).reset_index(drop=True)


def cells_and_models(scores: pd.DataFrame, tasks: pd.DataFrame, metric: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The atlas explorer's long cells (canonical_id, column, value, source) and models (canonical_id, family)."""
    labels = _labels(tasks)
    own = scores[scores["metric"] == metric]
    cells = pd.DataFrame(
        {
            "canonical_id": own["model"],
            "column": own["task"].map(labels).fillna(own["task"]),
            "value": own["value"],
            "source": "score_table.csv",
        }
    )
    models = own.drop_duplicates("model")[["model", "family"]].rename(columns={"model": "canonical_id"})
    return cells, models


def write_study_explorer(study: str, inputs: dict[str, str], level: float, top_k: int, page: str) -> Path:
    """The page of ``study`` from its ``score_table``, ``tasks`` and ``correlations_cs_downstream`` tables."""
    scores = pd.read_csv(inputs["score_table"])
    tasks = pd.read_csv(inputs["tasks"], dtype=str, keep_default_na=False)
    correlations = pd.read_csv(inputs["correlations_cs_downstream"])
    table = predictor_table(correlations, tasks)
    metric = str(correlations["metric"].iloc[0]) if len(correlations) else str(scores["metric"].iloc[0])
    cells, models = cells_and_models(scores, tasks, metric)
    criteria = list(dict.fromkeys(table["criterion"]))
    links = relative_links(page, {f"{name}.csv": path for name, path in inputs.items()})
    n_models = scores["model"].nunique()
    title = f"benchval explorer: study {study} ({n_models} models)"
    roles = tasks.set_index("task")["role"]
    label = _labels(tasks)
    pairs = None
    if not criteria:  # no correlation (too few models): every downstream task against every benchmark
        downstream = [label[t] for t in tasks["task"] if roles[t] == "downstream"]
        benchmarks = [label[t] for t in tasks["task"] if roles[t].startswith("cs_")]
        pairs = [(d, b) for d in downstream for b in benchmarks if (cells["column"] == d).any()]
    reason = (
        f"No Spearman rho: {n_models} models are too few for correlations across models (analysis.min_models); "
        "the models behind each pair of tasks are below."
    )
    return write_explorer(
        table, cells, models, criteria, top_k, level, links, page, title=title, pairs=pairs, no_predictors=reason
    )
