"""Rule items_study: item validity and the validity curve of every (benchmark, criterion) pair of an item
study (docs/items.md). The responses come from benchval.items.steps.items_responses, the IRT fits from
benchval.items.steps.items_irt."""

from __future__ import annotations

import functools
import json
import logging
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.analysis.bootstrap import rng_for
from benchval.items import readers
from benchval.items.irt import recovery_passed
from benchval.items.irt_selection import add_anchor_sets, irt_selection
from benchval.items.lineage import lineage_families, merge_families
from benchval.items.matrix import combine_runs, task_matrix
from benchval.items.subsets import k_values

log = logging.getLogger(__name__)

SUMMARY_K100 = (
    "rho",
    "ci_low",
    "ci_high",
    "diff_vs_full",
    "diff_ci_low",
    "diff_ci_high",
    "p_perm_rho",
    "p_perm_gain",
    "verdict",
    "mae_vs_full",
)


def irt_choice_row(benchmark: str, irt, columns) -> dict:
    """The benchmark's IRT choice: the chosen model and the items at a bound of every fit (before: the
    2PL chose items at a bound too) and among the items the chosen model may select (after: none)."""
    usable = irt.information.reindex(columns).notna()
    return {
        "benchmark": benchmark,
        "chosen_model": irt.model,
        **irt.bound_counts,
        "chosen_at_bound": int(irt.items["at_bound"].sum()),
        "selectable_items": int(usable.sum()),
        "selectable_at_bound": int(irt.items["at_bound"].reindex(columns[usable]).fillna(False).sum()),
    }


def _irt_selection(irt_dir: str, rule: str):

    folder = Path(irt_dir)
    items = pd.read_csv(folder / "item_params.csv", dtype={"item_id": str})
    return irt_selection(items, pd.read_csv(folder / "abilities.csv"), pd.read_csv(folder / "fit.csv"), rule)


def _units(responses: pd.DataFrame, study: dict) -> tuple[dict, dict]:
    """run -> unit (the runs of one pretrained model are one unit; else each model is its own) and
    unit -> family (the ``family`` column; then the atlas registry's; :func:`run_study_step` then takes
    each family's lineage, benchval.items.lineage, and the study's ``families``)."""
    models = responses.drop_duplicates("model").set_index("model")
    family = models["family"] if "family" in models else pd.Series(index=models.index, dtype=object)
    if study["runs"] == "none":
        return {m: m for m in models.index}, {m: (f if isinstance(f, str) else m) for m, f in family.items()}
    if family.isna().any():
        raise ValueError(
            f"runs: {study['runs']} needs every model's family (the runs of one model); "
            f"the source gives none for {list(family.index[family.isna()])[:5]}"
        )
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
        "n_families": int(full["n_families"]),
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
    for method in ("random", "irt", "anchor", "criterion"):
        row = curve[(curve["method"] == method) & (curve["k"] == "100")]
        for column in SUMMARY_K100:
            summary[f"k100_{method}_{column}"] = row[column].iloc[0] if len(row) else np.nan
    return summary


def random_draws(matrix: pd.DataFrame, ks: list[int], settings: dict, rng_for_k) -> dict:
    """k -> the benchmark's random k-item subset scores for every model (benchval.items.curve): the point
    draws, one per family resample and one per permuted criterion, shared by the benchmark's criteria."""
    from benchval.items.curve import random_subset_scores

    count = int(settings["n_random_draws"]) + int(settings["n_bootstrap"]) + int(settings["n_permutations"])
    return {k: random_subset_scores(matrix, k, count, rng_for_k(k)) for k in ks}


def write_snr(out: Path, tasks, study, units, runs, unit_of, criteria, family_of, settings, rng) -> None:
    """snr.csv (every task of the study), snr_validity.csv and snr_relation.csv (its benchmarks)."""
    from benchval.items.snr import benchmark_snr, snr_validity

    rows = {}
    for task in tasks:
        role = "benchmark" if task in study["benchmarks"] else "criterion"
        checkpoints = runs[task] if study["runs"] != "none" else None
        rows[task] = {"task": task, "role": role, **benchmark_snr(units[task], checkpoints, unit_of)}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.to_csv(out / "snr.csv", index=False)
    benchmarks = {b: units[b] for b in study["benchmarks"]}
    families = pd.Series(family_of)
    per_benchmark, relation = snr_validity(
        table, benchmarks, criteria, families, rng, int(settings["n_bootstrap"]), float(settings["ci_level"])
    )
    per_benchmark.to_csv(out / "snr_validity.csv", index=False)
    relation.to_csv(out / "snr_relation.csv", index=False)


