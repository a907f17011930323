# The validity atlas (docs/atlas.md): the mirror's leaderboard tables (benchbench/, obsscaling/), one
# model registry across them, and which benchmark predicts which criterion.
#   atlas_sources        -> results/atlas/{registry,leaderboards,obsscaling}/, cells.csv, counts.csv
#   atlas_study_table    -> results/atlas/studies/{study}.csv (the csv an atlas study imports; then the
#                           analysis chain of analysis.smk, as for every study)
#   atlas_pairs          -> results/atlas/pairs.csv (every pair of columns, FDR across the atlas)
#   atlas_human_preference, atlas_agreement, atlas_heatmap, atlas_crosscheck, atlas_report
#   atlas_g_choice       -> results/atlas/g_choice.csv (which g the open_llm headline controls for)
#   atlas_mtmm           -> results/atlas/mtmm.csv, mtmm_blocks.csv, figures/mtmm.* (method apart from trait)
# Each rule gets only the `atlas:` keys it reads. Local rules: seconds of pandas on small tables.
from pathlib import Path

from benchval.atlas.steps.atlas_sources import SOURCE_TABLES
from benchval.plumbing.folders import workflow_root
from benchval.jobs.layout import workflow_layout
from benchval.jobs.reruns import file_digests, script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.jobs.rule_files import raw_content_of
from benchval.atlas.atlas_outputs import forest_figures
from benchval.atlas.sources import expand as _expand_mirror  # not Snakemake's expand(), which rule files share
from benchval.report.safe_text import script_safe_json

ATLAS = "results/atlas"  # the files of these rules (atlas_outputs lists the final ones)
script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
raw_content = raw_content_of(LAYOUT)  # raw inputs by content (benchval.jobs.rule_files.raw_content)

# The leaderboard tables come from the mirror only (no download is declared for them): with `mirror: null`
# the layout leaves the atlas studies out, saying so on stderr (benchval.jobs.layout.Layout.studies).


# the `atlas:` keys the incremental-validity statistics read (rules atlas_pairs, atlas_human_preference)
INCREMENTAL_KEYS = (
    "aggregate_columns",
    "same_measure",
    "measure_groups",
    "general_factor",
    "min_models",
    "min_clusters",
    "min_headline_n",
    "n_bootstrap",
)

ATLAS_REPOSITORY = workflow_root(workflow.basedir)  # the repository of config/atlas/
# Repository files the atlas rules read (config/atlas/): ancient inputs, their content a param (a fresh
# clone's new mtimes rerun nothing; an edit reruns the rule: benchval.jobs.rule_files)
_repo_path = lambda path: workdir_relative(ATLAS_REPOSITORY / path)  # from the working directory (--directory)
# rule atlas_sources: the rules, overrides and display names
_SOURCE_FILES = {key: _repo_path(config["atlas"][key]) for key in ("rules", "overrides", "display_names")}
# rule atlas_identity: the sample, the first and the blind labelling, the disagreements, the targeted and
# precision labels; its param digests every labelling (the check reads each)
_IDENTITY = config["atlas"]["identity"]
_IDENTITY_FILES = {
    "labels": _repo_path(_IDENTITY["sample"]),
    "labels_first": _repo_path(_IDENTITY["labellings"]["first"]),
    "labels_blind": _repo_path(_IDENTITY["labellings"]["blind"]),
    "disagreements": _repo_path(_IDENTITY["disagreements"]),
    "targeted": _repo_path(_IDENTITY["targeted"]["labels"]),
    "precision": _repo_path(_IDENTITY["precision"]["labels"]),
}
_IDENTITY_DIGESTED = [
    _IDENTITY_FILES["labels"],
    *(_repo_path(path) for path in _IDENTITY["labellings"].values()),
    *(_IDENTITY_FILES[key] for key in ("disagreements", "targeted", "precision")),
]
# the reviewed method table (atlas.methods) of the rules that compute g or rank claims
_METHODS = _repo_path(config["atlas"]["methods"])

