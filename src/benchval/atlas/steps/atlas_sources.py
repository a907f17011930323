"""Rule atlas_sources: the registry, the leaderboard reading reports, the cells and the ObsScaling check."""

from __future__ import annotations

import logging
from pathlib import Path
import pandas as pd

from benchval.atlas.steps.atlas_common import write_table

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
        write_table(frame, outputs[name])
    log.info("atlas sources: %s", counts_table(sources).set_index("count")["value"].to_dict())
