"""Rule commonwhy_published: the published dataset as a table (thin: calls benchval.commonwhy.entrypoints)."""

from benchval.commonwhy.entrypoints import published
from benchval.plumbing.raw_file_checks import verify_job_inputs
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm)
verify_job_inputs(sm)  # the raw files against their declared sha256
published(job.params["raw_dir"], sm.output.table, sm.output.report)
