"""Hugging Face Hub sources: fetch a snapshot of a model id (online only)."""

from __future__ import annotations

import logging
import time
from pathlib import Path

log = logging.getLogger(__name__)

# Enough to load a causal LM and its tokenizer; weights in safetensors (else *.bin, see below).
SNAPSHOT_PATTERNS = ["*.json", "*.safetensors", "*.model", "*.txt", "*.jinja", "*.tiktoken"]


class HubUnavailableError(RuntimeError):
    """The Hugging Face Hub could not be reached and no cached snapshot exists."""


def hub_error(model: str, repo_id: str, revision: str | None, error: Exception) -> HubUnavailableError:
    """A clear error for a model id that cannot be fetched (typically: offline)."""
    return HubUnavailableError(
        f"model {model!r}: cannot get Hugging Face model {repo_id!r} (revision "
        f"{revision or 'main'}): {type(error).__name__}: {error}\n"
        "The Hub is unreachable from here (offline?) and no cached copy exists. Use a source of "
        "type gguf_wheels or local for offline runs, or run where the Hub is reachable."
    )


def snapshot(model: str, repo_id: str, revision: str | None) -> Path:
    """Download (or reuse from the HF cache) the files needed to load `repo_id`; return the folder.

    The folder name is the resolved commit, so the manifest pins an exact revision.
    """
    from huggingface_hub import snapshot_download

    started = time.perf_counter()
    try:
        patterns = SNAPSHOT_PATTERNS
        folder = Path(snapshot_download(repo_id, revision=revision, allow_patterns=patterns))
        if not any(folder.glob("*.safetensors")):
            log.info("%s has no safetensors weights; fetching *.bin", repo_id)
            patterns = [*SNAPSHOT_PATTERNS, "*.bin"]
            folder = Path(snapshot_download(repo_id, revision=revision, allow_patterns=patterns))
    except Exception as error:  # network, auth, unknown id: all end the same way for the user
        raise hub_error(model, repo_id, revision, error) from error
    log.info("snapshot of %s at %s in %.1f s", repo_id, folder, time.perf_counter() - started)
    return folder