def run_study_step(name: str, study: dict, settings: dict, seed: int, inputs: dict, out_dir: str) -> None:
    """Every (benchmark, criterion) pair of a study: item validity, the validity curve and the LOFO folds."""
    recovery_passed(inputs["recovery"], settings["irt"]["recovery"]["thresholds"])
    responses = readers.read_responses(inputs["responses"])
    unit_of, family_of = _units(responses, study)
    tasks = list(study["benchmarks"]) + list(study["criteria"].get("tasks", []))
    units, runs, filters = _task_units(responses, tasks, study["runs"], unit_of, float(settings["min_model_coverage"]))
    criteria, atlas_families, extra = study_criteria(study, settings, units, inputs.get("atlas"))
    family_of.update(atlas_families)
    lineage = lineage_families(sorted(set().union(*(u.index for u in units.values()))), family_of)
    family_of = merge_families(lineage, study.get("families") or {})  # the study's own may merge lineages
    irt_rows = []
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pairs = []
    for benchmark in study["benchmarks"]:
        irt = _irt_selection(inputs["irt"][benchmark], settings["irt"]["selection_model"])
        ks = [k for _, k in k_values(settings["k"], units[benchmark].shape[1]) if k < units[benchmark].shape[1]]
        add_anchor_sets(
            irt, units[benchmark], ks, int(rng_for(seed, "items", name, benchmark, "anchors").integers(2**31))
        )
        irt_rows.append(irt_choice_row(benchmark, irt, units[benchmark].columns))
        random_scores = random_draws(
            units[benchmark], ks, settings, lambda k, b=benchmark: rng_for(seed, "items", name, b, "random", k)
        )
        for criterion in criteria.columns:
            rng_for_key = functools.partial(rng_for, seed, "items", name, benchmark, criterion)
            models = [m for m in units[benchmark].index if m in criteria[criterion].dropna().index]
            families = pd.Series({m: family_of.get(m, m) for m in models})
            pair = (units[benchmark].loc[models], criteria[criterion].loc[models], families, irt, lineage)
            pairs.append(_pair_tables(benchmark, criterion, *pair, settings, rng_for_key, random_scores))
    write_snr(
        out, tasks, study, units, runs, unit_of, criteria, family_of, settings, rng_for(seed, "items", name, "snr")
    )
    _write_pair_tables(out, pairs)
    criteria.rename_axis("model").to_csv(out / "criteria.csv")
    model_table = pd.DataFrame({"model": sorted(units[study["benchmarks"][0]].index)})
    model_table["lineage"] = model_table["model"].map(lineage)
    model_table["family"] = model_table["model"].map(lambda m: family_of.get(m, m))
    pd.DataFrame(irt_rows).to_csv(out / "irt_choice.csv", index=False)
    support = pd.DataFrame(columns=["leaderboard", "column", "n_models", "supported", "best_supported"])
    if extra:
        model_table = model_table.merge(extra[0], on="model", how="left")
        support = extra[1]
    support.to_csv(out / "criteria_support.csv", index=False)
    model_table.to_csv(out / "models.csv", index=False)
    (out / "filters.json").write_text(json.dumps(filters, indent=2) + "\n", encoding="utf-8")


def _task_units(responses, tasks: list[str], runs_rule: str, unit_of: dict, coverage: float):
    """(task -> units x items matrix, task -> its runs, the filter reports) of every task of the study."""
    units, runs, filters = {}, {}, []
    for task in tasks:
        runs[task], report = task_matrix(responses, task, coverage)
        units[task] = combine_runs(runs[task], unit_of, runs_rule)
        filters += report
    return units, runs, filters


def _pair_tables(benchmark, criterion, matrix, y, families, irt, lineage, settings, rng_for_key, random_scores):
    """(item validity, validity curve, LOFO folds, summary row) of one (benchmark, criterion) pair, each
    table with the pair's two names in front."""
    from benchval.items.curve import validity_curve
    from benchval.items.validity import item_validity, pearson_columns

    validity = item_validity(matrix, y, float(settings["ci_level"]), float(settings["fdr_alpha"]))
    curve, folds = validity_curve(matrix, y, families, irt, settings, rng_for_key, lineage, random_scores)
    pearson = float(pearson_columns(matrix.mean(axis=1).to_numpy()[:, None], y.to_numpy())[0])
    for table in (validity, curve, folds):
        table.insert(0, "criterion", criterion)
        table.insert(0, "benchmark", benchmark)
    summary = {
        **pair_summary(benchmark, criterion, validity, curve, folds, settings["fdr_alpha"]),
        "full_pearson_r": pearson,
    }
    log.info("%s -> %s: %d models, rho %.3f", benchmark, criterion, len(matrix), curve.iloc[-1]["rho"])
    return validity, curve, folds, summary


def _write_pair_tables(out: Path, pairs: list[tuple]) -> None:
    """item_validity.csv, validity_curve.csv, lofo_folds.csv and summary.csv: every pair's rows."""
    validity_tables, curves, fold_tables, summaries = zip(*pairs)
    pd.concat(validity_tables).to_csv(out / "item_validity.csv", index=False)
    pd.concat(curves).to_csv(out / "validity_curve.csv", index=False)
    pd.concat(fold_tables).to_csv(out / "lofo_folds.csv", index=False)
    pd.DataFrame(list(summaries)).to_csv(out / "summary.csv", index=False)
