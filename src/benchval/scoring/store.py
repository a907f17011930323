"""The scores file ``results/scores/{model}/{task}.parquet`` and its resumable shards.

One row per request (docs/data-contract.md, section 2). The file's key-value metadata holds, under
the key ``benchval``, a JSON object with the model name, weights sha256, tokenizer, engine and its
version, and the cache key. Shards (``{task}.shards/shard-00000.parquet``, ...) are ordinary scores
files whose metadata also records the cache key and a fingerprint of the shard's requests: a shard is
reused only when both match, so an interrupted run resumes without redoing finished shards.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

META_KEY = b"benchval"
SCHEMA = pa.schema(
    [
        ("request_id", pa.string()),
        ("item_id", pa.string()),
        ("option_index", pa.int64()),
        ("kind", pa.string()),
        ("context", pa.string()),
        ("continuation", pa.string()),
        ("logprob_sum", pa.float64()),
        ("n_tokens", pa.int64()),
        ("n_chars", pa.int64()),
        ("n_bytes", pa.int64()),
        ("token_logprobs", pa.list_(pa.float32())),
        ("is_greedy", pa.bool_()),
    ]
)
COLUMNS = SCHEMA.names
KINDS = ("option", "prior")


class ScoresFileError(ValueError):
    """A scores file that does not follow the contract; the message names the file and the problem."""


def write_scores(scores: pd.DataFrame, path: str | Path, metadata: dict) -> Path:
    """Write ``scores`` (the contract's columns) with ``metadata`` as JSON file metadata, atomically."""
    path = Path(path)
    missing = [c for c in COLUMNS if c not in scores.columns]
    if missing:
        raise ScoresFileError(f"{path}: scores lack columns {missing}")
    frame = scores[COLUMNS].reset_index(drop=True)
    table = pa.Table.from_pandas(frame, schema=SCHEMA, preserve_index=False)
    table = table.replace_schema_metadata({META_KEY: json.dumps(metadata, sort_keys=True).encode()})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)
    return path


def read_scores_meta(path: str | Path) -> dict:
    """The ``benchval`` metadata object of a scores file."""
    path = Path(path)
    raw = (pq.read_schema(path).metadata or {}).get(META_KEY)
    if raw is None:
        raise ScoresFileError(f"{path}: no '{META_KEY.decode()}' metadata; not written by benchval.scoring.store")
    return json.loads(raw)


def read_scores(path: str | Path) -> pd.DataFrame:
    """Read and validate a scores file (columns, types, kinds, token counts)."""
    path = Path(path)
    table = pq.read_table(path)
    missing = [c for c in COLUMNS if c not in table.column_names]
    if missing:
        raise ScoresFileError(f"{path}: missing columns {missing}")
    for name in COLUMNS:
        if not table.schema.field(name).type.equals(SCHEMA.field(name).type):
            raise ScoresFileError(
                f"{path}: column {name!r} has type {table.schema.field(name).type}, expected {SCHEMA.field(name).type}"
            )
    frame = table.select(COLUMNS).to_pandas()
    bad_kind = ~frame["kind"].isin(KINDS)
    if bad_kind.any():
        row = int(bad_kind.idxmax())
        raise ScoresFileError(f"{path}: row {row}: kind {frame['kind'][row]!r} not in {KINDS}")
    lengths = frame["token_logprobs"].map(len)
    bad_len = lengths != frame["n_tokens"]
    if bad_len.any():
        row = int(bad_len.idxmax())
        raise ScoresFileError(f"{path}: row {row}: {lengths[row]} token_logprobs but n_tokens {frame['n_tokens'][row]}")
    return frame


def requests_fingerprint(requests: pd.DataFrame) -> str:
    """sha256 over the (request_id, item_id, option_index, kind, context, continuation) rows."""
    h = hashlib.sha256()
    for row in requests[["request_id", "item_id", "option_index", "kind", "context", "continuation"]].itertuples(
        index=False
    ):
        h.update(json.dumps(list(map(str, row)), ensure_ascii=False).encode())
        h.update(b"\n")
    return h.hexdigest()


class ShardStore:
    """Shards of one (model, task) under ``shard_dir``, valid only for one cache key."""

    def __init__(self, shard_dir: str | Path, cache_key: str):
        self.dir = Path(shard_dir)
        self.cache_key = cache_key

    def path(self, index: int) -> Path:
        return self.dir / f"shard-{index:05d}.parquet"

    def load(self, index: int, fingerprint: str) -> pd.DataFrame | None:
        """The finished shard, or None when absent, unreadable or made for other requests/settings."""
        path = self.path(index)
        if not path.exists():
            return None
        try:
            meta = read_scores_meta(path)
            if meta.get("cache_key") != self.cache_key or meta.get("fingerprint") != fingerprint:
                return None
            return read_scores(path)
        except (OSError, ValueError, pa.ArrowException):
            return None

    def stats(self, index: int) -> dict:
        """The scorer statistics recorded with a shard ({} when none)."""
        return read_scores_meta(self.path(index)).get("stats", {})

    def save(self, index: int, scores: pd.DataFrame, fingerprint: str, metadata: dict) -> Path:
        meta = dict(metadata, cache_key=self.cache_key, fingerprint=fingerprint, shard=index)
        return write_scores(scores, self.path(index), meta)

    def remove_stale(self, n_shards: int) -> int:
        """Delete shard files at or above ``n_shards`` (left from a run with other settings)."""
        removed = 0
        for path in self.dir.glob("shard-*.parquet"):
            try:
                index = int(path.stem.split("-")[1])
            except (IndexError, ValueError):
                continue
            if index >= n_shards:
                path.unlink()
                removed += 1
        return removed
