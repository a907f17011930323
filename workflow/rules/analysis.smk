# Analysis of each study (docs/analysis.md): import an existing score table (csv / lm_eval studies),
# then compute the paper's statistics, tables and Figures 1-4 from score_table.csv + tasks.csv.
from benchval.analysis.outputs import FIGURE_STEMS, TABLE_NAMES


def _analysis_params():
    """The `analysis:` section, with the top-level seed unless analysis.seed is set."""
    section = dict(config.get("analysis") or {})
    section.setdefault("seed", config["seed"])
    return section


def _figure_formats():
    return ((config.get("analysis") or {}).get("figures") or {}).get("formats") or ["png", "pdf"]


def study_figure_files(study):
    """Figure files the analysis writes for `study` (also used by the publish rule)."""
    return [f"results/studies/{study}/figures/{stem}.{fmt}" for stem in FIGURE_STEMS for fmt in _figure_formats()]


def study_table_files(study):
    """Table files (CSV) the analysis writes for `study` (also used by the publish rule)."""
    return [f"results/studies/{study}/tables/{name}.csv" for name in TABLE_NAMES]


def _import_source(wildcards):
    """The imported study's source file or directory (mirror expanded)."""
    from benchval.analysis.importers import expand_path

    return str(expand_path(STUDIES[wildcards.study]["path"], MIRROR))


rule import_score_table:
    input:
        source=_import_source,
    output:
        table="results/studies/{study}/score_table.csv",
        tasks="results/studies/{study}/tasks.csv",
    params:
        study=lambda w: STUDIES[w.study],
        mirror=MIRROR,
    wildcard_constraints:
        study=IMPORTED_STUDY_PATTERN,
    log:
        "logs/import_score_table/{study}.log",
    script:
        "../scripts/import_score_table.py"


rule analyse_study:
    input:
        table="results/studies/{study}/score_table.csv",
        tasks="results/studies/{study}/tasks.csv",
    output:
        figures=study_figure_files("{study}"),
        tables=study_table_files("{study}"),
    params:
        analysis=_analysis_params(),
        out_dir=lambda w: f"results/studies/{w.study}",
    wildcard_constraints:
        study="[^/]+",
    log:
        "logs/analyse_study/{study}.log",
    script:
        "../scripts/analyse_study.py"
