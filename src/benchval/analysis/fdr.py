"""Benjamini-Hochberg FDR within each predefined family of comparisons.

Every statistics table that carries a p-value column (``p`` or ``p_boot``) registers its rows
as tests of one *test kind* (see ``settings.TEST_KINDS``). The config declares families as
lists of test kinds, optionally split by metric. BH is applied separately within every
(family[, metric]) group over the tests whose p-value is defined; tests with an undefined
p-value, or whose kind is in no family, get ``p_fdr = NaN`` and a reason in ``fdr_note``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis.settings import AnalysisSettings


def benjamini_hochberg(p_values: np.ndarray) -> np.ndarray:
    """BH-adjusted p-values (scipy.stats.false_discovery_control, method 'bh')."""
    p_values = np.asarray(p_values, dtype=float)
    if p_values.size == 0:
        return p_values
    return stats.false_discovery_control(p_values, method="bh")


def family_of(kind: str, settings: AnalysisSettings) -> tuple[str | None, bool]:
    """The family name of a test kind and whether that family is split by metric."""
    for family in settings.fdr_families:
        if kind in family.tests:
            return family.name, family.per_metric
    return None, True


def register_tests(table: pd.DataFrame, kind: str, p_column: str, key: str) -> pd.DataFrame:
    """Rows of ``table`` as tests: ``test_id, test_kind, metric, p`` (``test_id`` = key:row)."""
    return pd.DataFrame(
        {
            "test_id": [f"{key}:{i}" for i in range(len(table))],
            "test_kind": kind,
            "metric": table["metric"].to_numpy() if len(table) else [],
            "p": table[p_column].to_numpy(dtype=float) if len(table) else [],
        }
    )


def adjust(tests: pd.DataFrame, settings: AnalysisSettings) -> pd.DataFrame:
    """Add ``fdr_family, p_fdr, reject, fdr_note`` to the registered tests."""
    tests = tests.copy()
    families = tests["test_kind"].map(lambda k: family_of(k, settings))
    tests["fdr_family"] = [name if name is not None else "" for name, _ in families]
    group_key = [
        f"{name}|{metric}" if per_metric else f"{name}|all"
        for (name, per_metric), metric in zip(families, tests["metric"])
    ]
    tests["p_fdr"] = np.nan
    tests["fdr_note"] = ""
    tests.loc[tests["fdr_family"] == "", "fdr_note"] = "test kind is in no FDR family (config analysis.fdr.families)"
    defined = tests["p"].notna() & (tests["fdr_family"] != "")
    tests.loc[tests["p"].isna(), "fdr_note"] = "p-value undefined"
    keys = pd.Series(group_key, index=tests.index)
    for _, index in keys[defined].groupby(keys[defined]).groups.items():
        tests.loc[index, "p_fdr"] = benjamini_hochberg(tests.loc[index, "p"].to_numpy())
    tests["family_size"] = keys.map(keys[defined].value_counts()).fillna(0).astype(int)
    tests["reject"] = (tests["p_fdr"] < settings.fdr_alpha).astype("boolean")
    tests.loc[tests["p_fdr"].isna(), "reject"] = pd.NA
    return tests


def attach(table: pd.DataFrame, adjusted: pd.DataFrame, key: str) -> pd.DataFrame:
    """Copy ``fdr_family, p_fdr, reject`` of the tests registered under ``key`` onto ``table``."""
    rows = adjusted[adjusted["test_id"].str.startswith(f"{key}:")]
    rows = rows.assign(position=rows["test_id"].str.split(":").str[-1].astype(int)).set_index("position")
    table = table.copy()
    for column in ("fdr_family", "p_fdr", "reject"):
        table[column] = rows[column].reindex(range(len(table))).to_numpy()
    return table


def _test_registrations(tables: dict[str, pd.DataFrame]) -> list[tuple[str, pd.Series | None, str, str]]:
    """(table name, row mask, test kind, p column) of every tested hypothesis."""
    cs_ds = tables["correlations_cs_downstream"]
    groups = tables["revision_groups"]
    return [
        ("correlations_cs_cs", None, "cs_cs_spearman", "p"),
        ("correlations_cs_downstream", cs_ds["role"] != "control", "cs_downstream_spearman", "p"),
        ("correlations_cs_downstream", cs_ds["role"] == "control", "control_downstream_spearman", "p"),
        ("revision_pairs", None, "revision_pair_spearman", "p"),
        ("revision_groups", groups["statistic"].astype(str).str.startswith("diff"), "revision_group", "p_boot"),
        ("delta_rho", None, "delta_rho", "p_boot"),
        ("partial_spearman", None, "partial_spearman", "p"),
        ("axis_tests", None, "axis_test", "p_boot"),
    ]


def adjust_tables(tables: dict[str, pd.DataFrame], settings: AnalysisSettings) -> None:
    """BH within the configured families; adds ``fdr_family, p_fdr, reject`` to the tested tables
    (in place) and the table ``fdr`` of every test (the chain's FDR step)."""
    registered, keys = [], []
    for i, (name, mask, kind, p_column) in enumerate(_test_registrations(tables)):
        table = tables[name]
        selected = table if mask is None else table[mask]
        key = f"{name}#{i}"
        tests = register_tests(selected.reset_index(drop=True), kind, p_column, key)
        tests["table"] = name
        registered.append(tests)
        keys.append((name, mask, key))
    adjusted = adjust(pd.concat(registered, ignore_index=True), settings)
    for name, mask, key in keys:
        table = tables[name]
        if mask is None:
            tables[name] = attach(table, adjusted, key)
            continue
        part = attach(table[mask].reset_index(drop=True), adjusted, key)
        for column in ("fdr_family", "p_fdr", "reject"):
            if column not in table:
                table[column] = pd.Series([None] * len(table), index=table.index, dtype=object)
            table.loc[mask, column] = part[column].astype(object).to_numpy()
        tables[name] = table
    tables["fdr"] = adjusted[
        ["table", "test_kind", "metric", "fdr_family", "family_size", "p", "p_fdr", "reject", "fdr_note", "test_id"]
    ]


def run_fdr_step(
    unadjusted: dict[str, str], section: dict | None, out_dir, before_writing=None
) -> dict[str, pd.DataFrame]:
    """The chain's FDR step: read the tested tables' p-values, adjust, write them and ``fdr`` to tables/.
    ``before_writing(tables)``, if given, may add columns first (the reliability ceiling)."""
    from benchval.analysis.chain import read_tables, step_settings, write_table
    from benchval.analysis.outputs import STEP_SETTINGS

    settings = step_settings(section, STEP_SETTINGS["fdr"], "fdr")
    tables = read_tables(unadjusted)
    adjust_tables(tables, settings)
    if before_writing is not None:
        before_writing(tables)
    for name, table in tables.items():
        write_table(table, out_dir, name, final=True)
    return tables


def run_fdr_step_with_ceilings(
    unadjusted: dict[str, str], reliability_csv: str, ceiling_bar: float, section: dict | None, out_dir
) -> dict[str, pd.DataFrame]:
    """The workflow's FDR step (rule analysis_fdr): :func:`run_fdr_step`, the correlation tables also given
    each task's reliability and the ceiling it puts on their correlation (benchval.analysis.reliability)."""
    from benchval.analysis.reliability import add_ceilings

    reliability = pd.read_csv(reliability_csv)
    return run_fdr_step(
        unadjusted, section, out_dir, before_writing=lambda tables: add_ceilings(tables, reliability, ceiling_bar)
    )
