"""Rule commonwhy_eval_judge_canaries: the rule-based canary judges through the judge gate."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.stage_judge_canaries(sm.input.pairs, sm.params.settings, sm.params.seed, sm.output.scores, sm.output.validity)
