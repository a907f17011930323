# Item-level validity (docs/items.md): section `items:` of the config (workflow/schemas/items.schema.yaml).
#   items_responses     -> results/items/{source}/responses.parquet (+ .filters.json): the tidy responses
#   items_paired        -> results/items/{source}/{paired_comparisons,rank_resolution}.csv: paired model
#                          comparisons (bootstrap, McNemar) and the tie groups of each task's ranking
#   items_irt_recovery  -> results/items/irt_recovery.csv: IRT fitted back to simulated responses (a gate)
#   items_irt_{source}  -> results/items/{source}/irt/{task}/{item_params,fit,abilities}.csv: 1PL and 2PL
#   items_study         -> results/items/{study}/: item validity, the validity curve, LOFO folds, summary,
#                          IRT choice, signal / noise / SNR and its relation with validity
#   items_figures       -> results/items/{study}/figures/: validity curve, item map, SNR vs validity
#   items_report        -> results/items/report.md, results/items/reevaluation_snr.csv (open_llm
#                          re-evaluation noise, from the atlas's cells and duplicates)
# Each rule gets only the `items:` keys it reads. Cost: benchmarks/bench_items.py.
import os

from benchval.jobs.layout import workflow_layout
from benchval.jobs.reruns import canonical, script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.jobs.rule_files import raw_content_of
from benchval.items.item_files import ITEM_FIGURE_STEMS, source_files

ITEMS = "results/items"  # the files of these rules (item_files.item_outputs lists the final ones)
script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
ITEM_IRT_FILES = ("item_params", "fit", "abilities")
ITEM_STUDY_FILES = (
    "item_validity.csv",
    "validity_curve.csv",
    "lofo_folds.csv",
    "summary.csv",
    "criteria.csv",
    "criteria_support.csv",
    "models.csv",
    "irt_choice.csv",
    "snr.csv",
    "snr_validity.csv",
    "snr_relation.csv",
    "filters.json",
)
LAYOUT = workflow_layout(config)
raw_content = raw_content_of(LAYOUT)  # raw inputs by content (benchval.jobs.rule_files.raw_content)

ITEMS_CONFIG = config.get("items") or {}  # the `items:` section, {} without one
ITEM_STUDIES = ITEMS_CONFIG.get("studies", {})

# The raw files a source reads, its `{mirror}` the mirror from the working directory: ancient inputs, their
# declared sha256 (a user's own files: their digest) a param, so new bytes rerun its responses, new mtimes do not
_source_files = lambda w: source_files(
    ITEMS_CONFIG["sources"][w.source],
    ITEMS_CONFIG["sources"][w.source].get("path", "").replace("{mirror}", workdir_relative(LAYOUT.raw_root)),
)
# What items_paired compares in one source: its reader, its configured pairs, and (nlu_test_sets) the
# checkpoint that stands for each encoder; only this source's keys, so other edits rerun nothing
_paired_comparison = lambda source: {
    "reader": ITEMS_CONFIG["sources"][source]["reader"],
    "pairs": ITEMS_CONFIG["paired"]["pairs"].get(source, []),
    **(
        {"checkpoint": str(ITEMS_CONFIG["paired"]["checkpoint"])}
        if ITEMS_CONFIG["sources"][source]["reader"] == "nlu_test_sets"
        else {}
    ),
}
# The tasks of a source some study uses as a benchmark (each gets its IRT fits)
_irt_tasks = lambda source: sorted(
    {b for spec in ITEM_STUDIES.values() if spec["source"] == source for b in spec["benchmarks"]}
)
# {benchmark: its IRT folder} of a study's benchmarks
_irt_dirs = lambda study: {
    b: f"{ITEMS}/{ITEM_STUDIES[study]['source']}/irt/{b}" for b in ITEM_STUDIES[study]["benchmarks"]
}
# A study's inputs: responses, IRT fits and, for atlas criteria, the atlas's registry and cells (atlas.smk)
_study_inputs = lambda w: {
    "responses": f"{ITEMS}/{ITEM_STUDIES[w.study]['source']}/responses.parquet",
    "recovery": f"{ITEMS}/irt_recovery.csv",
    "irt": [f"{d}/{name}.csv" for d in _irt_dirs(w.study).values() for name in ITEM_IRT_FILES],
    **(
        {
            "names": rules.atlas_sources.output.names,
            "models": rules.atlas_sources.output.models,
            "cells": rules.atlas_sources.output.cells,
        }
        if ITEM_STUDIES[w.study]["criteria"]["kind"] == "atlas"
        else {}
    ),
}
# {(source, benchmark): its IRT fit file} of every study's benchmarks
ITEM_FITS = {
    (spec["source"], b): f"{ITEMS}/{spec['source']}/irt/{b}/fit.csv"
    for spec in ITEM_STUDIES.values()
    for b in spec["benchmarks"]
}


