"""Which results JSON and samples files an lm-evaluation-harness output folder holds.

Layouts read (searched recursively under the study's ``path``):

* ``0.4`` (lm-eval 0.4.3 and later): ``<output_path>/<model_sanitized>/results_<date>.json`` with
  ``samples_<task>_<date>.jsonl`` beside it (same ``<date>``);
* ``0.4-early`` (lm-eval 0.4.0 - 0.4.2): ``<output_path>/results.json`` (or the ``--output_path``
  file itself, when it ends in ``.json``) with ``<model_args sanitized>_<task>.jsonl`` beside it,
  each an indented JSON array of records;
* ``benchval`` (this project's results/lmeval/{model}/{task}/): ``results.json`` (with a
  ``benchval`` key) and ``samples.jsonl`` (its one task).

lm-evaluation-harness 0.3 wrote results without filter keys (``"acc"`` instead of ``"acc,none"``) and
items as ``<task>_write_out_info.json``; both fail with an error that says so. A samples file that no
results JSON claims, and a results JSON whose task has no samples file, fail naming the file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from benchval.lmeval.errors import LmEvalImportError

_RESULTS_04 = re.compile(r"^results_(?P<date>.+)\.json$")


@dataclass
class RunFiles:
    """One results JSON, its payload and the samples file of each of its tasks."""

    results: Path
    payload: dict
    layout: str
    samples: dict[str, Path] = field(default_factory=dict)

    @property
    def model_folder(self) -> Path:
        """The folder that stands for one model run (the task folder's parent in the benchval layout)."""
        return self.results.parent.parent if self.layout == "benchval" else self.results.parent

    @property
    def tasks(self) -> list[str]:
        return list(self.payload.get("results") or {})


def read_results_json(path: Path) -> dict:
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise LmEvalImportError(f"{path}: line {error.lineno}: not valid JSON ({error.msg})") from error
    if not isinstance(payload, dict) or not isinstance(payload.get("results"), dict):
        raise LmEvalImportError(f"{path}: not an lm-evaluation-harness results JSON (no 'results' object)")
    _reject_03(path, payload)
    return payload


def _results_payload(path: Path) -> dict | None:
    """The payload of a results JSON. ``results.json`` and ``results_<date>.json`` must be one; any
    other ``*.json`` (lm-eval 0.4.0-0.4.2 took ``--output_path x.json`` as the file name) is one when it
    holds a ``results`` object, else it is not lm-eval's and is left alone."""
    if path.name == "results.json" or _RESULTS_04.match(path.name):
        return read_results_json(path)
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    if not (isinstance(payload, dict) and isinstance(payload.get("results"), dict)):
        return None
    _reject_03(path, payload)
    return payload


def _reject_03(path: Path, payload: dict) -> None:
    for task, metrics in payload["results"].items():
        keys = [k for k in (metrics or {}) if k not in ("alias", "name", "sample_len", " ")]
        if keys and not any("," in key for key in keys):
            raise LmEvalImportError(
                f"{path}: results[{task!r}] has metric keys without a filter ({sorted(keys)[:3]}): this is the "
                "lm-evaluation-harness 0.3 layout, which has no samples files; "
                "re-run with lm-eval 0.4 and --log_samples"
            )


def _layout_of(path: Path, payload: dict) -> str:
    if "benchval" in payload:
        return "benchval"
    return "0.4" if _RESULTS_04.match(path.name) else "0.4-early"


def _claim_samples(run: RunFiles, jsonl: list[Path]) -> None:
    """Fill ``run.samples`` from the JSON Lines files in the results JSON's folder."""
    if run.layout == "benchval":
        candidate = run.results.with_name("samples.jsonl")
        if candidate in jsonl:
            run.samples = {task: candidate for task in run.tasks}
        return
    date = _RESULTS_04.match(run.results.name).group("date") if run.layout == "0.4" else None
    for task in run.tasks:
        if date is not None:
            wanted = run.results.with_name(f"samples_{task}_{date}.jsonl")
            found = [wanted] if wanted in jsonl else []
        else:
            found = [p for p in jsonl if p.name.endswith(f"_{task}.jsonl")]
        if len(found) > 1:
            raise LmEvalImportError(f"{run.results}: task {task!r} matches several samples files: {found}")
        if found:
            run.samples[task] = found[0]


def discover_runs(directory: Path) -> list[RunFiles]:
    """Every results JSON under ``directory`` with its samples files; stray samples files are errors."""
    write_out = sorted(directory.rglob("*_write_out_info.json"))
    if write_out:
        raise LmEvalImportError(
            f"{write_out[0]}: lm-evaluation-harness 0.3 --write_out file; only 0.4 samples files "
            "(--log_samples) are read; re-run with lm-eval 0.4"
        )
    runs = []
    for path in sorted(directory.rglob("*.json")):
        payload = _results_payload(path)
        if payload is not None:
            runs.append(RunFiles(path, payload, _layout_of(path, payload)))
    by_folder: dict[Path, list[Path]] = {}
    for path in sorted(directory.rglob("*.jsonl")):
        by_folder.setdefault(path.parent, []).append(path)
    claimed: set[Path] = set()
    for run in runs:
        _claim_samples(run, by_folder.get(run.results.parent, []))
        claimed.update(run.samples.values())
    stray = sorted(set().union(*by_folder.values()) - claimed) if by_folder else []
    if stray:
        raise LmEvalImportError(
            f"{stray[0]}: samples file without its results JSON (none in {stray[0].parent} names it)"
        )
    return runs
