"""What the study rules read of a study: its source, its family rules file, its bootstrap settings and its
models' score-table keys. Rule files share one namespace, so the helpers that several of them need
(analysis.smk, lmeval.smk, scoreboard.smk, evaluate.smk) live here once rather than as copies in each."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from benchval.analysis.settings import settings_from_config
from benchval.analysis.study_import import expand_path
from benchval.evaluation.score_table_keys import SCORE_TABLE_MODEL_KEYS
from benchval.jobs.layout import Layout
from benchval.jobs.reruns import canonical, workdir_relative
from benchval.jobs.rule_files import content_digests
from benchval.plumbing.folders import workflow_root


def study_source(layout: Layout, study: str) -> str:
    """The study's source file or folder (its `path`, the mirror expanded), from the working directory."""
    return workdir_relative(expand_path(layout.studies[study]["path"], layout.mirror))


def study_family_rules(layout: Layout, study: str) -> list[str]:
    """An lm_eval study's model-registry rules file (`family_rules`), none without: an ancient input, its
    content a param (:func:`study_family_rules_digests`), so that editing it reruns the import and a fresh
    clone does not."""
    family_rules = layout.studies[study].get("family_rules")
    return [family_rules] if family_rules else []


def study_family_rules_digests(layout: Layout, study: str, workflow_dir: str | Path):
    """The content of the study's family rules file (the param that reruns the import on an edit); the file
    is found in the repository of ``workflow_dir`` (the Snakefile's folder)."""
    return content_digests(study_family_rules(layout, study), workflow_root(workflow_dir))


def bootstrap_settings(config: Mapping) -> str:
    """Of the analysis settings, only what the bootstrap reads (analysis.seed, else seed; analysis.n_bootstrap,
    analysis.ci_level, as benchval.analysis.settings resolves them): other analysis settings rerun nothing."""
    analysis = settings_from_config({"seed": config["seed"], **config["analysis"]})
    return canonical({"seed": analysis.seed, "n_bootstrap": analysis.n_bootstrap, "ci_level": analysis.ci_level})


def study_model_keys(layout: Layout, config_provider: Callable, study: str) -> str:
    """Of each model of the study, the keys its score table reads (benchval.evaluation.score_table_keys)."""
    return canonical({m: config_provider(("models", m), *SCORE_TABLE_MODEL_KEYS) for m in layout.study_models(study)})
