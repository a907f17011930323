"""Rule commonwhy_eval_bertscore_baseline: BERTScore's rescaling baseline for the configured encoder."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_bertscore_baseline(
    sm.params.settings, sm.params.encoder_dir, sm.input.corpus, sm.params.seed, sm.output.baseline, sm.output.report
)
