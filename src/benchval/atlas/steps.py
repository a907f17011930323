"""The atlas's workflow steps, one Snakemake rule each (workflow/rules/atlas.smk; docs/atlas.md). Each
function reads what its rule passes and writes that rule's outputs; the logic lives in the modules it calls."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.atlas.names import normalise

log = logging.getLogger(__name__)

SOURCE_TABLES = {
    "models": "registry/models.csv",
    "names": "registry/names.csv",
    "merges": "registry/merges.csv",
    "unresolved": "registry/unresolved.csv",
    "excluded": "registry/excluded.csv",
    "unused_overrides": "registry/unused_overrides.csv",
    "files": "leaderboards/files.csv",
    "dropped_rows": "leaderboards/dropped_rows.csv",
    "dropped_columns": "leaderboards/dropped_columns.csv",
    "duplicates": "leaderboards/duplicates.csv",
    "cells": "cells.csv",
    "counts": "counts.csv",
    "obs_agreement": "obsscaling/agreement.csv",
    "obs_disagreements": "obsscaling/disagreements.csv",
    "obs_merged_lineages": "obsscaling/merged_lineages.csv",
}


def _write(frame: pd.DataFrame, path: str | Path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False)


def counts_table(sources) -> pd.DataFrame:
    """The headline counts: raw names, models, models in two or more sources, cells."""
    names, models = sources.registry.names, sources.registry.models
    rows = [
        ("raw_name_occurrences", len(names.drop_duplicates(["source", "raw_name"])), "distinct (file, raw name)"),
        ("raw_names", names["raw_name"].nunique(), "distinct raw name strings, after the exclusion rule"),
        ("raw_names_excluded", sources.registry.excluded["raw_name"].nunique(), "left out by an exclusion rule"),
        ("models", len(models), "canonical ids in the registry"),
        ("models_in_two_or_more_sources", int((models["n_sources"] >= 2).sum()), "files incl. ObsScaling's"),
        ("leaderboard_files", len(sources.files), "CSV files read for snapshots"),
        ("leaderboard_files_used", int(sources.files["decision"].str.startswith("used").sum()), "one per leaderboard"),
        ("columns", sources.cells["column"].nunique(), "score columns of the used files"),
        ("cells", len(sources.cells), "(model, column) scores after the duplicate rule"),
        ("models_with_family", int(models["family"].notna().sum()), "registry rules or overrides"),
        ("models_with_size", int(models["size_b"].notna().sum()), "registry rules or overrides"),
    ]
    return pd.DataFrame(rows, columns=["count", "value", "what"])


def write_sources(atlas: dict, mirror: str | Path, outputs: dict) -> None:
    """Rule atlas_sources: the registry, the leaderboard reading reports, the cells and the ObsScaling check."""
    from benchval.atlas.obs_check import merged_lineages, obs_agreement
    from benchval.atlas.sources import load_sources

    sources = load_sources(atlas, mirror)
    registry = sources.registry
    summary, disagreements = obs_agreement(sources.obsscaling, registry.models, float(atlas["size_tolerance"]))
    tables = {
        "models": registry.models.reset_index(),
        "names": registry.names,
        "merges": registry.merges(),
        "unresolved": registry.unresolved(),
        "excluded": registry.excluded,
        "unused_overrides": pd.DataFrame({"raw_key": list(registry.unused_overrides)}),
        "files": sources.files,
        "dropped_rows": sources.dropped_rows,
        "dropped_columns": sources.dropped_columns,
        "duplicates": sources.duplicates,
        "cells": sources.cells.sort_values(["column", "canonical_id"]),
        "counts": counts_table(sources),
        "obs_agreement": summary,
        "obs_disagreements": disagreements,
        "obs_merged_lineages": merged_lineages(sources.obsscaling, registry.models),
    }
    for name, frame in tables.items():
        _write(frame, outputs[name])
    log.info("atlas sources: %s", counts_table(sources).set_index("count")["value"].to_dict())


def _wide(cells_csv) -> tuple[pd.DataFrame, dict]:
    cells = pd.read_csv(cells_csv)
    leaderboard = cells.drop_duplicates("column").set_index("column")["leaderboard"].to_dict()
    return cells.pivot(index="canonical_id", columns="column", values="value"), leaderboard


def write_study_table(study_name: str, study: dict, leaderboards: list, cells_csv, models_csv, table_csv, report_csv):
    """Rule atlas_study_table: an atlas study's input table (benchval.atlas.study_tables)."""
    from benchval.atlas.study_tables import study_table

    models = pd.read_csv(models_csv).set_index("canonical_id")
    table, report = study_table(pd.read_csv(cells_csv), models, study_name, study, leaderboards)
    _write(table, table_csv)
    _write(report, report_csv)
    log.info("study %s: %s", study_name, report[["step", "n_models"]].to_dict("records"))


