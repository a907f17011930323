"""Rule items_study: item validity and the validity curve of every (benchmark, criterion) pair of an item
study (docs/items.md). The responses come from benchval.jobs.steps.items_responses, the IRT fits from
benchval.jobs.steps.items_irt."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.analysis.bootstrap import rng_for
from benchval.items import readers
from benchval.items.irt import recovery_passed
from benchval.items.matrix import combine_runs, task_matrix

log = logging.getLogger(__name__)

STUDY_TABLES = ("item_validity", "validity_curve", "lofo_folds", "summary", "criteria", "criteria_support", "models")


def _information(irt_dir: str, selection_model: str) -> pd.Series:
    from benchval.items.subsets import information_ranking

    items = pd.read_csv(Path(irt_dir) / "item_params.csv", dtype={"item_id": str})
    abilities = pd.read_csv(Path(irt_dir) / "abilities.csv")
    items = items[items["irt_model"] == selection_model].set_index("item_id")
    thetas = abilities.loc[abilities["irt_model"] == selection_model, "theta"].to_numpy(float)
    return pd.Series(information_ranking(items, thetas), index=items.index)


def _units(responses: pd.DataFrame, study: dict) -> tuple[dict, dict]:
    """run -> unit (the runs of one pretrained model are one unit; else each model is its own) and
    unit -> family (the ``family`` column; then the atlas registry's, then the study's ``families``, each
    overriding the one before; a unit without one is its own family)."""
    models = responses.drop_duplicates("model").set_index("model")
    family = models["family"] if "family" in models else pd.Series(index=models.index, dtype=object)
    if study["runs"] == "none":
        return {m: m for m in models.index}, {m: (f if isinstance(f, str) else m) for m, f in family.items()}
    if family.isna().any():
        raise ValueError(f"runs: {study['runs']} needs every model's family (the runs of one model); "
                         f"the source gives none for {list(family.index[family.isna()])[:5]}")  # fmt: skip
    return {m: str(f) for m, f in family.items()}, {str(f): str(f) for f in family}


def study_criteria(study: dict, settings: dict, units: dict, atlas: dict | None) -> tuple[pd.DataFrame, dict, list]:
    """(criterion scores, unit -> family overrides, support rows) for a study."""
    from benchval.items.criteria import atlas_criteria, join_registry

    if study["criteria"]["kind"] == "tasks":
        return pd.DataFrame({t: units[t].mean(axis=1) for t in study["criteria"]["tasks"]}), {}, []
    names = pd.read_csv(atlas["names"], dtype=str, keep_default_na=False)
    models = pd.read_csv(atlas["models"], dtype=str, keep_default_na=False).set_index("canonical_id")
    cells = pd.read_csv(atlas["cells"], dtype={"canonical_id": str})
    benchmark = units[study["benchmarks"][0]]
    joined = join_registry(benchmark.index, names, study["criteria"].get("registry_overrides") or {})
    scores, support = atlas_criteria(joined, cells, {**study["criteria"], "min_models": settings["min_models"]})
    family = {
        row.model: (models.at[row.canonical_id, "family"] or row.model)
        if row.canonical_id in models.index
        else row.model
        for row in joined.itertuples()
    }
    keep = support.loc[support["supported"], "column"].tolist()
    return scores[keep], family, [joined, support]


def contribution_summary(contributions: np.ndarray) -> dict:
    """How the benchmark's Pearson r is spread over its items: the share the top 10% of items carry, and
    the items that work against the transfer (negative contributions) with their summed contribution."""
    ordered = np.sort(contributions)[::-1]
    top = max(1, int(round(0.1 * len(ordered))))
    total = ordered.sum()
    return {
        "top10pct_contribution_share": float(ordered[:top].sum() / total) if total else np.nan,
        "n_items_negative_contribution": int((contributions < 0).sum()),
        "negative_contribution_sum": float(contributions[contributions < 0].sum()),
    }


def pair_summary(benchmark, criterion, validity, curve, folds, alpha) -> dict:
    full = curve[curve["method"] == "full"].iloc[0]
    summary = {
        "benchmark": benchmark,
        "criterion": criterion,
        "n_models": int(full["n_models"]),
        "n_families": int(folds["held_out_family"].nunique()) if len(folds) else 0,
        "n_items": int(full["n_items"]),
        "full_rho": full["rho"],
        "full_ci_low": full["ci_low"],
        "full_ci_high": full["ci_high"],
        "n_items_fdr_significant": int(validity["fdr_significant"].sum()),
        "n_items_defined": int(validity["p"].notna().sum()),
        "fdr_alpha": alpha,
        "contribution_sum": float(validity["contribution"].sum()),
        **contribution_summary(validity["contribution"].to_numpy(float)),
    }
    for method in ("random", "irt", "criterion"):
        row = curve[(curve["method"] == method) & (curve["k"] == "100")]
        for column in ("rho", "ci_low", "ci_high", "diff_vs_full", "diff_ci_low", "diff_ci_high", "mae_vs_full"):
            summary[f"k100_{method}_{column}"] = row[column].iloc[0] if len(row) else np.nan
    return summary


def run_study_step(name: str, study: dict, settings: dict, seed: int, inputs: dict, out_dir: str) -> None:
    """Every (benchmark, criterion) pair of a study: item validity, the validity curve and the LOFO folds."""
    from benchval.items.subsets import validity_curve
    from benchval.items.validity import item_validity, pearson_columns

    recovery_passed(inputs["recovery"], settings["irt"]["recovery"]["thresholds"])
    responses = readers.read_responses(inputs["responses"])
    coverage = float(settings["min_model_coverage"])
    unit_of, family_of = _units(responses, study)
    tasks = list(study["benchmarks"]) + list(study["criteria"].get("tasks", []))
    units, filters = {}, []
    for task in tasks:
        matrix, report = task_matrix(responses, task, coverage)
        units[task] = combine_runs(matrix, unit_of, study["runs"])
        filters += report
    criteria, atlas_families, extra = study_criteria(study, settings, units, inputs.get("atlas"))
    family_of.update(atlas_families)
    family_of.update(study.get("families") or {})  # the study's own model -> family (e.g. lm_eval sources)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    validity_tables, curves, fold_tables, summaries = [], [], [], []
    for benchmark in study["benchmarks"]:
        info = _information(inputs["irt"][benchmark], settings["irt"]["selection_model"])
        for criterion in criteria.columns:
            y = criteria[criterion].dropna()
            models = [m for m in units[benchmark].index if m in y.index]
            matrix = units[benchmark].loc[models]
            families = pd.Series({m: family_of.get(m, m) for m in models})
            validity = item_validity(matrix, y.loc[models], float(settings["ci_level"]), float(settings["fdr_alpha"]))
            curve, folds = validity_curve(
                matrix, y.loc[models], families, info, settings,
                lambda key, b=benchmark, c=criterion: rng_for(seed, "items", name, b, c, key),
            )  # fmt: skip
            pearson = float(pearson_columns(matrix.mean(axis=1).to_numpy()[:, None], y.loc[models].to_numpy())[0])
            for table in (validity, curve, folds):
                table.insert(0, "criterion", criterion)
                table.insert(0, "benchmark", benchmark)
            validity_tables.append(validity)
            curves.append(curve)
            fold_tables.append(folds)
            summaries.append({**pair_summary(benchmark, criterion, validity, curve, folds, settings["fdr_alpha"]),
                              "full_pearson_r": pearson})  # fmt: skip
            log.info("%s -> %s: %d models, rho %.3f", benchmark, criterion, len(models), curve.iloc[-1]["rho"])
    pd.concat(validity_tables).to_csv(out / "item_validity.csv", index=False)
    pd.concat(curves).to_csv(out / "validity_curve.csv", index=False)
    pd.concat(fold_tables).to_csv(out / "lofo_folds.csv", index=False)
    pd.DataFrame(summaries).to_csv(out / "summary.csv", index=False)
    criteria.rename_axis("model").to_csv(out / "criteria.csv")
    model_table = pd.DataFrame({"model": sorted(units[study["benchmarks"][0]].index)})
    model_table["family"] = model_table["model"].map(lambda m: family_of.get(m, m))
    support = pd.DataFrame(columns=["leaderboard", "column", "n_models", "supported", "best_supported"])
    if extra:
        model_table = model_table.merge(extra[0], on="model", how="left")
        support = extra[1]
    support.to_csv(out / "criteria_support.csv", index=False)
    model_table.to_csv(out / "models.csv", index=False)
    (out / "filters.json").write_text(json.dumps(filters, indent=2) + "\n", encoding="utf-8")
