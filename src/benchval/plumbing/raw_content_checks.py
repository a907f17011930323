"""A job's raw files checked against the sha256 its rule planned them with (the ``raw_content`` param).

A rule that reads raw files takes them as ``ancient()`` inputs and their declared sha256 as the param
``raw_content`` (benchval.jobs.rule_files.raw_content: the catalogue's, else the mirror folder's SHA256SUMS,
else the digest of a user's own file), so that new modification times rerun nothing and new declarations
rerun it. :func:`verify_raw_content`, first in its job, makes sure the bytes it reads are those: a file whose
bytes differ stops the job with :class:`~benchval.plumbing.raw_files.ChecksumMismatch`, naming the file,
before anything is read (hashing cached as benchval.plumbing.raw_file_checks caches it).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from benchval.plumbing.raw_file_checks import VERIFIED_DIR, verify_file

WHERE = "the catalogue, its mirror folder's SHA256SUMS, or its digest when the run was planned"


def verify_raw_content(raw_content: Mapping[str, str] | None, stamp_dir: Path | str = VERIFIED_DIR) -> dict[str, int]:
    """Check every file of a job's ``raw_content`` param (None: a job of the rule that reads none) against its
    sha256; the counts of files hashed and of files whose stamp matched."""
    counts = {"hashed": 0, "stamp_matched": 0}
    for path, sha256 in (raw_content or {}).items():
        if sha256 == "missing":
            raise FileNotFoundError(f"{path}: a raw file the rule was planned with is not there")
        counts["hashed" if verify_file(Path(path), sha256, WHERE, Path(stamp_dir)) else "stamp_matched"] += 1
    return counts
