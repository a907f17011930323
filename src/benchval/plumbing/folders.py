"""Where things live: the repository root, the top folders (results/, resources/, the models and download folders)
and the raw-data mirror. On the ground floor: it imports only benchval.plumbing.config_error.

The one place that decides where raw files are read (:func:`raw_root`): the mirror (config key
``mirror``, :func:`resolve_mirror`), or with ``mirror: null`` the download folder that rule fetch_raw_file
fills. The file name patterns below these folders are the workflow's (benchval.jobs.layout).
"""

from __future__ import annotations

from pathlib import Path

from benchval.plumbing.config_error import ConfigError

REPO_ROOT = Path(__file__).resolve().parents[3]

# relative to the working directory (Snakemake's --directory)
RESULTS = "results"
RESOURCES = "resources"
MODELS_DIR = f"{RESOURCES}/models"  # prepared models (rule prepare_model)
DOWNLOADS_DIR = f"{RESOURCES}/data"  # raw files fetched when `mirror: null` (rule fetch_raw_file)
DOWNLOAD_DIR = Path(DOWNLOADS_DIR)
# one folder per task: <task>/task.yaml (its catalogue entry), its adapter module, README.md (its notes);
# found by name by benchval.tasks.registry, merged into the config by the Snakefile (docs/tasks.md)
TASK_FOLDERS = Path(__file__).resolve().parents[1] / "tasks" / "catalogue"


def default_mirror() -> Path | None:
    """The shared raw-data mirror beside the checkout (../shared/data/raw), if it exists."""
    candidate = REPO_ROOT.parent / "shared" / "data" / "raw"
    return candidate if candidate.is_dir() else None


def resolve_mirror(mirror: str | None) -> Path | None:
    """The mirror folder as an absolute path (relative paths are taken from the repo root), or None.

    ``mirror: null`` means no mirror: every raw file is downloaded. A folder that does not exist is an
    error, not a silent fall-back to downloads.
    """
    if mirror is None:
        return None
    path = Path(mirror).expanduser()
    path = path if path.is_absolute() else (REPO_ROOT / path).resolve()
    if not path.is_dir():
        raise ConfigError(
            f"mirror: folder {path} does not exist (config value {mirror!r}); point it at the "
            f"raw-data mirror, or set `mirror: null` to download every raw file from upstream"
        )
    return path


def raw_root(mirror: Path | None) -> Path:
    """Where raw files are read: the mirror, or (``mirror: null``) the download folder that rule
    fetch_raw_file fills from the files declared in the catalogue (task folders, config/catalogue/)."""
    return mirror if mirror is not None else DOWNLOAD_DIR


def workflow_root(basedir: str | Path) -> Path:
    """The folder that holds the workflow's config/ and benchmarks/ (the repository), given the main
    Snakefile's folder (``workflow.basedir``): its parent where the Snakefile is ``workflow/Snakefile``
    (Snakemake's standard layout, and a deployed module's), else the folder itself (a test's Snakefile)."""
    basedir = Path(basedir)
    return basedir.parent if basedir.name == "workflow" else basedir
