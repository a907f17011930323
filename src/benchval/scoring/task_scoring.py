"""Score one task with one model: items parquet + prepared model -> scores parquet (resumable).

:func:`score_tasks` is what the scoring rules (``score``, ``score_model_<model>``) call; it scores each
task with :func:`score_task`. Items are split into shards of
``scoring.shard_items`` items (prior requests of calibrated tasks form their own shards); each shard
is written under ``shard_dir`` as soon as it is done, and a rerun reuses every shard whose cache key
(weights sha256, tokenizer, prompt template, engine + version, dtype) and requests are unchanged.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from benchval.models.loader import load_model
from benchval.models.manifest import folder_weights_sha256
from benchval.models.placement import Placement
from benchval.plumbing.job_threads import limit_torch_threads

from benchval.plumbing.config import section_defaults
from benchval.scoring.scorer_factory import make_scorer
from benchval.scoring.requests import build_requests
from benchval.scoring.store import COLUMNS as STORE_COLUMNS
from benchval.scoring.store import ShardStore, requests_fingerprint, write_scores

log = logging.getLogger(__name__)

ITEM_COLUMNS = ("id", "context", "options", "label", "target", "task", "source_row")


def tokenizer_sha256(tokenizer) -> str:
    """Hash of the loaded tokenizer: its full serialised spec (fast tokenizers) or vocabulary, plus
    class, special tokens and whether it adds BOS."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    spec = backend.to_str() if backend is not None else json.dumps(sorted(tokenizer.get_vocab().items()))
    extra = {
        "class": type(tokenizer).__name__,
        "special": {k: str(v) for k, v in tokenizer.special_tokens_map.items()},
        "bos_prefix": tokenizer.encode("a"),
    }
    return hashlib.sha256((spec + json.dumps(extra, sort_keys=True)).encode()).hexdigest()


def read_items(items_parquet: str | Path) -> pd.DataFrame:
    """The items table, checked for the columns scoring needs."""
    items = pd.read_parquet(items_parquet)
    missing = [c for c in ("id", "context", "options", "label") if c not in items.columns]
    if missing:
        raise ValueError(f"{items_parquet}: items table lacks columns {missing}")
    return items


def task_scoring_mode(items_parquet: str | Path) -> str:
    """``scoring_mode`` of the task: from ``{task}.meta.json`` beside the items, else the file metadata."""
    items_parquet = Path(items_parquet)
    meta_json = items_parquet.with_name(items_parquet.stem + ".meta.json")
    if meta_json.exists():
        meta = json.loads(meta_json.read_text())
    else:
        try:
            from benchval.tasks.items import read_task_meta
        except ImportError as exc:
            raise FileNotFoundError(f"{meta_json} missing and benchval.tasks.items unavailable") from exc
        meta = read_task_meta(items_parquet)
    if "scoring_mode" not in meta:
        raise KeyError(f"{meta_json}: no 'scoring_mode' in task metadata")
    return meta["scoring_mode"]


def cache_key(
    *, weights: str, tokenizer: str, scoring_mode: str, prior_context: str, engine: str, engine_version: str, dtype: str
) -> str:
    """sha256 of everything a score depends on besides the request text."""
    parts = {
        "weights_sha256": weights,
        "tokenizer_sha256": tokenizer,
        "template": {"scoring_mode": scoring_mode, "prior_context": prior_context},
        "engine": engine,
        "engine_version": engine_version,
        "dtype": dtype,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def shard_requests(requests: pd.DataFrame, shard_items: int) -> list[pd.DataFrame]:
    """Option requests grouped by item, ``shard_items`` items a shard; then priors, ``shard_items`` a shard."""
    options = requests[requests["kind"] == "option"]
    priors = requests[requests["kind"] == "prior"]
    item_ids = list(dict.fromkeys(options["item_id"]))
    shards = []
    for start in range(0, len(item_ids), shard_items):
        keep = set(item_ids[start : start + shard_items])
        shards.append(options[options["item_id"].isin(keep)])
    for start in range(0, len(priors), shard_items):
        shards.append(priors.iloc[start : start + shard_items])
    return [s.reset_index(drop=True) for s in shards]


def load_scorer(model_dir, scoring_config: dict, model_config: dict):
    """The configured engine's scorer over the model in ``model_dir``, placed as ``model_config`` (the
    model's config entry: device, dtype, GPU memory) says (:mod:`benchval.models.placement`)."""
    cfg = section_defaults("scoring", scoring_config)  # defaults: workflow/schemas/scoring.schema.yaml
    placement = Placement.from_model_entry(model_config, batch_tokens=cfg["batch_tokens"])
    model, tokenizer = load_model(model_dir, placement)
    return make_scorer(
        cfg["engine"],
        model,
        tokenizer,
        batch_tokens=cfg["batch_tokens"],
        device=placement.device,
        dtype=placement.dtype,
        progress=cfg["progress"],
    )


def _scorer_tokenizer_sha256(scorer) -> str:
    """tokenizer_sha256 of the scorer's tokenizer, computed once per scorer (a large vocabulary takes ~0.4 s)."""
    cached = getattr(scorer, "_benchval_tokenizer_sha256", None)
    if cached is None:
        cached = tokenizer_sha256(scorer.tokenizer)
        scorer._benchval_tokenizer_sha256 = cached
    return cached


def score_task(
    items_parquet,
    model_dir,
    out_parquet,
    scoring_config: dict,
    model_config: dict,
    shard_dir,
    *,
    model_name: str | None = None,
    threads: int | None = None,
    scorer=None,
) -> dict:
    """Score every request of a task; write ``out_parquet``; return a summary (also logged).

    ``scorer`` (optional) is a ready :class:`~benchval.scoring.base.Scorer` (tests, benchmarks) or a
    function returning one, called only if there is something to score; by default the model is
    loaded from ``model_dir`` with the config's device and dtype.
    """
    cfg = section_defaults("scoring", scoring_config)  # defaults: workflow/schemas/scoring.schema.yaml
    model_name = model_name or Path(model_dir).name
    if threads:
        limit_torch_threads(threads)
    items = read_items(items_parquet)
    mode = task_scoring_mode(items_parquet)
    requests = build_requests(items, mode, cfg["prior_context"])
    if requests.empty:  # e.g. a task unavailable here: an empty scores file, and no model loaded
        return _write_no_scores(len(items), out_parquet, model_name)
    if scorer is None:
        scorer = load_scorer(model_dir, cfg, model_config)
    elif callable(scorer):
        scorer = scorer()
    metadata = scores_metadata(scorer, model_dir, model_name, mode, cfg["prior_context"], model_config)
    shards = shard_requests(requests, int(cfg["shard_items"]))
    summary = {"n_shards": len(shards), "reused_shards": 0, "scored_shards": 0, "boundary_fallbacks": 0}
    summary.update({"n_requests": len(requests), "n_items": len(items), "seconds": 0.0})
    parts = score_shards(scorer, shards, ShardStore(shard_dir, metadata["cache_key"]), metadata, summary)
    scores = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=requests.columns)
    order = {rid: i for i, rid in enumerate(requests["request_id"])}
    scores = scores.sort_values("request_id", key=lambda s: s.map(order)).reset_index(drop=True)
    write_scores(scores, out_parquet, dict(metadata, summary=summary))
    log.info("wrote %s: %s", out_parquet, summary)
    return summary


