"""Rule commonwhy_eval_judge: judge every system's answers (only with a judge that passed its check)."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.set_threads(job_torch_threads(sm))
run.stage_judge(
    sm.input.questions,
    dict(zip(sm.params.systems, sm.input.answers)),
    sm.params.settings,
    sm.params.models,
    dict(zip(sm.params.systems, sm.output.judged)),
    sm.input.validity,
)
