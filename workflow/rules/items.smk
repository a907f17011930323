# Item-level validity (docs/items.md): section `items:` of the config (workflow/schemas/items.schema.yaml).
#   items_responses     -> results/items/{source}/responses.parquet (+ .filters.json): the tidy responses
#   items_paired        -> results/items/{source}/{paired_comparisons,rank_resolution}.csv: paired model
#                          comparisons (bootstrap, McNemar) and the tie groups of each task's ranking
#   items_irt_recovery  -> results/items/irt_recovery.csv: IRT fitted back to simulated responses (a gate)
#   items_irt_{source}  -> results/items/{source}/irt/{task}/{item_params,fit,abilities}.csv: 1PL and 2PL
#   items_study         -> results/items/{study}/: item validity, the validity curve, LOFO folds, summary
#   items_figures       -> results/items/{study}/figures/: validity curve, item map
#   items_report        -> results/items/report.md
# Each rule gets only the `items:` keys it reads. Cost: benchmarks/bench_items.py.
import sys

from benchval.jobs.layout import workflow_layout
from benchval.jobs.reruns import canonical, script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import add_logs_and_benchmarks

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
ITEMS = "results/items"
ITEM_IRT_FILES = ("item_params", "fit", "abilities")
ITEM_STUDY_FILES = (
    "item_validity.csv",
    "validity_curve.csv",
    "lofo_folds.csv",
    "summary.csv",
    "criteria.csv",
    "criteria_support.csv",
    "models.csv",
    "filters.json",
)
ITEM_PAIRED_FILES = ("paired_comparisons.csv", "rank_resolution.csv")
LAYOUT = workflow_layout(config)


def _items():
    return config.get("items") or {}


def _item_source(source):
    return _items()["sources"][source]


def _item_source_path(source):
    path = _item_source(source).get("path", "")
    return path.replace("{mirror}", workdir_relative(LAYOUT.raw_root))


def _item_source_files(wildcards):
    """The raw files a source reads (mirror files: an edit reruns its responses)."""
    from pathlib import Path

    source = _item_source(wildcards.source)
    folder = Path(_item_source_path(wildcards.source))
    if source["reader"] == "nlu_test_sets":
        return [str(folder / f"{d}_irt_all_coded.csv") for d in source["datasets"]]
    if source["reader"] == "mmlu_pro_outputs":
        return sorted(str(p) for p in folder.glob("model_outputs_*_5shots.zip"))
    return sorted(str(p) for pattern in source["paths"] for p in Path(".").glob(pattern))


def _item_study(study):
    return _items()["studies"][study]


def _item_study_irt(study):
    spec = _item_study(study)
    return {b: f"{ITEMS}/{spec['source']}/irt/{b}" for b in spec["benchmarks"]}


def _item_study_inputs(wildcards):
    spec = _item_study(wildcards.study)
    inputs = {
        "responses": f"{ITEMS}/{spec['source']}/responses.parquet",
        "recovery": f"{ITEMS}/irt_recovery.csv",
        "irt": [f"{d}/item_params.csv" for d in _item_study_irt(wildcards.study).values()],
    }
    if spec["criteria"]["kind"] == "atlas":
        inputs.update(
            names="results/atlas/registry/names.csv",
            models="results/atlas/registry/models.csv",
            cells="results/atlas/cells.csv",
        )
    return inputs


def _headline_irt(study):
    spec = _item_study(study)
    return f"{ITEMS}/{spec['source']}/irt/{spec['headline']['benchmark']}/item_params.csv"


def _item_report_fits():
    return {
        (spec["source"], b): f"{ITEMS}/{spec['source']}/irt/{b}/fit.csv"
        for spec in _items().get("studies", {}).values()
        for b in spec["benchmarks"]
    }


def items_outputs():
    """The item studies' report and figures (the default target includes them); none without an `items:`
    section or without a mirror (the sources are mirror files)."""
    if not _items().get("studies"):
        return []
    if LAYOUT.mirror is None:
        print("items: mirror: null - the item studies are not built", file=sys.stderr)
        return []
    formats = config["analysis"]["figures"]["formats"]
    paired = [f"{ITEMS}/{source}/{name}" for source in _items()["sources"] for name in ITEM_PAIRED_FILES]
    return [f"{ITEMS}/report.md", *paired] + [
        f"{ITEMS}/{study}/figures/{stem}.{ext}"
        for study in _items()["studies"]
        for stem in ("validity_curve", "item_map")
        for ext in formats
    ]


rule items_responses:
    input:
        _item_source_files,
    output:
        responses=f"{ITEMS}/{{source}}/responses.parquet",
        filters=f"{ITEMS}/{{source}}/responses.filters.json",
    wildcard_constraints:
        source="[A-Za-z0-9_.-]+",
    conda:
        "../envs/benchval.yaml"
    params:
        source=config_provider("items.sources.{source}"),
        mirror=workdir_relative(LAYOUT.raw_root),
        code=script_code("items_responses.py"),
    script:
        "../scripts/items_responses.py"


