"""Helpers for the downstream adapter tests (a uniquely named module, imported by the tests)."""

from __future__ import annotations

import json
from pathlib import Path

import benchval.tasks.downstream  # noqa: F401  (registers the adapters)
from benchval.plumbing.raw_files import dataset_files
from benchval.tasks.base import AdapterInput, FilterReport, get_adapter

SEED = 20261130


def run_adapter(
    catalogue: dict,
    task: str,
    raw: dict | None = None,
    mirror: Path | None = None,
    seed: int = SEED,
    **option_overrides,
):
    """Run ``task``'s adapter as configured; returns (items, report dict).

    ``raw``: {file key: path} (default: the dataset's files in ``mirror``); keyword arguments
    override the catalogue's options.
    """
    spec = catalogue["tasks"][task]
    files = raw
    if files is None:
        files = {key: mirror / f.path for key, f in dataset_files(catalogue["datasets"], spec["dataset"]).items()}
        missing = [str(path) for path in files.values() if not path.is_file()]
        assert not missing, f"{task}: the mirror {mirror} lacks declared files {missing}"
    options = {**(spec.get("options") or {}), **option_overrides}
    report = FilterReport(task)
    items = list(get_adapter(spec["adapter"])(AdapterInput(task, files, options, seed), report))
    return items, report.to_dict()


def item_by_id(items: list, item_id: str):
    """The item of ``items`` with id ``item_id`` (an assertion error naming it where there is none)."""
    found = [item for item in items if item.id == item_id]
    assert found, f"no item {item_id!r} among {len(items)} items"
    return found[0]


def steps(report: dict) -> dict:
    """{filter name: (before, after, removed)}."""
    return {step["filter"]: (step["before"], step["after"], step["removed"]) for step in report["steps"]}


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path