def _write_no_scores(n_items: int, out_parquet, model_name: str) -> dict:
    """An empty scores file for a task with no request; its summary."""
    summary = {"n_requests": 0, "n_items": n_items, "note": "no items to score"}
    write_scores(pd.DataFrame(columns=STORE_COLUMNS), out_parquet, {"model": model_name, "summary": summary})
    log.info("wrote %s: %s", out_parquet, summary)
    return summary


def scores_metadata(scorer, model_dir, model_name: str, mode: str, prior_context: str, model_config: dict) -> dict:
    """What a scores file and its shards record about how they were scored, with the shards' ``cache_key``."""
    device = model_config.get("device", "cpu")
    dtype = model_config.get("dtype", "float32")
    tok_hash, weights = _scorer_tokenizer_sha256(scorer), folder_weights_sha256(model_dir)
    key = cache_key(
        weights=weights,
        tokenizer=tok_hash,
        scoring_mode=mode,
        prior_context=prior_context,
        engine=scorer.engine_name,
        engine_version=scorer.engine_version,
        dtype=dtype,
    )
    return {
        "model": model_name,
        "weights_sha256": weights,
        "tokenizer": type(scorer.tokenizer).__name__,
        "tokenizer_sha256": tok_hash,
        "tokenizer_name": getattr(scorer.tokenizer, "name_or_path", ""),
        "engine": scorer.engine_name,
        "engine_version": scorer.engine_version,
        "dtype": dtype,
        "device": device,
        "scoring_mode": mode,
        "prior_context": prior_context,
        "cache_key": key,
    }


def score_shards(scorer, shards: list[pd.DataFrame], store: ShardStore, metadata: dict, summary: dict) -> list:
    """The scores of every shard: reused from ``store`` where its requests are unchanged, else scored and
    saved there; ``summary``'s counts are updated in place."""
    store.remove_stale(len(shards))
    parts = []
    for index, shard in enumerate(shards):
        fingerprint = requests_fingerprint(shard)
        done = store.load(index, fingerprint)
        if done is None:
            start = time.perf_counter()
            done = scorer.score(shard)
            store.save(index, done, fingerprint, dict(metadata, stats=scorer.stats.as_dict()))
            summary["scored_shards"] += 1
            summary["boundary_fallbacks"] += scorer.stats.boundary_fallbacks
            summary["seconds"] += time.perf_counter() - start
            log.info(
                "shard %d/%d: %d requests scored in %.1fs (%s)",
                index + 1,
                len(shards),
                len(shard),
                time.perf_counter() - start,
                scorer.stats.as_dict(),
            )
        else:
            summary["reused_shards"] += 1
            summary["boundary_fallbacks"] += store.stats(index).get("boundary_fallbacks", 0)
            log.info("shard %d/%d: reused %s", index + 1, len(shards), store.path(index))
        parts.append(done)
    return parts


@dataclass(frozen=True)
class TaskFiles:
    """Where one task's items are read and its scores and shards are written."""

    items_parquet: str
    out_parquet: str
    shard_dir: str


def score_tasks(
    tasks: Sequence[TaskFiles],
    model_dir,
    scoring_config: dict,
    model_config: dict,
    *,
    model_name: str | None = None,
    threads: int | None = None,
) -> dict[str, dict]:
    """Score several tasks with one model, loaded once (rules score, score_model_<model>); {out_parquet: summary}.

    Each task goes through :func:`score_task`, so its output, shards and resume are exactly those of
    a per-task job. The model is loaded only when some task has requests to score.
    """
    if threads:
        limit_torch_threads(threads)

    @functools.cache
    def shared_scorer():
        start = time.perf_counter()
        scorer = load_scorer(model_dir, scoring_config, model_config)
        log.info("loaded %s in %.1fs", model_dir, time.perf_counter() - start)
        return scorer

    return {
        task.out_parquet: score_task(
            task.items_parquet,
            model_dir,
            task.out_parquet,
            scoring_config,
            model_config,
            task.shard_dir,
            model_name=model_name,
            scorer=shared_scorer,
        )
        for task in tasks
    }
