"""Functions of workflow/rules/report.smk: the report's pages of each study and the findings page's inputs."""

from __future__ import annotations

from benchval.jobs.layout import (
    PAIRED_TABLE,
    SCOREBOARD_TABLE,
    STUDY_FIGURE,
    REPORT_STUDY_FIGURE,
    REPORT_STUDY_TABLE,
    SCORE_TABLE,
    SPECIFICATION_TABLE,
    STUDY_TABLE,
    STUDY_TASKS,
    Layout,
    fill,
)
from benchval.report.findings import ANALYSIS_INPUTS, KEY_FIGURES


def report_table_csv(name: str) -> str:
    """Where a study's table lives (docs/data-contract.md)."""
    return {"score_table": SCORE_TABLE, "task_table": STUDY_TASKS}.get(name, fill(STUDY_TABLE, name=name))


def study_figure_page(stem: str) -> dict:
    """A study's figure in the report, captioned by workflow/report/<stem>.rst: the arguments of Snakemake's
    ``report()``."""
    return {
        "value": fill(REPORT_STUDY_FIGURE, stem=stem),
        "caption": f"../report/{stem}.rst",
        "category": "Figures",
        "subcategory": "{study}",
        "labels": {"study": "{study}", "figure": stem},
    }


def study_table_page(name: str) -> dict:
    """A study's table as an HTML page in the report, captioned by workflow/report/table_<name>.rst: the
    arguments of Snakemake's ``report()``."""
    return {
        "value": fill(REPORT_STUDY_TABLE, name=name),
        "caption": f"../report/table_{name}.rst",
        "category": "Tables",
        "subcategory": "{study}",
        "labels": {"study": "{study}", "table": name},
    }


def findings_inputs(layout: Layout) -> dict[str, str]:
    """The tables of every study the findings page reads, a scored study's scoreboard and paired comparisons,
    and the PNG figures it embeds (all made by the run anyway: the page adds no job)."""
    return {
        f"{study}/{name}": path
        for study in layout.studies
        for name, path in study_findings_inputs(layout, study).items()
    }


def study_findings_inputs(layout: Layout, study: str) -> dict[str, str]:
    """What the findings page reads of one ``study`` (rule findings, and rule study_findings of its own page)."""
    inputs = {name: fill(STUDY_TABLE, study=study, name=name) for name in ANALYSIS_INPUTS}
    inputs["specification_robustness"] = fill(SPECIFICATION_TABLE, study=study)
    inputs["tasks"] = fill(STUDY_TASKS, study=study)
    stems = list(KEY_FIGURES)
    if study in layout.scoreboard_studies():
        inputs["scoreboard"] = fill(SCOREBOARD_TABLE, study=study)
        inputs["paired_comparisons"] = fill(PAIRED_TABLE, study=study)
        stems.append("scoreboard")
    if "png" in layout.figure_formats:
        for stem in stems:
            inputs[f"figure/{stem}"] = fill(STUDY_FIGURE, study=study, stem=stem, fmt="png")
    return inputs


def report_evidence(layout: Layout, figure_stems) -> dict[str, list[str]]:
    """What must exist before ``snakemake --report`` (benchval.plumbing.report_request): per study, the report's
    figures of it; per model of a scored study, its metrics files. A folder that holds another configuration's
    run (the default study's pages, looked at with config/paper.yaml, whose study is also called `default`)
    then still lacks the models of this one."""
    from benchval.jobs.layout import METRICS

    evidence = {
        f"study {study!r}": [fill(REPORT_STUDY_FIGURE, study=study, stem=stem) for stem in figure_stems]
        for study in layout.studies
    }
    for study in layout.scored_studies:
        for model in layout.study_models(study):
            files = [fill(METRICS, model=model, task=task) for task in layout.study_tasks(study)]
            evidence[f"model {model!r} of study {study!r}"] = files
    return evidence