def _paired_comparison(source):
    """What items_paired compares in one source: its reader, its configured pairs, and (nlu_test_sets)
    the checkpoint that stands for each encoder; only this source's keys, so other edits rerun nothing."""
    paired = _items().get("paired", {})
    reader = _item_source(source)["reader"]
    chosen = {"reader": reader, "pairs": paired.get("pairs", {}).get(source, [])}
    if reader == "nlu_test_sets":
        chosen["checkpoint"] = str(paired.get("checkpoint", "best"))
    return canonical(chosen)


rule items_paired:
    input:
        responses=f"{ITEMS}/{{source}}/responses.parquet",
    output:
        paired=f"{ITEMS}/{{source}}/paired_comparisons.csv",
        ranks=f"{ITEMS}/{{source}}/rank_resolution.csv",
    wildcard_constraints:
        source="[A-Za-z0-9_.-]+",
    conda:
        "../envs/benchval.yaml"
    params:
        comparison=lambda w: _paired_comparison(w.source),
        settings=config_provider("items", "n_bootstrap", "ci_level", default={}),
        seed=config_provider("seed"),
        code=script_code("items_paired.py"),
    script:
        "../scripts/items_paired.py"


rule items_irt_recovery:
    output:
        f"{ITEMS}/irt_recovery.csv",
    conda:
        "../envs/benchval.yaml"
    params:
        settings=config_provider("items", "irt.recovery", default={}),
        seed=config_provider("seed"),
        code=script_code("items_irt_recovery.py"),
    script:
        "../scripts/items_irt_recovery.py"


def _irt_tasks(source):
    """The tasks of a source some study uses as a benchmark (each gets its IRT fits)."""
    studies = _items().get("studies", {}).values()
    return sorted({b for spec in studies if spec["source"] == source for b in spec["benchmarks"]})


# One IRT job per source (all its benchmarks in one process: mirt's start-up is paid once).
for _source in sorted(s for s in _items().get("sources", {}) if _irt_tasks(s)):

    rule:
        name:
            f"items_irt_{_source}"
        input:
            responses=f"{ITEMS}/{_source}/responses.parquet",
            recovery=f"{ITEMS}/irt_recovery.csv",
        output:
            [f"{ITEMS}/{_source}/irt/{t}/{n}.csv" for t in _irt_tasks(_source) for n in ITEM_IRT_FILES],
        conda:
            "../envs/benchval.yaml"
        params:
            settings=config_provider(
                "items", "min_model_coverage", "irt.models", "irt.max_iter", "irt.recovery", default={}
            ),
            tasks=_irt_tasks(_source),
            out_dir=f"{ITEMS}/{_source}/irt",
            code=script_code("items_irt.py"),
        script:
            "../scripts/items_irt.py"


rule items_study:
    input:
        unpack(_item_study_inputs),
    output:
        [f"{ITEMS}/{{study}}/{name}" for name in ITEM_STUDY_FILES],
    wildcard_constraints:
        study="[A-Za-z0-9_.-]+",
    conda:
        "../envs/benchval.yaml"
    params:
        study=config_provider("items.studies.{study}"),
        irt_dirs=lambda w: _item_study_irt(w.study),
        settings=config_provider(
            "items",
            "k",
            "n_random_draws",
            "n_bootstrap",
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
        irt=lambda w: _headline_irt(w.study),
    output:
        [
            f"{ITEMS}/{{study}}/figures/{stem}.{ext}"
            for stem in ("validity_curve", "item_map")
            for ext in config["analysis"]["figures"]["formats"]
        ],
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
        summaries=[f"{ITEMS}/{study}/summary.csv" for study in _items().get("studies", {})],
        curves=[f"{ITEMS}/{study}/validity_curve.csv" for study in _items().get("studies", {})],
        support=[f"{ITEMS}/{study}/criteria_support.csv" for study in _items().get("studies", {})],
        recovery=f"{ITEMS}/irt_recovery.csv",
        fits=list(_item_report_fits().values()),
    output:
        f"{ITEMS}/report.md",
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        studies=lambda w: {study: f"{ITEMS}/{study}" for study in _items().get("studies", {})},
        headlines=canonical({s: spec["headline"] for s, spec in _items().get("studies", {}).items()}),
        fits=[[source, task, path] for (source, task), path in _item_report_fits().items()],
        code=script_code("items_report.py"),
    script:
        "../scripts/items_report.py"


# every rule's log and benchmark file, from its name (benchval.jobs.job_logs)
add_logs_and_benchmarks(workflow.rules, workflow.current_basedir, workflow.modifier.path_modifier)
