"""prepare_task: raw files -> adapter -> hand exclusions -> seeded subsample -> items files.

Called by the ``prepare_task`` rule (workflow/rules/tasks.smk). Every step is recorded in the
filter report. A task whose adapter raises :class:`~benchval.tasks.base.TaskUnavailable` gets an
empty items file with ``meta["unavailable"]`` set and a filter report that says it was skipped.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Mapping

from benchval.plumbing.raw_files import ChecksumMismatch, sha256_of
from benchval.tasks.base import (
    AdapterInput,
    FilterReport,
    Item,
    TaskDataError,
    TaskUnavailable,
    default_source,
    get_adapter,
)
from benchval.tasks.items import check_items, write_items
from benchval.tasks.seeding import task_rng

log = logging.getLogger(__name__)


def read_exclusion_list(path: Path | str) -> set[str]:
    """Item ids from a text file, one per line; blank lines and ``#`` comments are ignored."""
    ids = set()
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            ids.add(text)
    return ids


def exclusion_param(configured: str, path: Path | str) -> dict:
    """A task's exclusion list as a rule param: the configured name and the ids, read at parse time.

    The ids, not the path, reach the rule, so that editing the list reruns the task and moving the
    checkout (which changes the absolute path) does not.
    """
    return {"file": str(configured), "ids": sorted(read_exclusion_list(path))}


def exclude_by_hand(items: list[Item], excluded: set[str], report: FilterReport, source: str) -> list[Item]:
    """Drop the listed ids (filter step ``excluded_by_hand``); listed ids that match no item are an
    error, since they usually mean the list was written for another version of the data."""
    unknown = sorted(excluded - {item.id for item in items})
    if unknown:
        raise KeyError(
            f"{source}: ids not in task {report.task!r}: {unknown[:10]}{' ...' if len(unknown) > 10 else ''}"
        )
    reason = f"listed in {Path(source).name}"
    return report.apply("excluded_by_hand", items, lambda item: reason if item.id in excluded else None)


def subsample(items: list[Item], n_items: int | None, seed: int, report: FilterReport) -> list[Item]:
    """Keep ``n_items`` items chosen uniformly at random (seeded per task), in their original order.

    Always records a ``subsample`` step; with ``n_items`` None or >= the number of items nothing is removed.
    """
    total = len(items)
    if n_items is None or n_items >= total:
        report.record("subsample", total, total, {})
        return items
    chosen = set(task_rng(seed, report.task).choice(total, size=n_items, replace=False).tolist())
    kept = [item for index, item in enumerate(items) if index in chosen]
    reason = f"sampled {n_items} of {total} (seed {seed})"
    left_out = [(default_source(item), reason) for index, item in enumerate(items) if index not in chosen]
    report.record("subsample", total, len(kept), {reason: total - n_items}, removed_at=left_out)
    return kept


def sample_size(sample_config: Mapping[str, object] | None, task: str) -> int | None:
    """The task's n from the ``sample`` config section: ``per_task[task]`` else ``n_items``."""
    sample_config = sample_config or {}
    per_task = sample_config.get("per_task") or {}
    return per_task[task] if task in per_task else sample_config.get("n_items")


def source_files(files: Mapping[str, Path], checksums: Mapping[str, str] | None) -> dict:
    """Path and sha256 of every raw file read; a file whose hash differs from ``checksums[key]``
    (the declared sha256) raises :class:`~benchval.plumbing.raw_files.ChecksumMismatch`, and an empty file raises
    :class:`~benchval.tasks.base.TaskDataError` (even when its declared checksum is that of an empty
    file: a task built from it would have no items and NaN metrics)."""
    recorded = {}
    for key, path in files.items():
        actual = sha256_of(path)
        expected = (checksums or {}).get(key)
        if expected is not None and actual != expected.lower():
            raise ChecksumMismatch(path, expected.lower(), actual)
        if Path(path).stat().st_size == 0:
            declared = " (its declared sha256 is that of an empty file)" if expected is not None else ""
            raise TaskDataError(path, 1, f"raw file {key!r} is empty, 0 bytes{declared}; re-stage the data")
        recorded[key] = {"path": str(path), "sha256": actual}
    return recorded


