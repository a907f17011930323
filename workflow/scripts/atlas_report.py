"""Snakemake script: the atlas report page (benchval.atlas.steps.report)."""

from benchval.atlas.steps.report import write_report
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
write_report(snakemake.params.atlas, dict(snakemake.input.items()), snakemake.output.page, snakemake.output.html)
