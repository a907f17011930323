# The scoreboard of every scored study (docs/analysis.md, "Scoreboard"): per model and task, accuracy
# and macro-F1 with item-bootstrap CIs and chance levels, as a table and a figure. It reads the items,
# scores and metrics files that scoring and evaluation already wrote: no model reruns.
# Also the partial-Spearman sensitivity table of every study (docs/analysis.md, "Partial Spearman").
# Needs from common.smk: STUDIES, SCORED_STUDIES, SCORED_STUDY_PATTERN, study_models, study_tasks.
from benchval.workflow_support import canonical, script_code_for

script_code = script_code_for(workflow.current_basedir)  # see common.smk


def _scoreboard_formats():
    return ((config.get("analysis") or {}).get("figures") or {}).get("formats") or ["png", "pdf"]


def _scoreboard_dpi():
    from benchval.analysis.settings import settings_from_config

    return settings_from_config(config.get("analysis") or {}).figure_dpi


def scoreboard_figure_files(study):
    return [f"results/studies/{study}/figures/scoreboard.{fmt}" for fmt in _scoreboard_formats()]


def scoreboard_table_file(study):
    return f"results/studies/{study}/tables/scoreboard.csv"


def partial_sensitivity_table_file(study):
    return f"results/studies/{study}/tables/partial_spearman_sensitivity.csv"


def scoreboard_publish_files(kind):
    """Every scored study's scoreboard figures (kind 'figures') or tables (kind 'tables': the
    scoreboards and every study's partial-Spearman sensitivity table), for publish."""
    if kind == "figures":
        return [path for study in SCORED_STUDIES for path in scoreboard_figure_files(study)]
    return [scoreboard_table_file(study) for study in SCORED_STUDIES] + [
        partial_sensitivity_table_file(study) for study in STUDIES
    ]


def scoreboard_report_files():
    """What the report shows of the scoreboards (see rule report_scoreboard)."""
    return [
        path
        for study in SCORED_STUDIES
        for path in (
            f"results/report/{study}/figures/scoreboard.png",
            f"results/report/{study}/tables/scoreboard.html",
        )
    ] + [f"results/report/{study}/tables/partial_spearman_sensitivity.html" for study in STUDIES]


def _scoreboard_pairs(study):
    return [[model, task] for model in study_models(study) for task in study_tasks(study)]


def _scoreboard_bootstrap():
    """Only what the scoreboard uses, so that other analysis settings do not rerun it."""
    from benchval.analysis.settings import settings_from_config

    settings = settings_from_config({"seed": config["seed"], **(config.get("analysis") or {})})
    return {"seed": settings.seed, "n_bootstrap": settings.n_bootstrap, "ci_level": settings.ci_level}


rule scoreboard:
    input:
        task_items=lambda w: expand("results/tasks/{task}.parquet", task=study_tasks(w.study)),
        metas=lambda w: expand("results/tasks/{task}.meta.json", task=study_tasks(w.study)),
        scores=lambda w: [f"results/scores/{m}/{t}.parquet" for m, t in _scoreboard_pairs(w.study)],
        metrics=lambda w: [f"results/metrics/{m}/{t}.csv" for m, t in _scoreboard_pairs(w.study)],
    output:
        table=scoreboard_table_file("{study}"),
        figures=scoreboard_figure_files("{study}"),
    params:
        tasks=lambda w: study_tasks(w.study),
        pairs=lambda w: _scoreboard_pairs(w.study),
        models=lambda w: canonical(
            {m: {k: config["models"][m][k] for k in ("family", "size_b")} for m in study_models(w.study)}
        ),
        labels=lambda w: canonical({t: config["tasks"][t].get("label") or t for t in study_tasks(w.study)}),
        normalisation=config["scoring"]["normalisation"],
        bootstrap=canonical(_scoreboard_bootstrap()),
        code=script_code("scoreboard.py"),
        figure_formats=_scoreboard_formats(),
        figure_dpi=_scoreboard_dpi(),
    wildcard_constraints:
        study=SCORED_STUDY_PATTERN,
    log:
        "logs/scoreboard/{study}.log",
    benchmark:
        "logs/benchmarks/scoreboard/{study}.tsv"
    script:
        "../scripts/scoreboard.py"


rule report_scoreboard:
    input:
        figure="results/studies/{study}/figures/scoreboard.png",
        table=scoreboard_table_file("{study}"),
    output:
        figure=report(
            "results/report/{study}/figures/scoreboard.png",
            caption="../report/scoreboard.rst",
            category="Figures",
            subcategory="{study}",
            labels={"study": "{study}", "figure": "scoreboard"},
        ),
        table=report(
            "results/report/{study}/tables/scoreboard.html",
            caption="../report/table_scoreboard.rst",
            category="Tables",
            subcategory="{study}",
            labels={"study": "{study}", "table": "scoreboard"},
        ),
    params:
        code=script_code("report_scoreboard.py"),
    wildcard_constraints:
        study=SCORED_STUDY_PATTERN,
    log:
        "logs/report_scoreboard/{study}.log",
    benchmark:
        "logs/benchmarks/report_scoreboard/{study}.tsv"
    script:
        "../scripts/report_scoreboard.py"


def _partial_sensitivity_params():
    """Only the analysis settings the sensitivity table uses."""
    analysis = config.get("analysis") or {}
    keep = ("min_models", "metrics", "control_composite")
    params = {key: analysis[key] for key in keep if key in analysis}
    if "alpha" in (analysis.get("fdr") or {}):
        params["fdr"] = {"alpha": analysis["fdr"]["alpha"]}
    return params


rule partial_sensitivity:
    input:
        table="results/studies/{study}/score_table.csv",
        tasks="results/studies/{study}/tasks.csv",
    output:
        table=partial_sensitivity_table_file("{study}"),
    params:
        analysis=canonical(_partial_sensitivity_params()),
        code=script_code("partial_sensitivity.py"),
    wildcard_constraints:
        study="[^/]+",
    log:
        "logs/partial_sensitivity/{study}.log",
    benchmark:
        "logs/benchmarks/partial_sensitivity/{study}.tsv"
    script:
        "../scripts/partial_sensitivity.py"


rule report_partial_sensitivity:
    input:
        partial_sensitivity_table_file("{study}"),
    output:
        report(
            "results/report/{study}/tables/partial_spearman_sensitivity.html",
            caption="../report/table_partial_spearman_sensitivity.rst",
            category="Tables",
            subcategory="{study}",
            labels={"study": "{study}", "table": "partial_spearman_sensitivity"},
        ),
    params:
        name="partial_spearman_sensitivity",
        code=script_code("report_table_page.py"),
    log:
        "logs/report_partial_sensitivity/{study}.log",
    benchmark:
        "logs/benchmarks/report_partial_sensitivity/{study}.tsv"
    script:
        "../scripts/report_table_page.py"