def task_meta(
    task: str,
    task_config: Mapping[str, object],
    files: Mapping[str, Path],
    seed: int,
    n_items: int | None,
    checksums: Mapping[str, str] | None = None,
) -> dict:
    return {
        "task": task,
        "role": task_config["role"],
        "pairs_with": task_config.get("pairs_with"),
        "axes": list(task_config.get("axes") or []),
        "scoring_mode": task_config["scoring_mode"],
        "metrics": list(task_config.get("metrics") or ["accuracy"]),
        "adapter": task_config["adapter"],
        "dataset": task_config.get("dataset"),
        "options": dict(task_config.get("options") or {}),
        "paper_n": task_config.get("paper_n"),
        "sample_n_items": n_items,
        "seed": int(seed),
        "source_files": source_files(files, checksums),
        "unavailable": None,
    }


def build_items(
    task: str, task_config: Mapping[str, object], files: Mapping[str, Path], seed: int, report: FilterReport
) -> list[Item]:
    """Run the task's adapter and check its items against the contract."""
    adapter = get_adapter(str(task_config["adapter"]))
    adapter_input = AdapterInput(
        task=task,
        files={k: Path(v) for k, v in files.items()},
        options=dict(task_config.get("options") or {}),
        seed=int(seed),
        scoring_mode=str(task_config["scoring_mode"]),
    )
    return check_items(adapter(adapter_input, report), task, str(task_config["scoring_mode"]))


def prepare_task(
    task_name: str,
    task_config: Mapping[str, object],
    files: Mapping[str, Path | str],
    sample_config: Mapping[str, object] | None,
    seed: int,
    exclude_ids_file: Path | str | None = None,
    output: Path | str | None = None,
    checksums: Mapping[str, str] | None = None,
    exclusion: Mapping[str, object] | None = None,
) -> dict:
    """Build ``results/tasks/{task}.parquet`` (+ ``.meta.json``, ``.filters.json``); returns the meta.

    Hand exclusions: ``exclude_ids_file`` (a list file) or ``exclusion`` = ``{"file": name, "ids": [...]}``
    (the list already read, as rule prepare_task passes it: see :func:`exclusion_param`).

    ``output`` defaults to ``results/tasks/{task_name}.parquet`` relative to the working directory;
    ``checksums`` ({file key: declared sha256}) makes every raw file's hash checked before use.
    """
    output = Path(output) if output is not None else Path("results") / "tasks" / f"{task_name}.parquet"
    files = {key: Path(path) for key, path in files.items()}
    n_items = sample_size(sample_config, task_name)
    meta = task_meta(task_name, task_config, files, seed, n_items, checksums)
    report = FilterReport(task_name)
    try:
        items = build_items(task_name, task_config, files, seed, report)
    except TaskUnavailable as unavailable:
        log.warning("SKIP task %s: %s", task_name, unavailable.reason)
        report.note(f"skipped: {unavailable.reason}")
        meta.update(unavailable=unavailable.reason, n_raw=0, n_final=0)
        write_items([], meta, report, output)
        return meta
    n_raw = report.steps[0].before if report.steps else len(items)
    if not items:
        read = ", ".join(str(path) for path in files.values()) or "no raw files"
        raise TaskDataError(
            read,
            None,
            f"task {task_name!r}: no items ({n_raw} rows read, all removed by the "
            f"filters {[step.name for step in report.steps]}); an empty task would "
            "give NaN metrics",
        )
    if exclude_ids_file is not None:
        items = exclude_by_hand(items, read_exclusion_list(exclude_ids_file), report, str(exclude_ids_file))
    if exclusion is not None:
        items = exclude_by_hand(items, set(exclusion["ids"]), report, str(exclusion["file"]))
    items = subsample(items, n_items, seed, report)
    meta.update(n_raw=n_raw, n_final=len(items))
    write_items(items, meta, report, output)
    log.info("task %s: %d raw items -> %d after filters and sampling", task_name, n_raw, len(items))
    return meta
