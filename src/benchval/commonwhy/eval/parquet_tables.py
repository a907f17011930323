"""Reading and writing the evaluation's parquet tables: a table read back is checked for its columns."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd


def write_table(table: pd.DataFrame, path: str | Path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    table.to_parquet(path, index=False)


def read_table(path: str | Path, columns: Sequence[str], what: str) -> pd.DataFrame:
    """The parquet file at `path`; an error names the file, what it should be and the missing columns."""
    table = pd.read_parquet(path)
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: not {what} (missing columns {missing})")
    return table
