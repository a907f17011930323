"""Rule commonwhy_published: the published dataset as a table (benchval.commonwhy.steps.commonwhy_published)."""

from benchval.commonwhy.steps.commonwhy_published import published
from benchval.plumbing.raw_file_checks import verify_raw_files
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, light=False)  # the model jobs wait for it
verify_raw_files(list(sm.input), **job.params["raw_files"])  # the raw files against their declared sha256
published(job.params["raw_dir"], sm.output.table, sm.output.report)