# Mirror files, from the working directory (the mirror resolved as every rule resolves it)
_mirror_path = lambda template: workdir_relative(_expand_mirror(template, LAYOUT.raw_root))
# every leaderboard csv of the BenchBench folders (atlas.benchbench_dirs)
_BENCHBENCH_FILES = sorted(
    str(p) for d in config["atlas"]["benchbench_dirs"] for p in Path(_mirror_path(d)).glob("*.csv")
)
# BenchBench's prettified names (atlas.benchmark_names), none without: a mirror file, by content (below)
_BENCHMARK_NAMES = (
    {"names": _mirror_path(config["atlas"]["benchmark_names"])} if config["atlas"]["benchmark_names"] else {}
)
# The mirror files of rule atlas_sources and rule atlas_crosscheck: ancient inputs, their declared sha256 a param
# (`raw_content`: benchval.jobs.rule_files.raw_content), so a mirror copied again with new mtimes reruns nothing
_SOURCE_RAW = {
    "files": _BENCHBENCH_FILES,
    "lower_is_better": _mirror_path(config["atlas"]["lower_is_better"]),
    "obsscaling": _mirror_path(config["atlas"]["obsscaling"]["path"]),
}
_CROSSCHECK_RAW = {
    "obsscaling": _mirror_path(config["atlas"]["obsscaling"]["path"]),
    "v2": _mirror_path(config["atlas"]["obsscaling"]["leaderboard_v2"]),
}


rule atlas_sources:
    input:
        **{name: ancient(path) for name, path in _SOURCE_FILES.items()},
        **{name: ancient(path) for name, path in _SOURCE_RAW.items()},  # mirror files: by content
        # repository files: ancient (a fresh clone's mtimes rerun nothing), their content a param below
    output:
        **{name: f"{ATLAS}/{path}" for name, path in SOURCE_TABLES.items()},
    log:
        logs("atlas_sources/atlas_sources.log"),
    benchmark:
        benchmarks("atlas_sources/atlas_sources.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider(
            "atlas",
            "benchbench_dirs",
            "lower_is_better",
            "obsscaling",
            "rules",
            "overrides",
            "display_names",
            "missing_tokens",
            "duplicates",
            "size_tolerance",
            "drop_columns",
        ),
        mirror=lambda w: workdir_relative(LAYOUT.raw_root),  # derived: the raw-data folder of every input
        repository_files=file_digests(_SOURCE_FILES.values(), workflow_root(workflow.basedir)),
        raw_content=raw_content(_SOURCE_RAW.values()),  # derived: the declared sha256 of each raw input
        code=script_code("atlas_sources.py"),
    script:
        "../scripts/atlas_sources.py"


rule atlas_identity:
    input:
        **{name: ancient(path) for name, path in _IDENTITY_FILES.items()},
        names=f"{ATLAS}/registry/names.csv",
        models=f"{ATLAS}/registry/models.csv",
        cells=f"{ATLAS}/cells.csv",
        # repository files: ancient (a fresh clone's mtimes rerun nothing), their content a param below
    output:
        summary=f"{ATLAS}/registry/identity_check.csv",
        detail=f"{ATLAS}/registry/identity_detail.csv",
        blind_summary=f"{ATLAS}/registry/identity_check_blind.csv",
        agreement=f"{ATLAS}/registry/identity_agreement.csv",
        overlaps=f"{ATLAS}/registry/overlaps.csv",
        targeted_summary=f"{ATLAS}/registry/identity_targeted.csv",
        targeted_detail=f"{ATLAS}/registry/identity_targeted_detail.csv",
    log:
        logs("atlas_identity/atlas_identity.log"),
    benchmark:
        benchmarks("atlas_identity/atlas_identity.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", "identity", "size_tolerance", "n_bootstrap"),
        repository_files=file_digests(_IDENTITY_DIGESTED, workflow_root(workflow.basedir)),
        seed=config_provider("seed"),
        ci_level=config_provider("analysis.ci_level"),
        code=script_code("atlas_identity.py"),
    script:
        "../scripts/atlas_identity.py"


