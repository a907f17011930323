# The scoreboard of every scored study (docs/analysis.md, "Scoreboard"): per model and task, accuracy
# and macro-F1 with item-bootstrap CIs and chance levels, as a table and a figure. It reads the items,
# scores and metrics files that scoring and evaluation already wrote: no model reruns.
# Needs from common.smk: SCORED_STUDIES, SCORED_STUDY_PATTERN, study_models, study_tasks.


def _scoreboard_formats():
    return ((config.get("analysis") or {}).get("figures") or {}).get("formats") or ["png", "pdf"]


def scoreboard_figure_files(study):
    return [f"results/studies/{study}/figures/scoreboard.{fmt}" for fmt in _scoreboard_formats()]


def scoreboard_table_file(study):
    return f"results/studies/{study}/tables/scoreboard.csv"


def scoreboard_publish_files(kind):
    """Every scored study's scoreboard figures (kind 'figures') or tables (kind 'tables'), for publish."""
    if kind == "figures":
        return [path for study in SCORED_STUDIES for path in scoreboard_figure_files(study)]
    return [scoreboard_table_file(study) for study in SCORED_STUDIES]


def scoreboard_report_files():
    """What the report shows of the scoreboards (see rule report_scoreboard)."""
    return [
        path
        for study in SCORED_STUDIES
        for path in (
            f"results/report/{study}/figures/scoreboard.png",
            f"results/report/{study}/tables/scoreboard.html",
        )
    ]


def _scoreboard_pairs(study):
    return [[model, task] for model in study_models(study) for task in study_tasks(study)]


def _scoreboard_bootstrap():
    """Only what the scoreboard uses, so that other analysis settings do not rerun it."""
    analysis = config.get("analysis") or {}
    return {
        "seed": analysis.get("seed", config["seed"]),
        "n_bootstrap": analysis["n_bootstrap"],
        "ci_level": analysis["ci_level"],
    }


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
        models=lambda w: {m: {k: config["models"][m][k] for k in ("family", "size_b")} for m in study_models(w.study)},
        labels=lambda w: {t: config["tasks"][t].get("label") or t for t in study_tasks(w.study)},
        normalisation=config["scoring"]["normalisation"],
        bootstrap=_scoreboard_bootstrap(),
        figure_formats=_scoreboard_formats(),
        figure_dpi=((config.get("analysis") or {}).get("figures") or {}).get("dpi", 150),
    wildcard_constraints:
        study=SCORED_STUDY_PATTERN,
    log:
        "logs/scoreboard/{study}.log",
    benchmark:
        "benchmarks/results/rules/scoreboard/{study}.tsv"
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
    wildcard_constraints:
        study=SCORED_STUDY_PATTERN,
    log:
        "logs/report_scoreboard/{study}.log",
    script:
        "../scripts/report_scoreboard.py"
