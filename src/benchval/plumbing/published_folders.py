"""The published folders results/figures/ and results/tables/, checked against a manifest.

They are directory outputs of rule ``publish`` (the README's target is ``results/figures``), so
Snakemake sees a folder, not its files: a file deleted inside it would never be rebuilt. ``publish``
therefore writes :data:`PUBLISHED_MANIFEST`, the list of every file it put there (a declared output),
and has :data:`PUBLISHED_CHECK` as an input. The rule file calls :func:`mark_if_incomplete` when it is
read: if a listed file is gone, the check file is rewritten (the missing files and the time: new
content, as Snakemake compares a small input's checksum too) and so newer than the published folders,
so that Snakemake reruns ``publish`` (only it: its other inputs are unchanged) and the file comes
back, with the README's command unchanged. The check file is created empty with mtime 0 (the epoch),
so creating it reruns nothing. (Removing the manifest would not do: Snakemake reruns a target's job
for a missing output only when that output is requested, and the README requests ``results/figures``.)
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

from benchval.plumbing.folders import RESULTS

log = logging.getLogger(__name__)

PUBLISHED_MANIFEST = f"{RESULTS}/summary/published_files.json"
PUBLISHED_CHECK = f"{RESULTS}/summary/published_check.stamp"


def published_path(source: str | Path, destination_root: str | Path) -> Path:
    """``results/studies/{study}/{figures|tables}/<file>`` -> ``<destination_root>/{study}/<file>``."""
    source = Path(source)
    study = source.parts[source.parts.index("studies") + 1]
    return Path(destination_root, study, source.name)


def copy_published(sources: Iterable[str | Path], destination_root: str | Path) -> list[Path]:
    """Copy each study file into its published place; the places written."""
    written = []
    for source in map(Path, sources):
        target = published_path(source, destination_root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        log.info("%s -> %s", source, target)
        written.append(target)
    return written


def write_published_manifest(paths: Iterable[str | Path], manifest: str | Path = PUBLISHED_MANIFEST) -> Path:
    manifest = Path(manifest)
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps(sorted(str(p) for p in paths), indent=1) + "\n", encoding="utf-8")
    return manifest


def missing_published(manifest: str | Path = PUBLISHED_MANIFEST) -> list[str]:
    """The files the manifest lists that are not there ([] without a manifest: publish has not run)."""
    try:
        listed = json.loads(Path(manifest).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [path for path in listed if not Path(path).is_file()]


def check_input(
    manifest: str | Path = PUBLISHED_MANIFEST, check: str | Path = PUBLISHED_CHECK, dry_run: bool = False
) -> str | list:
    """The check file as publish's input, after :func:`mark_if_incomplete`. A dry run writes nothing:
    where the real run would write the check file (missing, or a published file gone) it is left out,
    so that the input set differs from the one publish recorded and Snakemake plans publish, as the
    real run would."""
    if not dry_run:
        mark_if_incomplete(manifest, check)
        return str(check)
    if Path(check).exists() and not missing_published(manifest):
        return str(check)
    return []


def mark_if_incomplete(manifest: str | Path = PUBLISHED_MANIFEST, check: str | Path = PUBLISHED_CHECK) -> list[str]:
    """Make ``check`` newer than the published folders when a published file is gone (so that
    publish reruns); create it, dated the epoch, when it does not exist. Returns the missing files."""
    check = Path(check)
    if not check.exists():
        check.parent.mkdir(parents=True, exist_ok=True)
        check.touch()
        os.utime(check, (0, 0))
    missing = missing_published(manifest)
    if missing:
        log.warning("published files missing, rule publish will rebuild them: %s", ", ".join(missing))
        stamp = {"missing": missing, "noticed_at": time.time()}
        check.write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
    return missing


def publish(
    figures: Iterable[str | Path],
    tables: Iterable[str | Path],
    task_sizes: str | Path,
    figures_dir: str | Path,
    tables_dir: str | Path,
    manifest: str | Path,
) -> list[Path]:
    """Rule ``publish``: each study's figures and tables into ``figures_dir|tables_dir/{study}/``, the task
    sizes into ``tables_dir``, and the manifest of every file written; the files written."""
    written = copy_published(figures, figures_dir) + copy_published(tables, tables_dir)
    Path(tables_dir).mkdir(parents=True, exist_ok=True)
    written.append(Path(shutil.copy2(task_sizes, Path(tables_dir, "task_sizes.csv"))))
    write_published_manifest(written, manifest)
    return written