rule atlas_study_table:
    input:
        cells=f"{ATLAS}/cells.csv",
        models=f"{ATLAS}/registry/models.csv",
    output:
        table=f"{ATLAS}/studies/{{study}}.csv",
        report=f"{ATLAS}/study_models/{{study}}.csv",
    log:
        logs("atlas_study_table/{study}.log"),
    benchmark:
        benchmarks("atlas_study_table/{study}.tsv")
    wildcard_constraints:
        study="[A-Za-z0-9_.-]+",
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        study=config_provider("studies.{study}"),
        leaderboards=config_provider("atlas.study_tables.{study}.leaderboards"),
        code=script_code("atlas_study_table.py"),
    script:
        "../scripts/atlas_study_table.py"


rule atlas_pairs:
    input:
        cells=f"{ATLAS}/cells.csv",
        models=f"{ATLAS}/registry/models.csv",
        methods=ancient(_METHODS),  # repository file: its content a param below
    output:
        pairs=f"{ATLAS}/pairs.csv",
        excluded=f"{ATLAS}/pairs_excluded.csv",
    log:
        logs("atlas_pairs/atlas_pairs.log"),
    benchmark:
        benchmarks("atlas_pairs/atlas_pairs.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", *INCREMENTAL_KEYS),
        repository_files=file_digests([_METHODS], workflow_root(workflow.basedir)),
        seed=config_provider("seed"),
        ci_level=config_provider("analysis.ci_level"),
        code=script_code("atlas_pairs.py"),
    script:
        "../scripts/atlas_pairs.py"


rule atlas_human_preference:
    input:
        cells=f"{ATLAS}/cells.csv",
        models=f"{ATLAS}/registry/models.csv",
        methods=ancient(_METHODS),  # repository file: its content a param below
    output:
        table=f"{ATLAS}/human_preference.csv",
        excluded=f"{ATLAS}/human_preference_excluded.csv",
    log:
        logs("atlas_human_preference/atlas_human_preference.log"),
    benchmark:
        benchmarks("atlas_human_preference/atlas_human_preference.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", *INCREMENTAL_KEYS, "human_preference"),
        repository_files=file_digests([_METHODS], workflow_root(workflow.basedir)),
        seed=config_provider("seed"),
        ci_level=config_provider("analysis.ci_level"),
        code=script_code("atlas_human_preference.py"),
    script:
        "../scripts/atlas_human_preference.py"


rule atlas_agreement:
    input:
        cells=f"{ATLAS}/cells.csv",
        predictors=f"{ATLAS}/human_preference.csv",
    output:
        table=f"{ATLAS}/agreement_validity.csv",
    log:
        logs("atlas_agreement/atlas_agreement.log"),
    benchmark:
        benchmarks("atlas_agreement/atlas_agreement.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider(
            "atlas",
            "min_models",
            "n_bootstrap",
            "human_preference",
            "agreement_reference",
            "same_measure",
            "measure_groups",
            "min_headline_n",
        ),
        seed=config_provider("seed"),
        ci_level=config_provider("analysis.ci_level"),
        code=script_code("atlas_agreement.py"),
    script:
        "../scripts/atlas_agreement.py"


rule atlas_heatmap:
    input:
        **{name: ancient(path) for name, path in _BENCHMARK_NAMES.items()},
        pairs=f"{ATLAS}/pairs.csv",
        # BenchBench's prettified names, for display only (atlas.benchmark_names; none: the ids)
    output:
        [
            (
                report(
                    f"{ATLAS}/figures/atlas_heatmap.{ext}",
                    caption="../report/atlas_heatmap.rst",
                    category="Validity atlas",
                    labels={"figure": "atlas heatmap"},
                )
                if ext == "png"
                else f"{ATLAS}/figures/atlas_heatmap.{ext}"
            )
            for ext in config["analysis"]["figures"]["formats"]
        ],
    log:
        logs("atlas_heatmap/atlas_heatmap.log"),
    benchmark:
        benchmarks("atlas_heatmap/atlas_heatmap.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", "human_preference", "heatmap_min_criteria"),
        alpha=config_provider("analysis.fdr.alpha"),
        dpi=config_provider("analysis.figures.dpi"),
        raw_content=raw_content(_BENCHMARK_NAMES.values()),  # derived: the declared sha256 of each raw input
        code=script_code("atlas_heatmap.py"),
    script:
        "../scripts/atlas_heatmap.py"


