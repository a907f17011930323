"""Rule atlas_report: the report page."""

from __future__ import annotations

from pathlib import Path


def write_report(atlas: dict, study: dict, alpha: float, inputs: dict, out_md, out_html) -> None:
    """Rule atlas_report: the report page, markdown and HTML (benchval.atlas.report)."""
    from benchval.atlas.report import report_html, report_page

    report = atlas["report"]
    settings = {
        "criterion": atlas["human_preference"]["agreement_criterion"],
        "min_headline_n": int(atlas["min_headline_n"]),
        "top": int(report["top"]),
        "alpha": alpha,
        "study_predictors": report["study_predictors"],
        "study_criteria": report["study_criteria"],
        "study_columns": {task: spec["column"] for task, spec in study["tasks"].items()},
    }
    for path, text in ((out_md, report_page(inputs, settings)), (out_html, report_html(inputs, settings))):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text, encoding="utf-8")
