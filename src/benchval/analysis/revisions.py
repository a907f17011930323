"""Original vs reworked commonsense benchmarks (paper sections 3.5 and 3.6, Eq. 2).

* :func:`pair_correlations`: Spearman across models for every matched original/reworked pair.
* :func:`group_comparisons`: mean Fisher-z of the original-original (OO), reworked-reworked (RR)
  and original-reworked (OR) pairwise correlations and the differences OO-RR and OO-OR, with
  percentile bootstrap CIs over models (all pairwise correlations recomputed per resample);
  repeated with each model family left out.
* :func:`delta_rho`: rho(original, Y) - rho(reworked, Y) per downstream task Y, paired bootstrap.
* :func:`variant_sensitivity`: the same statistics once per sensitivity variant (``cs_variant``
  tasks, e.g. one per PIQA-RUP perturbation), the variant standing in for the reworked task it
  varies; one row per variant.

All bootstrap statistics use the complete-case models of the tasks involved.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchval.analysis import bootstrap
from benchval.analysis.correlation import fisher_z, spearman
from benchval.analysis.intervals import spearman_interval_columns
from benchval.analysis.settings import AnalysisSettings
from benchval.analysis.study_table import StudyTable
from benchval.analysis.undefined import UndefinedStatistic, require
from benchval.tasks.variants import split_variant_name

GROUP_STATISTICS = ("mean_z_OO", "mean_z_RR", "mean_z_OR", "diff_OO_minus_RR", "diff_OO_minus_OR")
ALL_MODELS = "(none)"


def revision_pairs(study: StudyTable, available: list[str]) -> list[tuple[str, str]]:
    """(original, reworked) pairs whose two tasks both have the metric (task-table order)."""
    available = set(available)
    return [
        (study.tasks.at[r, "pairs_with"], r)
        for r in study.tasks_with_role("cs_reworked")
        if r in available and study.tasks.at[r, "pairs_with"] in available
    ]


def pair_correlations(study: StudyTable, metric: str, wide: pd.DataFrame, settings: AnalysisSettings) -> pd.DataFrame:
    """Spearman rho (scipy) between each original and its reworked version."""
    records = []
    for reworked in study.tasks_with_role("cs_reworked"):
        original = study.tasks.at[reworked, "pairs_with"]
        record = {"metric": metric, "original": original, "reworked": reworked}
        try:
            require(
                original in wide and reworked in wide,
                f"{original if original not in wide else reworked} has no '{metric}' scores",
            )
            rho, p, n = spearman(wide[original], wide[reworked], settings.min_models)
            record.update(rho=rho, p=p, n_models=n, note="")
        except UndefinedStatistic as undefined:
            record.update(rho=np.nan, p=np.nan, n_models=0, note=str(undefined))
        records.append(record)
    if not records:
        records.append(
            {
                "metric": metric,
                "original": "",
                "reworked": "",
                "rho": np.nan,
                "p": np.nan,
                "n_models": 0,
                "note": "the study has no cs_reworked tasks: no original/reworked pair",
            }
        )
    table = pd.DataFrame.from_records(records)
    return spearman_interval_columns(table, wide, "original", "reworked", settings, ("revision_pairs", metric))


def group_statistics(corr: np.ndarray, n_original: int, max_abs_rho: float) -> dict[str, np.ndarray]:
    """OO/RR/OR Fisher-z means and differences from correlation matrices (..., k, k).

    Tasks are ordered originals first (``n_original`` of them), then reworked. Pairs are
    unordered and distinct; OR uses every original x reworked combination.
    """
    k = corr.shape[-1]
    z = fisher_z(corr, max_abs_rho)
    upper = np.triu(np.ones((k, k), dtype=bool), 1)
    is_original = np.arange(k) < n_original
    masks = {
        "OO": upper & is_original[:, None] & is_original[None, :],
        "RR": upper & ~is_original[:, None] & ~is_original[None, :],
        "OR": is_original[:, None] & ~is_original[None, :],
    }
    means = {
        name: z[..., mask].mean(axis=-1) if mask.any() else np.full(z.shape[:-2], np.nan)
        for name, mask in masks.items()
    }
    return {
        "mean_z_OO": means["OO"],
        "mean_z_RR": means["RR"],
        "mean_z_OR": means["OR"],
        "diff_OO_minus_RR": means["OO"] - means["RR"],
        "diff_OO_minus_OR": means["OO"] - means["OR"],
    }


def _group_reason(statistic: str, n_original: int, n_reworked: int) -> str:
    needs = {"OO": n_original >= 2, "RR": n_reworked >= 2, "OR": n_original >= 1 and n_reworked >= 1}
    reasons = {
        "OO": f"needs >= 2 cs_original tasks (has {n_original})",
        "RR": f"needs >= 2 cs_reworked tasks (has {n_reworked})",
        "OR": f"needs >= 1 cs_original and >= 1 cs_reworked task (has {n_original}, {n_reworked})",
    }
    involved = [g for g in ("OO", "RR", "OR") if g in statistic]
    return "; ".join(reasons[g] for g in involved if not needs[g])


def _group_rows(
    matrix: np.ndarray, n_original: int, n_reworked: int, settings: AnalysisSettings, key: tuple
) -> list[dict]:
    point = group_statistics(bootstrap.spearman_matrices(matrix), n_original, settings.fisher_z_max_abs_rho)
    indices = bootstrap.resample_indices(bootstrap.rng_for(settings.seed, *key), len(matrix), settings.n_bootstrap)
    boot = group_statistics(bootstrap.bootstrap_spearman(matrix, indices), n_original, settings.fisher_z_max_abs_rho)
    rows = []
    for statistic in GROUP_STATISTICS:
        reason = _group_reason(statistic, n_original, n_reworked)
        if reason:
            rows.append(
                {
                    "statistic": statistic,
                    "estimate": np.nan,
                    "ci_low": np.nan,
                    "ci_high": np.nan,
                    "p_boot": np.nan,
                    "n_boot_valid": 0,
                    "note": reason,
                }
            )
            continue
        summary = bootstrap.summarise(float(point[statistic]), boot[statistic], settings.ci_level)
        if not statistic.startswith("diff"):
            summary["p_boot"] = np.nan  # a mean z is an estimate, not a test
        note = bootstrap.invalid_note(summary["n_boot_valid"], settings.n_bootstrap)
        if not np.isfinite(summary["estimate"]):
            note = "undefined on the full sample (a benchmark has constant scores)"
        rows.append({"statistic": statistic, **summary, "note": note})
    return rows


def group_comparisons(study: StudyTable, metric: str, wide: pd.DataFrame, settings: AnalysisSettings) -> pd.DataFrame:
    """OO/RR/OR comparison on all models and with each family left out."""
    originals = study.tasks_with_role("cs_original", wide.columns)
    reworked = study.tasks_with_role("cs_reworked", wide.columns)
    complete = wide[originals + reworked].dropna()
    families = study.models.loc[complete.index, "family"]
    records = []
    left_out_families = sorted(families.unique()) if reworked else []  # nothing to repeat without reworked tasks
    for left_out in [ALL_MODELS] + left_out_families:
        kept = complete if left_out == ALL_MODELS else complete[families != left_out]
        base = {
            "metric": metric,
            "left_out_family": left_out,
            "n_models": len(kept),
            "n_original": len(originals),
            "n_reworked": len(reworked),
        }
        try:
            require(len(reworked) > 0, f"the study has no cs_reworked tasks with '{metric}' scores")
            require(len(originals) + len(reworked) >= 2, "fewer than two commonsense benchmarks")
            require(
                len(kept) >= settings.min_models,
                f"only {len(kept)} model(s) with every commonsense score (< min_models={settings.min_models})",
            )
            rows = _group_rows(
                kept.to_numpy(float), len(originals), len(reworked), settings, ("revision_groups", metric, left_out)
            )
        except UndefinedStatistic as undefined:
            rows = [
                {
                    "statistic": s,
                    "estimate": np.nan,
                    "ci_low": np.nan,
                    "ci_high": np.nan,
                    "p_boot": np.nan,
                    "n_boot_valid": 0,
                    "note": str(undefined),
                }
                for s in GROUP_STATISTICS
            ]
        records.extend({**base, **row} for row in rows)
    return pd.DataFrame.from_records(records)


def _delta_rho_groups(wide: pd.DataFrame, triples: list[tuple[str, str, str]]) -> dict[tuple, list]:
    """Triples grouped by their complete-case model set (one shared bootstrap per group)."""
    groups: dict[tuple, list] = {}
    for triple in triples:
        models = tuple(wide[list(triple)].dropna().index)
        groups.setdefault(models, []).append(triple)
    return groups


def _group_delta_rho(wide: pd.DataFrame, models: tuple, group: list, metric: str, settings: AnalysisSettings) -> dict:
    """(original, reworked, downstream) -> its delta rho record, for the triples of one model set, which
    share one set of resamples."""
    tasks = list(dict.fromkeys(t for triple in group for t in triple))
    complete = wide.loc[list(models), tasks]
    position = {t: i for i, t in enumerate(tasks)}
    corr = None
    if len(complete) >= settings.min_models:
        indices = bootstrap.resample_indices(
            bootstrap.rng_for(settings.seed, "delta_rho", metric, *models), len(complete), settings.n_bootstrap
        )
        corr = bootstrap.bootstrap_spearman(complete.to_numpy(float), indices)
    results = {}
    for original, reworked, task in group:
        record = {"n_models": len(complete)}
        try:
            rho_o, _, _ = spearman(complete[original], complete[task], settings.min_models)
            rho_r, _, _ = spearman(complete[reworked], complete[task], settings.min_models)
            o, r, y = position[original], position[reworked], position[task]
            summary = bootstrap.summarise(rho_o - rho_r, corr[:, o, y] - corr[:, r, y], settings.ci_level)
            record.update(
                rho_original=rho_o,
                rho_reworked=rho_r,
                **summary,
                note=bootstrap.invalid_note(summary["n_boot_valid"], settings.n_bootstrap),
            )
        except UndefinedStatistic as undefined:
            record.update(n_boot_valid=0, note=str(undefined))
        results[(original, reworked, task)] = record
    return results


def delta_rho(study: StudyTable, metric: str, wide: pd.DataFrame, settings: AnalysisSettings) -> pd.DataFrame:
    """Delta rho = rho(original, Y) - rho(reworked, Y) per pair and downstream task, paired bootstrap.

    Each (original, reworked, Y) uses the models with all three scores. Triples with the same
    model set share one set of resamples (drawn from a generator keyed by metric and models),
    so their intervals are paired across tasks too; with no missing scores that is one set.
    """
    downstream = study.tasks_with_role("downstream", wide.columns)
    pairs = revision_pairs(study, list(wide.columns))
    columns = [
        "metric",
        "original",
        "reworked",
        "downstream",
        "rho_original",
        "rho_reworked",
        *bootstrap.SUMMARY_COLUMNS,
        "n_models",
        "note",
    ]
    if not pairs or not downstream:
        reason = "no original/reworked pair with '{m}' scores" if not pairs else "no downstream task with '{m}' scores"
        return pd.DataFrame.from_records(
            [
                {
                    "metric": metric,
                    "original": "",
                    "reworked": "",
                    "downstream": "",
                    "n_boot_valid": 0,
                    "n_models": 0,
                    "note": reason.format(m=metric),
                }
            ],
            columns=columns,
        )
    triples = [(o, r, t) for o, r in pairs for t in downstream]
    results = {}
    for models, group in _delta_rho_groups(wide, triples).items():
        results.update(_group_delta_rho(wide, models, group, metric, settings))
    records = [
        {"metric": metric, "original": o, "reworked": r, "downstream": t, **results[(o, r, t)]} for o, r, t in triples
    ]
    return pd.DataFrame.from_records(records, columns=columns)


# --------------------------------------------------------------------------- sensitivity variants

SENSITIVITY_STATISTICS = ("diff_OO_minus_RR", "diff_OO_minus_OR", "mean_delta_rho")


def substituted_benchmarks(study: StudyTable, variant: str, available) -> tuple[list[str], list[str], str]:
    """(originals, reworked, note): the study's commonsense tasks with ``variant`` in place of the
    reworked task it varies (appended as one more reworked task, with a note, when that is absent)."""
    base, _ = split_variant_name(variant)
    originals = study.tasks_with_role("cs_original", available)
    reworked = study.tasks_with_role("cs_reworked", available)
    if base in reworked:
        return originals, [variant if task == base else task for task in reworked], ""
    return originals, reworked + [variant], f"{base} has no scores here: the variant is one more reworked task"


def _missing(statistic: str, reason: str) -> dict:
    return {
        statistic: np.nan,
        f"{statistic}_ci_low": np.nan,
        f"{statistic}_ci_high": np.nan,
        f"{statistic}_p_boot": np.nan,
        "note": reason,
    }


def _variant_groups(
    wide: pd.DataFrame, originals: list[str], reworked: list[str], settings: AnalysisSettings, key: tuple
) -> tuple[dict, int]:
    """diff_OO_minus_RR and diff_OO_minus_OR (estimate, CI, p) on the complete-case models."""
    complete = wide[originals + reworked].dropna()
    try:
        require(
            len(complete) >= settings.min_models,
            f"only {len(complete)} model(s) with every commonsense score (< min_models={settings.min_models})",
        )
        rows = {
            row["statistic"]: row
            for row in _group_rows(complete.to_numpy(float), len(originals), len(reworked), settings, key)
        }
    except UndefinedStatistic as undefined:
        rows = {
            s: {"estimate": np.nan, "ci_low": np.nan, "ci_high": np.nan, "p_boot": np.nan, "note": str(undefined)}
            for s in GROUP_STATISTICS
        }
    record, notes = {}, []
    for statistic in SENSITIVITY_STATISTICS[:2]:
        row = rows[statistic]
        record.update(
            {
                statistic: row["estimate"],
                f"{statistic}_ci_low": row["ci_low"],
                f"{statistic}_ci_high": row["ci_high"],
                f"{statistic}_p_boot": row["p_boot"],
            }
        )
        notes += [f"{statistic}: {row['note']}"] if row["note"] else []
    return dict(record, note="; ".join(dict.fromkeys(notes))), len(complete)


def _variant_mean_delta_rho(
    wide: pd.DataFrame, original: str, variant: str, downstream: list[str], settings: AnalysisSettings, key: tuple
) -> tuple[dict, int]:
    """Mean over downstream tasks Y of rho(original, Y) - rho(variant, Y), paired bootstrap over the
    models with every one of these scores."""
    statistic = "mean_delta_rho"
    complete = wide[[original, variant] + downstream].dropna()
    try:
        require(bool(downstream), "no downstream task with scores")
        deltas = [
            spearman(complete[original], complete[task], settings.min_models)[0]
            - spearman(complete[variant], complete[task], settings.min_models)[0]
            for task in downstream
        ]
    except UndefinedStatistic as undefined:
        return _missing(statistic, f"{statistic}: {undefined}"), len(complete)
    indices = bootstrap.resample_indices(bootstrap.rng_for(settings.seed, *key), len(complete), settings.n_bootstrap)
    corr = bootstrap.bootstrap_spearman(complete.to_numpy(float), indices)
    samples = (corr[:, 0, 2:] - corr[:, 1, 2:]).mean(axis=1)
    summary = bootstrap.summarise(float(np.mean(deltas)), samples, settings.ci_level)
    note = bootstrap.invalid_note(summary["n_boot_valid"], settings.n_bootstrap)
    return {
        statistic: summary["estimate"],
        f"{statistic}_ci_low": summary["ci_low"],
        f"{statistic}_ci_high": summary["ci_high"],
        f"{statistic}_p_boot": summary["p_boot"],
        "note": f"{statistic}: {note}" if note else "",
    }, len(complete)


def _variant_record(
    study: StudyTable, metric: str, variant: str, wide: pd.DataFrame, downstream: list, settings: AnalysisSettings
) -> dict:
    """The row of one sensitivity variant (see :func:`variant_sensitivity`)."""
    reworked, value = split_variant_name(variant)
    original = study.tasks.at[variant, "pairs_with"]
    record = {"metric": metric, "variant": variant, "variant_value": value, "reworked": reworked, "original": original}
    notes = []
    try:
        require(original in wide, f"{original} has no '{metric}' scores")
        rho, p, n = spearman(wide[original], wide[variant], settings.min_models)
        record.update(rho_pair=rho, p_pair=p, n_models_pair=n)
    except UndefinedStatistic as undefined:
        pair_n = int(wide[[original, variant]].notna().all(axis=1).sum()) if original in wide else 0
        record.update(rho_pair=np.nan, p_pair=np.nan, n_models_pair=pair_n)
        notes.append(f"rho_pair: {undefined}")
    originals, substituted, substitution_note = substituted_benchmarks(study, variant, wide.columns)
    groups, n_groups = _variant_groups(
        wide, originals, substituted, settings, ("revision_sensitivity", metric, variant)
    )
    if original in wide:
        delta, n_delta = _variant_mean_delta_rho(
            wide, original, variant, downstream, settings, ("revision_sensitivity_delta_rho", metric, variant)
        )
    else:
        delta, n_delta = _missing("mean_delta_rho", f"mean_delta_rho: {original} has no '{metric}' scores"), 0
    notes += [substitution_note, groups.pop("note"), delta.pop("note")]
    record.update(
        groups,
        **delta,
        n_models_groups=n_groups,
        n_models_delta=n_delta,
        n_downstream=len(downstream),
        note="; ".join(filter(None, notes)),
    )
    return record


def variant_sensitivity(study: StudyTable, metric: str, wide: pd.DataFrame, settings: AnalysisSettings) -> pd.DataFrame:
    """One row per sensitivity variant (``cs_variant`` task, e.g. ``piqa_rup__goal_Leet``).

    For each variant V of reworked task R paired with original O: ``rho_pair`` = Spearman(O, V)
    (scipy); ``diff_OO_minus_RR`` and ``diff_OO_minus_OR`` as in :func:`group_comparisons` (all
    models) with V in place of R among the reworked benchmarks; ``mean_delta_rho`` = the mean over
    the study's downstream tasks Y of rho(O, Y) - rho(V, Y). Intervals are percentile bootstraps
    over models (seeded per metric and variant); the p values are not FDR-adjusted (a sensitivity
    display, not a family of tests). Undefined statistics are NaN with the reason in ``note``.
    """
    # a variant of an original (winogrande__whole_option: another scoring rule) is no revision: the
    # specification grid reads it (benchval.analysis.specification, dimension `scoring`)
    variants = [
        v
        for v in study.tasks_with_role("cs_variant", wide.columns)
        if study.tasks["role"].get(split_variant_name(v)[0]) != "cs_original"
    ]
    downstream = study.tasks_with_role("downstream", wide.columns)
    records = [_variant_record(study, metric, variant, wide, downstream, settings) for variant in variants]
    if not records:
        records.append(
            {
                "metric": metric,
                "note": "the study has no cs_variant tasks with "
                f"'{metric}' scores (sensitivity mode: studies.<study>.sensitivity_variants: true)",
            }
        )
    return pd.DataFrame.from_records(records, columns=SENSITIVITY_COLUMNS)


SENSITIVITY_COLUMNS = (
    ["metric", "variant", "variant_value", "reworked", "original", "rho_pair", "p_pair", "n_models_pair"]
    + [f"{s}{suffix}" for s in SENSITIVITY_STATISTICS for suffix in ("", "_ci_low", "_ci_high", "_p_boot")]
    + ["n_models_groups", "n_models_delta", "n_downstream", "note"]
)


def step_tables(study: StudyTable, metrics: list[str], settings) -> dict[str, pd.DataFrame]:
    """Step ``revisions`` of the chain (benchval.analysis.chain): the three revision tables."""
    from benchval.analysis.chain import per_metric

    return per_metric(
        study,
        metrics,
        lambda metric, wide: {
            "revision_pairs": pair_correlations(study, metric, wide, settings),
            "revision_groups": group_comparisons(study, metric, wide, settings),
            "delta_rho": delta_rho(study, metric, wide, settings),
            "revision_sensitivity": variant_sensitivity(study, metric, wide, settings),
        },
    )
