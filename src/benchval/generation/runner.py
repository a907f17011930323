"""Resumable batched generation over a table of conversations.

Finished batches are appended (and flushed) to a JSON-lines checkpoint whose first line records
the settings. A re-run with the same settings skips the ids already there; with other settings
it starts over (and says so). The caller writes the final table once every id is done.

The settings include the generator's ``identity`` when it has one (an endpoint's URL, model and seed), so
that a changed model never returns the previous model's answers. An endpoint also caches every answer as
it arrives (benchval.generation.answer_cache): a run stopped inside a batch loses no paid call. Before the
first batch, a generator with ``announce`` is told what is left to do (an endpoint logs the calls and their
estimated cost, and in a dry run stops there).
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from benchval.generation.prompts import Messages

log = logging.getLogger(__name__)


def _read_checkpoint(path: Path, settings: dict) -> dict[str, dict]:
    """Finished records by id, or {} when there is no checkpoint or it has other settings."""
    if not path.is_file():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or json.loads(lines[0]).get("settings") != settings:
        log.warning("checkpoint %s was made with other settings; starting over", path)
        return {}
    done = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            log.warning("%s:%d: unreadable (interrupted write?); ignoring it and what follows", path, number)
            break
        done[record["id"]] = record
    return done


def _append(path: Path, records: list[dict]) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def generate_resumable(
    generator,
    ids: Sequence[str],
    prompts: Sequence[Messages],
    checkpoint: str | Path,
    max_new_tokens: int,
    batch_size: int = 8,
    settings: dict | None = None,
    desc: str = "generate",
) -> pd.DataFrame:
    """Generate for every (id, prompt) not yet in `checkpoint`; return id, answer, seconds for all ids.

    `seconds` is the wall time of the item's batch divided by the batch size.
    """
    if len(ids) != len(prompts):
        raise ValueError(f"{len(ids)} ids but {len(prompts)} prompts")
    if len(set(ids)) != len(ids):
        raise ValueError("ids are not unique")
    checkpoint = Path(checkpoint)
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    identity = getattr(generator, "identity", None)
    settings = {
        "generator": generator.name,
        **({"identity": identity} if identity is not None else {}),
        "max_new_tokens": int(max_new_tokens),
        **(settings or {}),
    }
    done = _read_checkpoint(checkpoint, settings)
    if not done:
        checkpoint.write_text(json.dumps({"settings": settings}) + "\n", encoding="utf-8")
    todo = [i for i, item_id in enumerate(ids) if item_id not in done]
    log.info(
        "%s: %d items, %d already in %s, %d to generate", desc, len(ids), len(ids) - len(todo), checkpoint, len(todo)
    )
    if todo and hasattr(generator, "announce"):
        generator.announce([prompts[i] for i in todo], max_new_tokens)
    with tqdm(total=len(todo), desc=desc, unit="q", mininterval=2) as progress:
        for start in range(0, len(todo), batch_size):
            chunk = todo[start : start + batch_size]
            started = time.perf_counter()
            answers = generator.generate([prompts[i] for i in chunk], max_new_tokens)
            per_item = (time.perf_counter() - started) / len(chunk)
            records = [{"id": ids[i], "answer": a, "seconds": per_item} for i, a in zip(chunk, answers)]
            _append(checkpoint, records)
            done.update({r["id"]: r for r in records})
            progress.update(len(chunk))
    return pd.DataFrame([done[item_id] for item_id in ids], columns=["id", "answer", "seconds"])
