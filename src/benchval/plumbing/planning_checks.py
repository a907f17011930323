"""Checks that a dry run makes before it plans a job (workflow/rules/common.smk), each failing in one line
that names the config key: a csv study's column that its file lacks, and a Hugging Face model source
that can be neither found locally nor reached. Without them, both failed only when their job ran.

``BENCHVAL_PLAN_WITHOUT_HUB=1`` skips the Hugging Face check, for a person (or a test) who wants to see the
plan of a study whose models this machine cannot fetch (e.g. the paper's study planned on a laptop before it
is run on a cluster that reaches the Hub): the model jobs then fail when they run, as they did before the check.
"""

from __future__ import annotations

import csv
import difflib
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from benchval.plumbing.config_error import ConfigError

PLAN_WITHOUT_HUB = "BENCHVAL_PLAN_WITHOUT_HUB"


def read_text(path: Path) -> str:
    """The file's text as UTF-8; a byte that is not UTF-8 is a :class:`ConfigError`-free ``ValueError`` naming
    file and line (Python's UnicodeDecodeError names neither)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ValueError(
            f"{path}: line {line}: not UTF-8 (byte {data[error.start]:#04x}); save the file as UTF-8"
        ) from None


def _header(path: Path) -> list[str]:
    return next(csv.reader(read_text(path).splitlines()), [])


#: where the workflow writes files a study may read (such a file is checked by its import job, not at planning):
#: results/, and the raw-data mirror, which rule fetch_raw_file fills where the config has no mirror
WRITTEN_BY_RULES = ("results/", "{mirror}/")


def study_column_problems(studies: dict, expand: Callable[[str], Path]) -> list[str]:
    """One line per column a ``source: csv`` study names that its file's header lacks; one line for a file that
    is missing, empty or not UTF-8. A file not there yet that a rule writes (under results/, e.g.
    results/atlas/studies/) is checked by its import job instead."""
    problems = []
    for name, study in studies.items():
        if study.get("source") != "csv":
            continue
        path = expand(study["path"])
        if not path.is_file():
            if not study["path"].startswith(WRITTEN_BY_RULES):
                problems.append(f"studies.{name}.path: {path} does not exist (no rule writes it)")
            continue
        if path.stat().st_size == 0:
            problems.append(f"studies.{name}.path: {path} is empty")
            continue
        try:
            header = _header(path)
        except ValueError as error:
            problems.append(f"studies.{name}.path: {error}")
            continue
        named = {f"columns.{key}": column for key, column in study["columns"].items()}
        named.update({f"tasks.{task}.column": spec["column"] for task, spec in study["tasks"].items()})
        for key, column in named.items():
            if column not in header:
                closest = difflib.get_close_matches(column, header, n=1)
                hint = f" (closest: {closest[0]!r})" if closest else ""
                problems.append(f"studies.{name}.{key}: {column!r} is not a column of {path}{hint}")
    return problems


def study_sizes(studies: dict, expand: Callable[[str], Path]) -> dict[str, tuple[int, int]]:
    """Study -> (models, tasks) as far as known at planning (a csv study: its file's rows, where it exists),
    for the bootstrap's cost estimate (benchval.plumbing.config_values.check_bootstrap_costs)."""
    sizes = {}
    for name, study in studies.items():
        n_models = len(study.get("models") or ())
        if study.get("source") == "csv":
            path = expand(study["path"])
            n_models = max(0, len(read_text(path).splitlines()) - 1) if path.is_file() else 0
        if n_models:
            sizes[name] = (n_models, len(study.get("tasks") or ()))
    return sizes


def check_study_columns(studies: dict, expand: Callable[[str], Path]) -> None:
    problems = study_column_problems(studies, expand)
    if problems:
        raise ConfigError("; ".join(problems))


def _cached(repo_id: str, revision: str | None) -> bool:
    from huggingface_hub import snapshot_download

    try:
        snapshot_download(repo_id, revision=revision, local_files_only=True)
        return True
    except Exception:  # noqa: BLE001 - any failure means: not usable from the cache
        return False


def _reachable(repo_id: str, revision: str | None, timeout: float) -> str | None:
    """None where the Hub answers for the model; else why not."""
    if os.environ.get("HF_HUB_OFFLINE") == "1":
        return "HF_HUB_OFFLINE=1 and it is not in the local Hugging Face cache"
    from huggingface_hub import model_info

    try:
        model_info(repo_id, revision=revision, timeout=timeout)
        return None
    except Exception as error:  # noqa: BLE001 - the reason is reported, whatever it is
        return f"{type(error).__name__}: {str(error).splitlines()[0][:160] if str(error) else ''}"


def unreachable_hf_model(
    models: dict,
    names: Iterable[str],
    prepared: Callable[[str], bool],
    timeout: float = 10.0,
    cached: Callable[[str, str | None], bool] = _cached,
    reachable: Callable[[str, str | None, float], str | None] = _reachable,
) -> str | None:
    """The one-line message for the first model of ``names`` with a ``source: {type: hf}`` that is not
    prepared yet, not in the local cache, and that the Hub does not answer for (one request per model,
    ``timeout`` seconds; after the first failure the rest are not tried, and counted); None if none."""
    pending = [n for n in names if models[n]["source"].get("type") == "hf" and not prepared(n)]
    for index, name in enumerate(pending):
        source = models[name]["source"]
        revision = source.get("revision")
        if cached(source["id"], revision):
            continue
        why = reachable(source["id"], revision, timeout)
        if why is not None:
            rest = len(pending) - index - 1
            others = f"; {rest} more Hugging Face model(s) not checked" if rest else ""
            return (
                f"models.{name}.source.id: {source['id']!r} cannot be reached ({why}){others}; run where the Hub "
                "is reachable (or with the models in the Hugging Face cache), or use a `local` source "
                f"({PLAN_WITHOUT_HUB}=1 plans without this check)"
            )
    return None


def check_hf_models(models: dict, names: Iterable[str], prepared: Callable[[str], bool]) -> None:
    if os.environ.get(PLAN_WITHOUT_HUB) == "1":
        return
    problem = unreachable_hf_model(models, names, prepared)
    if problem:
        raise ConfigError(problem)
