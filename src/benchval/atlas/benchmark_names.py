"""Display names of leaderboard benchmarks and criteria in the atlas's figures: BenchBench's own
prettified names (``prettified_bencmark_names.json`` in the mirror's benchbench/ folder, config
``atlas.benchmark_names``; "arena_elo" -> "LMSys Arena", "mt_bench" -> "MT-Bench").

A name is looked up case-insensitively with "-" read as "_" (the config's "MT-bench" is BenchBench's
"mt_bench"); a name the file lacks is shown as it is. The tables keep the ids; only figures show these.
"""

from __future__ import annotations

import json
from pathlib import Path

from benchval.report.safe_text import shorten_label


def _key(name: str) -> str:
    return str(name).strip().lower().replace("-", "_")


def load_benchmark_names(path: str | Path | None) -> dict[str, str]:
    """{lookup key: display name} from the JSON file (empty without one)."""
    if not path:
        return {}
    mapping = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(mapping, dict):
        raise ValueError(f"{path}: expected a JSON object of name -> display name")
    return {_key(k): str(v) for k, v in mapping.items()}


def display_name(name: str, names: dict[str, str]) -> str:
    """The display name of ``name`` (itself where the file lacks it), shortened for a figure."""
    return shorten_label(names.get(_key(name), name))
