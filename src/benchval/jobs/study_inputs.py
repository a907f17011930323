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
from benchval.plumbing.folders import RESOURCES, RESULTS, workflow_root


def study_source(layout: Layout, study: str) -> str:
    """The study's source file or folder (its `path`, the mirror expanded), from the working directory."""
    return workdir_relative(expand_path(layout.studies[study]["path"], layout.mirror))


def study_raw_sources(layout: Layout, study: str) -> list[str]:
    """The study's source when it is read by content (a raw file, or a user's own file or folder): an
    ``ancient()`` input (:func:`study_source_input`), its content the ``raw_content`` param
    (benchval.jobs.rule_files.raw_content); none when a rule of the workflow writes it (under results/ or
    resources/), whose job reruns the study's rules."""
    source = study_source(layout, study)
    resolved = Path(source).resolve()
    if layout.raw_root.resolve() in resolved.parents:
        return [source]
    written = any(Path(folder).resolve() in resolved.parents for folder in (RESULTS, RESOURCES))
    return [] if written else [source]


def study_source_input(layout: Layout, study: str):
    """The study's source as a rule's input: ``ancient()`` when read by content (:func:`study_raw_sources`)."""
    from snakemake.io import ancient

    source = study_source(layout, study)
    return ancient(source) if study_raw_sources(layout, study) else source


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
