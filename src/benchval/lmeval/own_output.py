"""This project's own lm-eval-style output (results/lmeval/) as a ``source: lm_eval`` study.

:func:`own_output_study` writes the study mapping that re-imports a scored study's results/lmeval/
folder item by item: its models (name, family, size from config ``models``), its tasks (role, axes,
pairs_with, label from config ``tasks``) and the run's ``scoring.normalisation``. The round trip
(tests/test_workflow_e2e.py) checks that the import gives the scored study's score table exactly.
"""

from __future__ import annotations

from pathlib import Path

from benchval.evaluation.evaluate import LMEVAL_METRIC_NAMES
from benchval.plumbing.config_error import ConfigError, unknown_name


def own_output_study(config: dict, study_name: str, lmeval_dir: str | Path) -> dict:
    """The ``source: lm_eval`` study (with ``samples:``) of scored study ``study_name``'s output."""
    if study_name not in config["studies"]:
        raise ConfigError(unknown_name("study", study_name, config["studies"], "the config's studies"))
    study = config["studies"][study_name]
    models = {
        model: {"name": model, "family": config["models"][model]["family"], "size_b": config["models"][model]["size_b"]}
        for model in study["models"]
    }
    tasks = {}
    for task in study["tasks"]:
        spec = config["tasks"][task]
        entry = {
            "harness_task": task,
            "role": spec["role"],
            "label": spec.get("label") or task,
            "metrics": {metric: LMEVAL_METRIC_NAMES[metric] for metric in spec["metrics"]},
        }
        entry.update({key: spec[key] for key in ("axes", "pairs_with") if spec.get(key)})
        tasks[task] = entry
    return {
        "source": "lm_eval",
        "path": str(lmeval_dir),
        "samples": {"normalisation": config["scoring"]["normalisation"], "bootstrap": 0},
        "models": models,
        "tasks": tasks,
    }
