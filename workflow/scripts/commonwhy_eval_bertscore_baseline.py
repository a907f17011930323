"""Rule commonwhy_eval_bertscore_baseline: BERTScore's rescaling baseline for the configured encoder."""

from benchval.commonwhy.eval import run
from benchval.plumbing.raw_file_checks import verify_job_inputs

sm = snakemake  # noqa: F821
run.start_job(sm)
verify_job_inputs(sm)  # the baseline corpus (a raw mirror file) against its declared sha256
run.stage_bertscore_baseline(
    sm.params.settings, sm.params.encoder_dir, sm.input.corpus, sm.params.seed, sm.output.baseline, sm.output.report
)
