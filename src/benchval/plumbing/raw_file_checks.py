"""Raw files checked where they are used, not only where they enter.

A rule that reads raw files (the mirror, or the download cache with ``mirror: null``) calls
:func:`verify_raw_files` on its inputs first (with the rule's ``raw_files`` param,
:meth:`benchval.jobs.layout.Layout.raw_file_check`): every input under the raw root is checked against its declared
sha256, and the job fails with :class:`~benchval.plumbing.raw_files.ChecksumMismatch` (file, both hashes, where the
checksum is declared) before anything is read. The declared checksum is

* the catalogue's (task folders' ``task.yaml`` and ``config/catalogue/*.yaml``,
  ``datasets.<name>.files.<key>.sha256``) when a declared file has that path, else
* the line for the file in the ``SHA256SUMS`` of its mirror folder or of a folder above it (score
  tables, leaderboards: files the catalogue does not list).

A raw file declared in neither is an :class:`UndeclaredRawFile` error: nothing is read unchecked.
Files outside the raw root (the user's own score table, config files) are not raw files and are left
alone. A folder input is checked file by file (``SHA256SUMS`` and ``SOURCE.md`` themselves excepted).

Hashing is cached: a stamp per file under ``resources/verified/`` records the file's :func:`stat_key` (size,
modification time, inode change time and inode number) and the hash found; a file whose key matches its
stamp (and whose stamp holds the declared hash) is not hashed again, so a rerun of the job stays fast.
The guarantee: every write to a file, and every ``touch``/``os.utime`` that sets its mtime back, sets its
inode change time (ctime) to now, which no user process can set back; a file replaced by another gets a new
inode. So an edited file is always hashed again, even one whose size and mtime were kept
(tests/integrity/test_raw_checked_where_used.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from benchval.plumbing.raw_files import ChecksumMismatch, dataset_files, sha256_of
from benchval.plumbing.folders import RESOURCES

log = logging.getLogger(__name__)

VERIFIED_DIR = Path(f"{RESOURCES}/verified")
SUMS_NAME = "SHA256SUMS"
NOT_DATA = {SUMS_NAME, "SOURCE.md"}


class UndeclaredRawFile(ValueError):
    """A raw file for which neither the catalogue nor a SHA256SUMS declares a checksum."""


@lru_cache(maxsize=64)
def _read_sums(sums: Path, mtime_ns: int) -> dict[str, str]:
    """{path relative to the SHA256SUMS folder: sha256} (``sha256sum`` format, ``./`` prefixes dropped)."""
    entries = {}
    for number, line in enumerate(sums.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        digest, _, name = line.strip().partition(" ")
        name = name.strip().lstrip("*").removeprefix("./")
        if len(digest) != 64 or not name:
            raise ValueError(f"{sums}:{number}: not a sha256sum line: {line!r}")
        entries[name] = digest.lower()
    return entries


def _from_sums(path: Path, raw_root: Path) -> tuple[str, str] | None:
    """(sha256, where declared) from the nearest SHA256SUMS at or above the file's folder that lists it."""
    folder = path.parent
    while True:
        sums = folder / SUMS_NAME
        if sums.is_file():
            digest = _read_sums(sums, sums.stat().st_mtime_ns).get(path.relative_to(folder).as_posix())
            if digest is not None:
                return digest, str(sums)
        if folder == raw_root or raw_root not in folder.parents:
            return None
        folder = folder.parent


def declared_sha256(path: Path, raw_root: Path, datasets: Mapping[str, Mapping]) -> tuple[str, str]:
    """(sha256, where it is declared) of the raw file ``path`` (inside ``raw_root``)."""
    relative = path.relative_to(raw_root).as_posix()
    for name in datasets:
        for key, data_file in dataset_files(datasets, name).items():
            if data_file.path == relative:
                return data_file.sha256, f"catalogue datasets.{name}.files.{key}"
    found = _from_sums(path, raw_root)
    if found is None:
        raise UndeclaredRawFile(
            f"{path}: raw file with no declared sha256 (not in the catalogue's `datasets:`, task folders and "
            f"config/catalogue/, nor in a {SUMS_NAME} of its mirror folder); declare it before a rule reads it"
        )
    return found


def stat_key(stat: os.stat_result) -> dict[str, int]:
    """What changes whenever a file's content may have: size, mtime, inode change time (ctime: set by every
    write and every mtime change, never set back by a user process) and inode (a replaced file)."""
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "ctime_ns": stat.st_ctime_ns, "inode": stat.st_ino}


def _stamp_path(path: Path, stamp_dir: Path) -> Path:
    return stamp_dir / f"{hashlib.sha256(str(path).encode()).hexdigest()[:32]}.json"


def verify_file(path: Path, expected: str, where: str, stamp_dir: Path = VERIFIED_DIR) -> bool:
    """Check ``path`` against ``expected``; True when it had to be hashed (False: its stamp matched)."""
    stat = path.stat()
    stamp = _stamp_path(path, stamp_dir)
    facts = {"path": str(path), **stat_key(stat), "sha256": expected}
    try:
        if json.loads(stamp.read_text(encoding="utf-8")) == facts:
            return False
    except (OSError, ValueError):
        pass  # no stamp yet, or a broken one: hash the file
    actual = sha256_of(path)
    if actual != expected:
        raise ChecksumMismatch(f"{path} (declared in {where})", expected, actual)
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        tmp = stamp.with_name(f".{stamp.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(facts), encoding="utf-8")
        os.replace(tmp, stamp)
    except OSError as error:  # the check passed; only the speed-up is lost
        log.warning("cannot write the verification stamp %s: %s", stamp, error)
    return True


def _files_under(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and p.name not in NOT_DATA)
    return [path]


def verify_raw_files(
    paths: Iterable[str | Path],
    raw_root: Path | str,
    datasets: Mapping[str, Mapping],
    stamp_dir: Path | str = VERIFIED_DIR,
) -> dict[str, int]:
    """Verify every raw file among ``paths`` (files or folders, or lists of them: a job's inputs; others are
    skipped); counts returned, and logged."""
    raw_root = Path(raw_root).resolve()
    counts = {"hashed": 0, "stamp_matched": 0, "not_raw": 0}
    for given in (Path(p).resolve() for p in _flat(paths)):
        if raw_root not in given.parents:  # not a raw file (a folder outside too: not walked)
            counts["not_raw"] += 1
            continue
        for path in _files_under(given):
            expected, where = declared_sha256(path, raw_root, datasets)
            counts["hashed" if verify_file(path, expected, where, Path(stamp_dir)) else "stamp_matched"] += 1
    log.info("raw inputs checked against their declared sha256 (%s): %s", raw_root, counts)
    return counts


def _flat(paths: Iterable) -> list[str]:
    flat = []
    for item in paths:
        flat.extend([item] if isinstance(item, (str, Path)) else list(item))
    return [str(p) for p in flat]
