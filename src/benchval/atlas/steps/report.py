"""Rule atlas_report: the report page."""

from __future__ import annotations

from pathlib import Path


def write_report(atlas: dict, inputs: dict, out_md, out_html) -> None:
    """Rule atlas_report: the report page, markdown and HTML (benchval.atlas.report)."""
    from benchval.atlas.report import report_html, report_page

    arguments = (inputs, atlas["human_preference"]["agreement_criterion"], atlas["report_study_criterion"])
    for path, text in ((out_md, report_page(*arguments)), (out_html, report_html(*arguments))):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text, encoding="utf-8")
