"""Rule commonwhy_ground: the construction pipeline (thin: calls benchval.commonwhy.steps.commonwhy_ground)."""

from benchval.commonwhy.steps.commonwhy_ground import ground
from benchval.plumbing.raw_file_checks import verify_raw_files
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, light=False)  # the model jobs wait for it
verify_raw_files(list(sm.input), **job.params["raw_files"])  # the raw files against their declared sha256
ground(
    job.params["raw_dir"],
    job.params["commonwhy"],
    sm.input.store if hasattr(sm.input, "store") else None,
    sm.output.constructed,
    sm.output.report,
    sm.output.summary,
    annotations=list(sm.input.annotations),
)
