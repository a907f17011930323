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
from benchval.jobs.rules import items as item_functions
from benchval.jobs.rules.items import ITEMS

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

ITEMS_CONFIG = item_functions.items(config)  # the `items:` section, {} without one


rule items_responses:
    input:
        item_functions.item_source_files(config, LAYOUT),
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
        comparison=lambda w: item_functions.paired_comparison(config, w.source),  # derived: keys named in its docstring
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
for _source in sorted(s for s in ITEMS_CONFIG.get("sources", {}) if item_functions.irt_tasks(config, s)):

    rule:
        name:
            f"items_irt_{_source}"
        input:
            responses=f"{ITEMS}/{_source}/responses.parquet",
            recovery=f"{ITEMS}/irt_recovery.csv",
        output:
            [
                f"{ITEMS}/{_source}/irt/{t}/{n}.csv"
                for t in item_functions.irt_tasks(config, _source)
                for n in ITEM_IRT_FILES
            ],
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
            tasks=item_functions.irt_tasks(config, _source),  # derived: keys named in its docstring
            out_dir=lambda w, output: os.path.dirname(os.path.dirname(output[0])),  # {ITEMS}/<source>/irt
            code=script_code("items_irt.py"),
        script:
            "../scripts/items_irt.py"


rule items_study:
    input:
        unpack(item_functions.item_study_inputs(config)),
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
        irt_dirs=lambda w: item_functions.item_study_irt(config, w.study),  # derived: keys named in its docstring
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
        irt=lambda w: item_functions.headline_irt(config, w.study),
    output:
        [
            f"{ITEMS}/{{study}}/figures/{stem}.{ext}"
            for stem in item_functions.ITEM_FIGURE_STEMS
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
        summaries=[f"{ITEMS}/{study}/summary.csv" for study in ITEMS_CONFIG.get("studies", {})],
        curves=[f"{ITEMS}/{study}/validity_curve.csv" for study in ITEMS_CONFIG.get("studies", {})],
        support=[f"{ITEMS}/{study}/criteria_support.csv" for study in ITEMS_CONFIG.get("studies", {})],
        study_tables=[
            f"{ITEMS}/{study}/{name}.csv"
            for study in ITEMS_CONFIG.get("studies", {})
            for name in ("irt_choice", "snr", "snr_relation")
        ],
        recovery=f"{ITEMS}/irt_recovery.csv",
        fits=list(item_functions.item_report_fits(config).values()),
        # re-evaluation noise of the open_llm leaderboards (benchval.items.reevaluation): the atlas's tables
        cells="results/atlas/cells.csv",
        duplicates="results/atlas/leaderboards/duplicates.csv",
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
        studies=lambda w: {study: f"{ITEMS}/{study}" for study in ITEMS_CONFIG.get("studies", {})},  # derived: keys named in its docstring
        headlines=canonical({s: spec["headline"] for s, spec in ITEMS_CONFIG.get("studies", {}).items()}),  # derived: keys named in its docstring
        fits=[[source, task, path] for (source, task), path in item_functions.item_report_fits(config).items()],  # derived: keys named in its docstring
        code=script_code("items_report.py"),
    script:
        "../scripts/items_report.py"
