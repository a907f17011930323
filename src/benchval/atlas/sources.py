"""Every leaderboard cell of the mirror, by model (docs/atlas.md): the benchbench/ files read as they are
(benchval.atlas.leaderboards), the registry built over their raw names and ObsScaling's, and one score
per (model, column) by the configured duplicate rule."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from benchval.atlas.leaderboards import (
    LeaderboardError,
    deduplicate_columns,
    read_leaderboard,
    read_lower_is_better,
    select_snapshots,
)
from benchval.atlas.registry import Registry, build_registry, load_display_names, load_overrides, load_rules

DUPLICATE_RULES = ("first", "last", "mean", "error")


@dataclass
class Sources:
    cells: pd.DataFrame  # source, leaderboard, line, raw_name, column, value, canonical_id
    files: pd.DataFrame  # every file: leaderboard, date, decision
    dropped_rows: pd.DataFrame  # source, line, raw_name, rule
    dropped_columns: pd.DataFrame
    duplicates: pd.DataFrame  # canonical_id, column, lines, values, rule
    registry: Registry
    obsscaling: pd.DataFrame  # ObsScaling's base file: canonical_id, family, size_b (its curated labels)
    flipped: list


def expand(template: str, mirror: str | Path) -> Path:
    return Path(str(template).replace("{mirror}", str(mirror)))


def _label(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def drop_declared_columns(cells: pd.DataFrame, declared: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Leave out the columns of ``atlas.drop_columns`` (column -> why); a declared column no used file
    holds fails, so that a renamed column cannot silently stay in."""
    absent = sorted(set(declared) - set(cells["column"]))
    if absent:
        raise LeaderboardError(f"atlas.drop_columns: column(s) {absent} are in no used leaderboard file")
    mask = cells["column"].isin(declared)
    dropped = (
        cells[mask].drop_duplicates("column")[["column", "source"]].assign(rule=lambda f: f["column"].map(declared))
    )
    return cells[~mask].reset_index(drop=True), dropped.reset_index(drop=True)


def resolve_duplicates(cells: pd.DataFrame, rule: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One value per (canonical_id, column): ``first`` / ``last`` row of the file, ``mean``, or ``error``."""
    if rule not in DUPLICATE_RULES:
        raise ValueError(f"atlas.duplicates: {rule!r} is not one of {list(DUPLICATE_RULES)}")
    keys = ["canonical_id", "column"]
    repeated = cells[cells.duplicated(keys, keep=False)].sort_values(["source", "line"])
    report = (
        repeated.groupby(keys)
        .agg(
            source=("source", "first"),
            raw_names=("raw_name", lambda s: " | ".join(dict.fromkeys(s))),
            lines=("line", lambda s: ";".join(map(str, s))),
            values=("value", lambda s: ";".join(f"{v:g}" for v in s)),
        )
        .reset_index()
        .assign(rule=f"atlas.duplicates: {rule}")
    )
    if len(report) and rule == "error":
        first = report.iloc[0]
        raise LeaderboardError(
            f"{first['source']}: lines {first['lines']}, column {first['column']!r}: model {first['canonical_id']!r} "
            f"appears more than once (raw names {first['raw_names']}; atlas.duplicates: error)"
        )
    ordered = cells.sort_values(["source", "line"])
    if rule == "mean":
        kept = ordered.groupby(keys, as_index=False).agg(
            {"value": "mean", "source": "first", "leaderboard": "first", "line": "first", "raw_name": "first"}
        )
    else:
        kept = ordered.drop_duplicates(keys, keep=rule)
    return kept.reset_index(drop=True), report


def _obsscaling_labels(obs: pd.DataFrame, columns: dict, canonical_by_line: pd.Series) -> pd.DataFrame:
    """ObsScaling's own family and size of each of its models, beside the registry's canonical id (file line =
    row + 2: a header line, lines counted from 1)."""
    return pd.DataFrame(
        {
            "canonical_id": (obs.index + 2).map(canonical_by_line),
            "raw_name": obs[columns["model"]],
            "family": obs[columns["family"]],
            "size_b": pd.to_numeric(obs[columns["size_b"]], errors="coerce"),
        }
    )


def load_sources(atlas: dict, mirror: str | Path) -> Sources:
    """Read every configured file, select one snapshot per leaderboard, build the registry, map the cells."""
    paths = sorted(p for d in atlas["benchbench_dirs"] for p in expand(d, mirror).glob("*.csv"))
    if not paths:
        raise LeaderboardError(f"atlas.benchbench_dirs {atlas['benchbench_dirs']}: no CSV file found")
    chosen, files = select_snapshots(paths, _label)
    lower = read_lower_is_better(expand(atlas["lower_is_better"], mirror))
    reads = {
        path: read_leaderboard(path, atlas["missing_tokens"], any(path.stem.startswith(p) for p in lower), _label(path))
        for path in chosen
    }
    files["missing_cells"] = files["source"].map({_label(p): r.n_missing for p, r in reads.items()})
    files["sign_flipped"] = files["source"].map({_label(p): r.flipped for p, r in reads.items()})
    cells = pd.concat([r.cells for r in reads.values()], ignore_index=True)
    cells, dropped_columns = deduplicate_columns(cells)
    cells, set_aside = drop_declared_columns(cells, atlas.get("drop_columns") or {})
    dropped_columns = pd.concat([dropped_columns, set_aside], ignore_index=True)
    dropped_rows = pd.DataFrame(
        [d for r in reads.values() for d in r.dropped], columns=["source", "line", "raw_name", "rule"]
    )
    obs_path = expand(atlas["obsscaling"]["path"], mirror)
    obs = pd.read_csv(obs_path)
    columns = atlas["obsscaling"]["columns"]
    occurrences = pd.concat(
        [
            cells[["source", "line", "raw_name"]].drop_duplicates(),
            pd.DataFrame({"source": _label(obs_path), "line": obs.index + 2, "raw_name": obs[columns["model"]]}),
        ],
        ignore_index=True,
    )
    registry = build_registry(
        occurrences,
        load_rules(atlas["rules"]),
        load_overrides(atlas["overrides"]),
        load_display_names(atlas.get("display_names")),
    )
    excluded = registry.excluded.assign(rule=lambda f: "excluded: " + f["why"])[["source", "line", "raw_name", "rule"]]
    dropped_rows = pd.concat([dropped_rows, excluded], ignore_index=True)
    lookup = registry.names.drop_duplicates(["source", "raw_name"]).set_index(["source", "raw_name"])["canonical_id"]
    cells["canonical_id"] = [lookup.get((s, r)) for s, r in zip(cells["source"], cells["raw_name"])]
    cells = cells.dropna(subset=["canonical_id"])
    cells, duplicates = resolve_duplicates(cells, atlas["duplicates"])
    obs_names = registry.names[registry.names["source"] == _label(obs_path)].set_index("line")["canonical_id"]
    obsscaling = _obsscaling_labels(obs, columns, obs_names)
    return Sources(
        cells=cells,
        files=files,
        dropped_rows=dropped_rows,
        dropped_columns=dropped_columns,
        duplicates=duplicates,
        registry=registry,
        obsscaling=obsscaling,
        flipped=[_label(p) for p, r in reads.items() if r.flipped],
    )


def wide_scores(cells: pd.DataFrame) -> pd.DataFrame:
    """Model x column matrix (canonical ids x column names) of the selected cells."""
    return cells.pivot(index="canonical_id", columns="column", values="value")
