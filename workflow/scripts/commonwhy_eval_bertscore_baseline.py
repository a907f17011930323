"""Rule commonwhy_eval_bertscore_baseline: BERTScore's rescaling baseline for the configured encoder."""

from benchval.commonwhy.eval.steps.commonwhy_eval_bertscore_baseline import stage_bertscore_baseline
from benchval.plumbing.raw_file_checks import verify_raw_files
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, torch=True)
verify_raw_files(
    list(sm.input), **job.params["raw_files"]
)  # the baseline corpus (a raw mirror file) against its declared sha256
stage_bertscore_baseline(
    job.params["settings"],
    job.params["encoder_dir"],
    sm.input.corpus,
    job.params["seed"],
    sm.output.baseline,
    sm.output.report,
)
