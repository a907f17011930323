"""benchval-model.json: what a prepared model folder holds and how it was made.

Written last into a prepared folder (its presence means the folder is complete) and read by
everyone who needs the model: `weights_sha256` is the scorer's cache key. The weights are verified
against it before they are used (:func:`verified_weights_sha256`): cheaply, from the stamp
`.weights-stamp.json` beside the manifest (each weights file's size, mtime, inode change time and inode when
last hashed: benchval.plumbing.raw_file_checks.stat_key), and with a full hash when one of them differs
from its stamp (an edit that keeps size and mtime still changes the ctime). Weights that changed after the
preparation are a :class:`PreparedWeightsChanged` error, so no score of other weights is cached under
the old key.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from benchval.plumbing.raw_file_checks import stat_key

MANIFEST_NAME = "benchval-model.json"
MANIFEST_VERSION = 1
REQUIRED_KEYS = {
    "manifest_version": int,
    "name": str,
    "family": str,
    "size_b": (int, float),
    "dtype": str,
    "device": str,
    "source": dict,
    "gguf_sha256": (str, type(None)),
    "weights_sha256": str,
    "weights_files": list,
    "load_from": dict,
    "tokenizer_class": str,
    "adds_bos": bool,
    "transformers_version": str,
    "torch_version": str,
    "preparation_seconds": (int, float),
}


class ManifestError(ValueError):
    """A benchval-model.json is missing or malformed."""


class PreparedWeightsChanged(ManifestError):
    """The weights files of a prepared model no longer hash to its manifest's `weights_sha256`."""


WEIGHTS_STAMP_NAME = ".weights-stamp.json"


def manifest_path(model_dir: str | Path) -> Path:
    """The manifest inside `model_dir` (or `model_dir` itself if it is the manifest file)."""
    path = Path(model_dir)
    return path if path.name == MANIFEST_NAME else path / MANIFEST_NAME


def read_manifest(model_dir: str | Path) -> dict[str, Any]:
    """Read and validate the manifest of a prepared model folder."""
    path = manifest_path(model_dir)
    if not path.is_file():
        raise ManifestError(f"{path}: no such file; is the model prepared (rule prepare_model)?")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ManifestError(f"{path}: not valid JSON: {error}") from error
    validate_manifest(manifest, where=str(path))
    return manifest


def validate_manifest(manifest: Any, where: str = "manifest") -> None:
    """Raise ManifestError naming the file and key if a required key is absent or mistyped."""
    if not isinstance(manifest, dict):
        raise ManifestError(f"{where}: expected a JSON object")
    for key, types in REQUIRED_KEYS.items():
        if key not in manifest:
            raise ManifestError(f"{where}: missing key {key!r}")
        if not isinstance(manifest[key], types):
            raise ManifestError(f"{where}: key {key!r} has type {type(manifest[key]).__name__}")
    if manifest["manifest_version"] != MANIFEST_VERSION:
        raise ManifestError(
            f"{where}: manifest_version {manifest['manifest_version']} != {MANIFEST_VERSION}; prepare the model again"
        )
    if manifest["load_from"].get("kind") not in {"folder", "hub"}:
        raise ManifestError(f"{where}: load_from.kind must be 'folder' or 'hub'")