rule items_responses:
    input:
        lambda w: ancient(_source_files(w)),  # by content
    output:
        responses=f"{ITEMS}/{{source}}/responses.parquet",
        filters=f"{ITEMS}/{{source}}/responses.filters.json",
    log:
        logs("items_responses/{source}.log"),
    benchmark:
        benchmarks("items_responses/{source}.tsv")
    wildcard_constraints:
        source="[A-Za-z0-9_.-]+",
    conda:
        "../envs/benchval.yaml"
    params:
        source=config_provider("items.sources.{source}"),
        mirror=workdir_relative(LAYOUT.raw_root),  # derived: mirror, workdir-relative
        raw_content=lambda w: raw_content(_source_files(w)),  # derived: the declared sha256 of each raw input (else digest)
        code=script_code("items_responses.py"),
    script:
        "../scripts/items_responses.py"


rule items_paired:
    input:
        responses=f"{ITEMS}/{{source}}/responses.parquet",
    output:
        paired=f"{ITEMS}/{{source}}/paired_comparisons.csv",
        ranks=f"{ITEMS}/{{source}}/rank_resolution.csv",
    log:
        logs("items_paired/{source}.log"),
    benchmark:
        benchmarks("items_paired/{source}.tsv")
    wildcard_constraints:
        source="[A-Za-z0-9_.-]+",
    conda:
        "../envs/benchval.yaml"
    params:
        comparison=lambda w: canonical(_paired_comparison(w.source)),  # derived: items.sources.<source>.reader, items.paired
        settings=config_provider("items", "n_bootstrap", "ci_level", default={}),
        seed=config_provider("seed"),
        code=script_code("items_paired.py"),
    script:
        "../scripts/items_paired.py"


rule items_irt_recovery:
    output:
        f"{ITEMS}/irt_recovery.csv",
    log:
        logs("items_irt_recovery/items_irt_recovery.log"),
    benchmark:
        benchmarks("items_irt_recovery/items_irt_recovery.tsv")
    conda:
        "../envs/benchval.yaml"
    params:
        settings=config_provider("items", "irt.recovery", default={}),
        seed=config_provider("seed"),
        code=script_code("items_irt_recovery.py"),
    script:
        "../scripts/items_irt_recovery.py"


# One IRT job per source (all its benchmarks in one process: mirt's start-up is paid once).
for _source in sorted(s for s in ITEMS_CONFIG.get("sources", {}) if _irt_tasks(s)):

    rule:
        name:
            f"items_irt_{_source}"
        input:
            responses=f"{ITEMS}/{_source}/responses.parquet",
            recovery=f"{ITEMS}/irt_recovery.csv",
        output:
            [f"{ITEMS}/{_source}/irt/{t}/{n}.csv" for t in _irt_tasks(_source) for n in ITEM_IRT_FILES],
        log:
            logs(f"items_irt_{_source}/items_irt_{_source}.log"),
        benchmark:
            benchmarks(f"items_irt_{_source}/items_irt_{_source}.tsv")
        conda:
            "../envs/benchval.yaml"
        params:
            settings=config_provider(
                "items", "min_model_coverage", "irt.models", "irt.max_iter", "irt.recovery", default={}
            ),
            tasks=_irt_tasks(_source),  # derived: the benchmarks of items.studies using the source
            out_dir=lambda w, output: os.path.dirname(os.path.dirname(output[0])),  # {ITEMS}/<source>/irt
            code=script_code("items_irt.py"),
        script:
            "../scripts/items_irt.py"


