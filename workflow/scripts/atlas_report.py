"""Snakemake script: the atlas report page (benchval.atlas.steps.atlas_report)."""

from benchval.atlas.steps.atlas_report import write_report
from benchval.plumbing.job import start_job
from benchval.report.safe_text import from_script_safe_json

job = start_job(snakemake)
p = job.params
write_report(
    p["atlas"],
    from_script_safe_json(p["study"]),
    p["alpha"],
    dict(snakemake.input.items()),
    snakemake.output.page,
    snakemake.output.html,
)
