"""Rule commonwhy_eval_check_set: the judge's labelled check set from the data, the KG and the models' answers."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.stage_check_set(
    sm.input.published,
    sm.input.constructed,
    sm.params.kg,
    sm.input.get("store"),
    sm.params.settings,
    sm.params.seed,
    sm.output.pairs,
    sm.output.report,
    answers=dict(zip(sm.params.systems, sm.input.answers)),
)
