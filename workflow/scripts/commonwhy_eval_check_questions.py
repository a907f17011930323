"""Rule commonwhy_eval_check_questions: the judge check set's questions (seeded, capped per family)."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.stage_check_questions(
    sm.input.published, sm.input.constructed, sm.params.settings, sm.params.seed, sm.output.questions, sm.output.report
)