rule items_study:
    input:
        unpack(_study_inputs),
    output:
        [f"{ITEMS}/{{study}}/{name}" for name in ITEM_STUDY_FILES],
    log:
        logs("items_study/{study}.log"),
    benchmark:
        benchmarks("items_study/{study}.tsv")
    wildcard_constraints:
        study="[A-Za-z0-9_.-]+",
    conda:
        "../envs/benchval.yaml"
    params:
        study=config_provider("items.studies.{study}"),
        irt_dirs=lambda w: _irt_dirs(w.study),  # derived: items.studies.<study>.{source,benchmarks}
        settings=config_provider(
            "items",
            "k",
            "n_random_draws",
            "n_bootstrap",
            "n_permutations",
            "ci_level",
            "fdr_alpha",
            "min_models",
            "min_model_coverage",
            "irt.selection_model",
            "irt.recovery",
            default={},
        ),
        seed=config_provider("seed"),
        code=script_code("items_study.py"),
    script:
        "../scripts/items_study.py"


rule items_figures:
    input:
        curve=f"{ITEMS}/{{study}}/validity_curve.csv",
        validity=f"{ITEMS}/{{study}}/item_validity.csv",
        support=f"{ITEMS}/{{study}}/criteria_support.csv",
        snr=f"{ITEMS}/{{study}}/snr_validity.csv",
        relation=f"{ITEMS}/{{study}}/snr_relation.csv",
        irt=lambda w: f"{ITEMS}/{ITEM_STUDIES[w.study]['source']}/irt/{ITEM_STUDIES[w.study]['headline']['benchmark']}/item_params.csv",
    output:
        [
            f"{ITEMS}/{{study}}/figures/{stem}.{ext}"
            for stem in ITEM_FIGURE_STEMS
            for ext in config["analysis"]["figures"]["formats"]
        ],
    log:
        logs("items_figures/{study}.log"),
    benchmark:
        benchmarks("items_figures/{study}.tsv")
    wildcard_constraints:
        study="[A-Za-z0-9_.-]+",
    conda:
        "../envs/benchval.yaml"
    params:
        headline=config_provider("items.studies.{study}.headline"),
        formats=config_provider("analysis.figures.formats"),
        dpi=config_provider("analysis.figures.dpi"),
        code=script_code("items_figures.py"),
    script:
        "../scripts/items_figures.py"


rule items_report:
    input:
        summaries=[f"{ITEMS}/{study}/summary.csv" for study in ITEM_STUDIES],
        curves=[f"{ITEMS}/{study}/validity_curve.csv" for study in ITEM_STUDIES],
        support=[f"{ITEMS}/{study}/criteria_support.csv" for study in ITEM_STUDIES],
        study_tables=[
            f"{ITEMS}/{study}/{name}.csv" for study in ITEM_STUDIES for name in ("irt_choice", "snr", "snr_relation")
        ],
        recovery=f"{ITEMS}/irt_recovery.csv",
        fits=list(ITEM_FITS.values()),
        # re-evaluation noise of the open_llm leaderboards (benchval.items.reevaluation): the atlas's tables
        cells=lambda w: rules.atlas_sources.output.cells,
        duplicates=lambda w: rules.atlas_sources.output.duplicates,
    output:
        report=f"{ITEMS}/report.md",
        reevaluation=f"{ITEMS}/reevaluation_snr.csv",
    log:
        logs("items_report/items_report.log"),
    benchmark:
        benchmarks("items_report/items_report.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        settings=config_provider("items", "n_bootstrap", "ci_level", default={}),
        seed=config_provider("seed"),
        studies=lambda w: {study: f"{ITEMS}/{study}" for study in ITEM_STUDIES},  # derived: keys named in its docstring
        headlines=canonical({s: spec["headline"] for s, spec in ITEM_STUDIES.items()}),  # derived: keys named in its docstring
        fits=[[source, task, path] for (source, task), path in ITEM_FITS.items()],  # derived: items.studies' sources and benchmarks
        code=script_code("items_report.py"),
    script:
        "../scripts/items_report.py"