def write_pairs(atlas: dict, seed: int, ci_level: float, cells_csv, pairs_csv, excluded_csv) -> None:
    """Rule atlas_pairs: the atlas proper (benchval.atlas.pairs)."""
    from benchval.atlas.pairs import atlas_pairs
    from benchval.atlas.predictors import same_measure

    wide, leaderboard = _wide(cells_csv)
    pairs, excluded = atlas_pairs(
        wide,
        leaderboard,
        atlas["aggregate_columns"],
        int(atlas["min_models"]),
        int(atlas["n_bootstrap"]),
        ci_level,
        seed,
    )
    snapshot = [same_measure(a, b, atlas["same_measure"]) for a, b in zip(pairs["column_a"], pairs["column_b"])]
    moved = pairs[snapshot].assign(rule="another snapshot of the same measure (atlas.same_measure)")
    excluded = pd.concat([excluded, moved[["column_a", "column_b", "n_models", "rule"]]], ignore_index=True)
    pairs = pairs[~np.asarray(snapshot, bool)].reset_index(drop=True)
    from benchval.analysis.fdr import benjamini_hochberg

    defined = pairs["p"].notna()
    pairs.loc[defined, "p_fdr"] = benjamini_hochberg(pairs.loc[defined, "p"].to_numpy())  # FDR over the kept pairs
    _write(pairs, pairs_csv)
    _write(excluded, excluded_csv)
    log.info("atlas: %d pairs (%d excluded by rule)", len(pairs), len(excluded))


def _context(atlas: dict, leaderboard: dict) -> dict:
    return {"leaderboard": leaderboard, "aggregates": atlas["aggregate_columns"], "same_measure": atlas["same_measure"]}


def _settings(atlas: dict, seed: int, ci_level: float) -> dict:
    return {
        "min_models": int(atlas["min_models"]),
        "n_bootstrap": int(atlas["n_bootstrap"]),
        "ci_level": ci_level,
        "seed": seed,
        "max_rank_shift": int(atlas["max_rank_shift"]),
    }


def write_human_preference(atlas: dict, seed: int, ci_level: float, cells_csv, models_csv, table_csv, excluded_csv):
    """Rule atlas_human_preference: every criterion's predictors, ranked beyond size (benchval.atlas.predictors)."""
    from benchval.atlas.predictors import predictor_table

    wide, leaderboard = _wide(cells_csv)
    sizes = pd.read_csv(models_csv).set_index("canonical_id")["size_b"]
    table, excluded = predictor_table(
        wide,
        sizes,
        atlas["human_preference"]["criteria"],
        _context(atlas, leaderboard),
        _settings(atlas, seed, ci_level),
    )
    _write(table, table_csv)
    _write(excluded, excluded_csv)


def write_agreement(atlas: dict, seed: int, ci_level: float, cells_csv, predictors_csv, table_csv) -> None:
    """Rule atlas_agreement: BenchBench-style agreement beside validity (benchval.atlas.agreement)."""
    from benchval.atlas.agreement import agreement_validity

    wide, _ = _wide(cells_csv)
    criterion = atlas["human_preference"]["agreement_criterion"]
    predictors = pd.read_csv(predictors_csv)
    benchmarks = predictors.loc[predictors["criterion"] == criterion, "predictor"].tolist()
    _write(agreement_validity(wide, criterion, benchmarks, _settings(atlas, seed, ci_level)), table_csv)


def write_heatmap(atlas: dict, alpha: float, dpi: int, pairs_csv, paths: list[str]) -> None:
    """Rule atlas_heatmap (benchval.atlas.figure)."""
    from benchval.atlas.figure import criterion_cells, draw_heatmap

    criteria = atlas["human_preference"]["criteria"]
    cells = criterion_cells(pd.read_csv(pairs_csv), criteria)
    draw_heatmap(cells, criteria, alpha, int(atlas["heatmap_min_criteria"]), paths, dpi)


def write_crosscheck(atlas: dict, mirror, cells_csv, names_csv, study: dict, min_models: int, out_csv) -> None:
    """Rule atlas_crosscheck: the open_llm correlations against ObsScaling's own runs (benchval.atlas.crosscheck)."""
    from benchval.atlas.crosscheck import crosscheck
    from benchval.atlas.sources import expand

    wide, _ = _wide(cells_csv)
    keys = pd.read_csv(names_csv).drop_duplicates("key").set_index("key")["canonical_id"]
    obs = [pd.read_csv(expand(atlas["obsscaling"][k], mirror)) for k in ("path", "leaderboard_v2")]
    obs = [
        frame.assign(canonical_id=frame["Model"].map(normalise).map(keys)).dropna(subset=["canonical_id"])
        for frame in obs
    ]
    merged = obs[0].set_index("canonical_id").join(obs[1].set_index("canonical_id").drop(columns="Model"), how="outer")
    mapping = atlas["crosscheck"]
    roles = {spec["column"]: spec["role"] for spec in study["tasks"].values()}
    predictors = [c for c in mapping if roles.get(c) in ("cs_original", "control")]
    criteria = [c for c in mapping if roles.get(c) == "downstream"]
    pairs = [(x, y, mapping[x], mapping[y]) for x in predictors for y in criteria]
    _write(crosscheck(wide, merged, pairs, min_models), out_csv)


def write_study_intervals(atlas: dict, seed: int, ci_level: float, score_table_csv, tasks_csv, out_csv) -> None:
    """Rule atlas_study_intervals: bootstrap CIs of an atlas study's correlations (benchval.atlas.intervals)."""
    from benchval.atlas.intervals import study_intervals

    table = study_intervals(
        score_table_csv, tasks_csv, int(atlas["min_models"]), int(atlas["n_bootstrap"]), ci_level, seed
    )
    _write(table, out_csv)


def write_report(atlas: dict, inputs: dict, out_md) -> None:
    """Rule atlas_report: the report page (benchval.atlas.report)."""
    from benchval.atlas.report import report_page

    hp = atlas["human_preference"]
    text = report_page(inputs, hp["agreement_criterion"], atlas["report_study_criterion"])
    Path(out_md).parent.mkdir(parents=True, exist_ok=True)
    Path(out_md).write_text(text, encoding="utf-8")
