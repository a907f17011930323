"""Rule kg_store: the LitWD1K store (thin: calls benchval.commonwhy.steps.commonwhy_kg_store)."""

from benchval.commonwhy.steps.commonwhy_kg_store import build_store
from benchval.plumbing.raw_file_checks import verify_raw_files
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, light=False)  # the model jobs wait for it
verify_raw_files(list(sm.input), **job.params["raw_files"])  # the raw files against their declared sha256
build_store(
    job.params["litwd1k_dir"],
    sm.output.store,
    sm.output.stats,
    infer_time_precision=job.params["infer_time_precision"],
)
