"""Rule commonwhy_eval_bertscore_baseline: BERTScore's rescaling baseline for the configured encoder."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.set_threads(job_torch_threads(sm))
run.stage_bertscore_baseline(
    sm.params.settings, sm.params.encoder_dir, sm.input.corpus, sm.params.seed, sm.output.baseline, sm.output.report
)
