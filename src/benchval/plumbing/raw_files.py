"""Raw-data access: declared files, the local mirror, downloads and checksums.

Every raw file a task reads is declared once in the catalogue (a task folder's ``task.yaml``,
``config/catalogue/*.yaml``) under
``datasets.<name>.files.<key>`` with

* ``path``: where it lives relative to the mirror (and to ``resources/data/``),
* ``url``: its upstream location. Only ``http(s)://`` URLs are downloaded; anything else is a
  human-readable origin (e.g. a file converted from a wheel member) that cannot be fetched,
* ``sha256``: the expected checksum,
* ``member`` (optional): the file is this member of the zip archive at ``url``.

Resolution order (:func:`locate`): the mirror (config key ``mirror``), then the download cache
``resources/data/<path>``. :func:`fetch` downloads into that cache and checks the hash.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import tempfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from benchval.plumbing.folders import DOWNLOAD_DIR


class DataFileNotFound(FileNotFoundError):
    """A declared raw file is in none of the places it was looked for."""


class ChecksumMismatch(ValueError):
    """A raw file's sha256 differs from the declared one."""

    def __init__(self, path: Path | str, expected: str, actual: str):
        super().__init__(f"{path}: sha256 mismatch: expected {expected}, got {actual}")
        self.path, self.expected, self.actual = str(path), expected, actual


@dataclass(frozen=True)
class DataFile:
    """One declared raw file (see the module docstring)."""

    path: str
    url: str
    sha256: str
    member: str | None = None

    @classmethod
    def from_config(cls, entry: Mapping[str, object], where: str = "") -> "DataFile":
        missing = [key for key in ("path", "url", "sha256") if not entry.get(key)]
        if missing:
            raise KeyError(f"data file {where or entry}: missing {missing}")
        return cls(str(entry["path"]), str(entry["url"]), str(entry["sha256"]).lower(), entry.get("member"))

    @property
    def downloadable(self) -> bool:
        return self.url.startswith(("http://", "https://"))


def dataset_files(datasets: Mapping[str, Mapping], dataset: str) -> dict[str, DataFile]:
    """The declared files of ``dataset`` (config ``datasets`` section) by logical key."""
    try:
        entry = datasets[dataset]
    except KeyError:
        raise KeyError(f"dataset {dataset!r} is not declared under datasets: (have {sorted(datasets)})") from None
    return {key: DataFile.from_config(spec, f"datasets.{dataset}.files.{key}") for key, spec in entry["files"].items()}


def find_declared(datasets: Mapping[str, Mapping], path: str) -> DataFile:
    """The declared file whose ``path`` is ``path`` (used by the fetch rule)."""
    for name in datasets:
        for data_file in dataset_files(datasets, name).values():
            if data_file.path == path:
                return data_file
    raise KeyError(f"no dataset declares a file with path {path!r}")


def candidates(path: str, mirror: Path | None, download_dir: Path) -> list[Path]:
    """Every place a file is looked for, in order."""
    places = [mirror / path] if mirror is not None else []
    return places + [download_dir / path]


def resolve(path: str, mirror: Path | None, download_dir: Path | str = DOWNLOAD_DIR) -> Path:
    """Where the workflow should read ``path`` from: the mirror copy when present, else the
    download location (which may not exist yet; the fetch rule creates it)."""
    if mirror is not None and (mirror / path).is_file():
        return mirror / path
    return Path(download_dir) / path


def locate(
    data_file: DataFile, mirror: Path | None, download_dir: Path | str = DOWNLOAD_DIR, verify: bool = True
) -> Path:
    """The existing local copy of ``data_file`` (checksum-verified), or :class:`DataFileNotFound`."""
    places = candidates(data_file.path, mirror, Path(download_dir))
    for place in places:
        if place.is_file():
            if verify:
                verify_sha256(place, data_file.sha256)
            return place
    looked = ", ".join(str(place) for place in places)
    hint = "" if data_file.downloadable else f"; it cannot be downloaded (origin: {data_file.url})"
    if mirror is None:
        hint += "; no mirror is configured (config key 'mirror')"
    raise DataFileNotFound(f"raw file {data_file.path!r} not found; looked in: {looked}{hint}")


def fetch(data_file: DataFile, mirror: Path | None, download_dir: Path | str = DOWNLOAD_DIR) -> Path:
    """The local copy of ``data_file``, downloading it into ``download_dir`` when absent."""
    try:
        return locate(data_file, mirror, download_dir)
    except DataFileNotFound as not_found:
        if not data_file.downloadable:
            raise
        destination = Path(download_dir) / data_file.path
        try:
            download(data_file, destination)
        except OSError as error:
            raise DataFileNotFound(f"{not_found}; download from {data_file.url} failed: {error}") from error
        return destination


def fetch_to(data_file: DataFile, destination: Path | str, mirror: Path | None = None) -> Path:
    """Download ``data_file`` to exactly ``destination`` (the fetch rule's output).

    A file that has no download URL raises :class:`DataFileNotFound` naming every place looked in.
    """
    destination = Path(destination)
    if not data_file.downloadable:
        places = [str(mirror / data_file.path)] if mirror is not None else ["(no mirror configured)"]
        raise DataFileNotFound(
            f"raw file {data_file.path!r} is not in the mirror ({', '.join(places)}) nor at {destination}, "
            f"and it cannot be downloaded (origin: {data_file.url})"
        )
    try:
        return download(data_file, destination)
    except ChecksumMismatch:
        raise
    except OSError as error:
        raise DataFileNotFound(f"raw file {data_file.path!r}: download from {data_file.url} failed: {error}") from error


def download(data_file: DataFile, destination: Path, timeout_s: float = 60.0) -> Path:
    """Download ``data_file`` (or its zip member) to ``destination`` after checking its sha256.

    Nothing is left at ``destination`` when the checksum does not match.
    """
    with urllib.request.urlopen(data_file.url, timeout=timeout_s) as response:
        payload = response.read()
    if data_file.member is not None:
        try:
            with zipfile.ZipFile(io.BytesIO(payload)) as archive:
                payload = archive.read(data_file.member)
        except (KeyError, zipfile.BadZipFile) as error:
            raise DataFileNotFound(f"{data_file.url}: cannot read zip member {data_file.member!r}: {error}") from error
    actual = hashlib.sha256(payload).hexdigest()
    if actual != data_file.sha256:
        raise ChecksumMismatch(f"{data_file.path} (downloaded from {data_file.url})", data_file.sha256, actual)
    destination.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=destination.parent, delete=False) as handle:
        handle.write(payload)
    shutil.move(handle.name, destination)
    return destination


def sha256_of(path: Path | str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_sha256(path: Path | str, expected: str) -> None:
    """Raise :class:`ChecksumMismatch` naming the file and both hashes when they differ."""
    actual = sha256_of(path)
    if actual != expected.lower():
        raise ChecksumMismatch(path, expected.lower(), actual)