rule atlas_factor_structure:
    input:
        cells=f"{ATLAS}/cells.csv",
    output:
        scree=f"{ATLAS}/factor_structure/scree.csv",
        loadings=f"{ATLAS}/factor_structure/loadings.csv",
        g_check=f"{ATLAS}/factor_structure/g_method_check.csv",
        figures=[f"{ATLAS}/figures/factor_structure.{ext}" for ext in config["analysis"]["figures"]["formats"]],
    log:
        logs("atlas_factor_structure/atlas_factor_structure.log"),
    benchmark:
        benchmarks("atlas_factor_structure/atlas_factor_structure.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", "factor_structure", "aggregate_columns", "general_factor", "min_models"),
        dpi=config_provider("analysis.figures.dpi"),
        code=script_code("atlas_factor_structure.py"),
    script:
        "../scripts/atlas_factor_structure.py"


rule atlas_forest:
    input:
        **{name: ancient(path) for name, path in _BENCHMARK_NAMES.items()},
        table=f"{ATLAS}/human_preference.csv",
    output:
        table=f"{ATLAS}/forest.csv",
        figures=forest_figures(config),
    log:
        logs("atlas_forest/atlas_forest.log"),
    benchmark:
        benchmarks("atlas_forest/atlas_forest.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", "human_preference", "forest_top_k"),
        ci_level=config_provider("analysis.ci_level"),
        dpi=config_provider("analysis.figures.dpi"),
        raw_content=raw_content(_BENCHMARK_NAMES.values()),  # derived: the declared sha256 of each raw input
        code=script_code("atlas_forest.py"),
    script:
        "../scripts/atlas_forest.py"


rule atlas_explorer:
    input:
        human_preference=f"{ATLAS}/human_preference.csv",
        forest=f"{ATLAS}/forest.csv",
        pairs=f"{ATLAS}/pairs.csv",
        cells=f"{ATLAS}/cells.csv",
        models=f"{ATLAS}/registry/models.csv",
    output:
        page="results/explorer/index.html",
    log:
        logs("atlas_explorer/atlas_explorer.log"),
    benchmark:
        benchmarks("atlas_explorer/atlas_explorer.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", "human_preference", "forest_top_k"),
        ci_level=config_provider("analysis.ci_level"),
        code=script_code("atlas_explorer.py"),
    script:
        "../scripts/atlas_explorer.py"


rule atlas_crosscheck:
    input:
        **{name: ancient(path) for name, path in _CROSSCHECK_RAW.items()},  # mirror files: by content
        cells=f"{ATLAS}/cells.csv",
        names=f"{ATLAS}/registry/names.csv",
    output:
        table=f"{ATLAS}/open_llm_crosscheck.csv",
    log:
        logs("atlas_crosscheck/atlas_crosscheck.log"),
    benchmark:
        benchmarks("atlas_crosscheck/atlas_crosscheck.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", "obsscaling", "crosscheck", "min_models"),
        study=config_provider("studies.open_llm", default={}),
        mirror=lambda w: workdir_relative(LAYOUT.raw_root),  # derived: the raw-data folder of every input
        raw_content=raw_content(_CROSSCHECK_RAW.values()),  # derived: the declared sha256 of each raw input
        code=script_code("atlas_crosscheck.py"),
    script:
        "../scripts/atlas_crosscheck.py"


rule atlas_study_intervals:
    input:
        table="results/studies/{study}/score_table.csv",
        tasks="results/studies/{study}/tasks.csv",
    output:
        table=f"{ATLAS}/intervals/{{study}}.csv",
    log:
        logs("atlas_study_intervals/{study}.log"),
    benchmark:
        benchmarks("atlas_study_intervals/{study}.tsv")
    wildcard_constraints:
        study="[A-Za-z0-9_.-]+",
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", "min_models", "n_bootstrap"),
        seed=config_provider("seed"),
        ci_level=config_provider("analysis.ci_level"),
        code=script_code("atlas_study_intervals.py"),
    script:
        "../scripts/atlas_study_intervals.py"