def write_manifest(model_dir: Path, manifest: dict[str, Any]) -> Path:
    """Validate and write the manifest into `model_dir` (call this last)."""
    validate_manifest(manifest, where=f"manifest for {model_dir}")
    path = manifest_path(model_dir)
    path.write_text(json.dumps(manifest, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    return path


def weight_files(folder: Path) -> list[Path]:
    """The weights files of an HF folder: *.safetensors, else *.bin (sorted by name)."""
    files = sorted(folder.glob("*.safetensors")) or sorted(folder.glob("*.bin"))
    if not files:
        raise FileNotFoundError(f"{folder}: no *.safetensors or *.bin weights files")
    return files


def weights_sha256(files: list[Path]) -> str:
    """sha256 of the weights files' bytes joined in the given order.

    For the usual single model.safetensors this is simply that file's sha256.
    """
    digest = hashlib.sha256()
    for path in files:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()


def folder_weights_sha256(model_dir: str | Path) -> str:
    """The weights hash of a model folder: its manifest's `weights_sha256`, verified, when prepared
    (:func:`verified_weights_sha256`), else :func:`weights_sha256` of its weights files (a plain
    Hugging Face folder: tests, benchmarks)."""
    if manifest_path(model_dir).is_file():
        return verified_weights_sha256(model_dir)
    return weights_sha256(weight_files(Path(model_dir)))


def _file_stats(files: list[Path]) -> dict[str, list[int]]:
    return {path.name: list(stat_key(path.stat()).values()) for path in files}


def write_weights_stamp(model_dir: str | Path, files: list[Path], sha256: str) -> Path:
    """Record the :func:`stat_key` of the weights files that hash to ``sha256`` (beside the manifest)."""
    stamp = manifest_path(model_dir).with_name(WEIGHTS_STAMP_NAME)
    tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"sha256": sha256, "files": _file_stats(files)}), encoding="utf-8")
    os.replace(tmp, stamp)
    return stamp


def _weights_folder(model_dir: Path, manifest: dict[str, Any]) -> Path | None:
    """Where the prepared weights lie (None: a Hub model with no local copy, loaded by id)."""
    load_from = manifest["load_from"]
    folder = Path(load_from.get("path") or "")
    if load_from["kind"] == "folder":
        return folder if folder.is_absolute() else model_dir / folder
    return folder if load_from.get("path") and folder.is_dir() else None


def verified_weights_sha256(model_dir: str | Path) -> str:
    """The manifest's `weights_sha256` after checking that the weights files still have it."""
    model_dir = manifest_path(model_dir).parent
    manifest = read_manifest(model_dir)
    expected, folder = manifest["weights_sha256"], _weights_folder(model_dir, manifest)
    if folder is None:
        return expected  # fetched from the Hub at the locked commit when loaded
    files = [folder / name for name in manifest["weights_files"]]
    missing = [str(path) for path in files if not path.is_file()]
    if missing:
        raise PreparedWeightsChanged(f"{manifest_path(model_dir)}: weights files {missing} are gone; prepare again")
    stamp_path = model_dir / WEIGHTS_STAMP_NAME
    try:
        stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stamp = {}
    if stamp == {"sha256": expected, "files": _file_stats(files)}:
        return expected
    actual = weights_sha256(files)
    if actual != expected:
        raise PreparedWeightsChanged(
            f"weights {', '.join(map(str, files))} (sha256 {actual}) differ from {manifest_path(model_dir)} "
            f"(weights_sha256 {expected}): they changed after the preparation; prepare the model again "
            f"(snakemake --forcerun prepare_model) so that no score of other weights is reused"
        )
    try:
        write_weights_stamp(model_dir, files, actual)
    except OSError:
        pass  # a read-only model folder: verified now, hashed again next time
    return actual


def tokenizer_facts(tokenizer) -> dict[str, Any]:
    """Tokenizer class, special tokens, and whether encoding text prepends BOS."""
    with_special = tokenizer("Hello world")["input_ids"]
    without = tokenizer("Hello world", add_special_tokens=False)["input_ids"]
    bos_id = tokenizer.bos_token_id
    adds_bos = bool(bos_id is not None and len(with_special) == len(without) + 1 and with_special[0] == bos_id)
    return {
        "tokenizer_class": type(tokenizer).__name__,
        "adds_bos": adds_bos,
        "bos_token": tokenizer.bos_token,
        "bos_token_id": bos_id,
        "eos_token": tokenizer.eos_token,
        "eos_token_id": tokenizer.eos_token_id,
        "vocab_size": len(tokenizer),
    }