rule atlas_g_choice:
    input:
        cells=f"{ATLAS}/cells.csv",
        models=f"{ATLAS}/registry/models.csv",
        study=f"{ATLAS}/studies/open_llm.csv",
        methods=ancient(_METHODS),  # repository file: its content a param below
    output:
        table=f"{ATLAS}/g_choice.csv",
    log:
        logs("atlas_g_choice/atlas_g_choice.log"),
    benchmark:
        benchmarks("atlas_g_choice/atlas_g_choice.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", *INCREMENTAL_KEYS, "report"),
        study=config_provider("studies.open_llm", default={}),
        repository_files=file_digests([_METHODS], workflow_root(workflow.basedir)),
        seed=config_provider("seed"),
        ci_level=config_provider("analysis.ci_level"),
        code=script_code("atlas_g_choice.py"),
    script:
        "../scripts/atlas_g_choice.py"


rule atlas_mtmm:
    input:
        pairs=f"{ATLAS}/pairs.csv",
        methods=ancient(_METHODS),  # repository file: its content a param below
    output:
        table=f"{ATLAS}/mtmm.csv",
        blocks=f"{ATLAS}/mtmm_blocks.csv",
        figures=[f"{ATLAS}/figures/mtmm.{ext}" for ext in config["analysis"]["figures"]["formats"]],
    log:
        logs("atlas_mtmm/atlas_mtmm.log"),
    benchmark:
        benchmarks("atlas_mtmm/atlas_mtmm.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        repository_files=file_digests([_METHODS], workflow_root(workflow.basedir)),
        dpi=config_provider("analysis.figures.dpi"),
        code=script_code("atlas_mtmm.py"),
    script:
        "../scripts/atlas_mtmm.py"


_REPORT_INPUTS = {
    "counts": f"{ATLAS}/counts.csv",
    "obs_agreement": f"{ATLAS}/obsscaling/agreement.csv",
    "obs_disagreements": f"{ATLAS}/obsscaling/disagreements.csv",
    "merges": f"{ATLAS}/registry/merges.csv",
    "unresolved": f"{ATLAS}/registry/unresolved.csv",
    "intervals": f"{ATLAS}/intervals/open_llm.csv",
    "crosscheck": f"{ATLAS}/open_llm_crosscheck.csv",
    "human_preference": f"{ATLAS}/human_preference.csv",
    "agreement": f"{ATLAS}/agreement_validity.csv",
    "pairs": f"{ATLAS}/pairs.csv",
    "scree": f"{ATLAS}/factor_structure/scree.csv",
    "loadings": f"{ATLAS}/factor_structure/loadings.csv",
    "g_check": f"{ATLAS}/factor_structure/g_method_check.csv",
    "identity": f"{ATLAS}/registry/identity_check.csv",
    "identity_blind": f"{ATLAS}/registry/identity_check_blind.csv",
    "identity_agreement": f"{ATLAS}/registry/identity_agreement.csv",
    "overlaps": f"{ATLAS}/registry/overlaps.csv",
    "identity_targeted": f"{ATLAS}/registry/identity_targeted.csv",
    "study_models": f"{ATLAS}/study_models/open_llm.csv",
    "g_choice": f"{ATLAS}/g_choice.csv",
    "mtmm_blocks": f"{ATLAS}/mtmm_blocks.csv",
}


rule atlas_report:
    input:
        **_REPORT_INPUTS,
    output:
        page=f"{ATLAS}/report.md",
        html=report(
            f"{ATLAS}/report.html",
            caption="../report/atlas_report.rst",
            category="Validity atlas",
            labels={"page": "atlas report"},
        ),
    log:
        logs("atlas_report/atlas_report.log"),
    benchmark:
        benchmarks("atlas_report/atlas_report.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        atlas=config_provider("atlas", "human_preference", "report", "min_headline_n"),
        # shown in the report (its params sit in a <script> block there): JSON with < > & escaped; a function,
        # as Snakemake would read a string's {mirror} as a wildcard
        study=lambda wildcards: script_safe_json(config_provider("studies.open_llm", default={})),
        alpha=config_provider("analysis.fdr.alpha"),
        code=script_code("atlas_report.py"),
    script:
        "../scripts/atlas_report.py"
