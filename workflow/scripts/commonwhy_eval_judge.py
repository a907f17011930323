"""Rule commonwhy_eval_judge: judge every system's answers (only with a judge that passed its check)."""

from benchval.commonwhy.eval.steps.commonwhy_eval_judge import stage_judge
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, light=False)  # a model job; torch is imported only if a model is loaded
systems = job.params["systems"]
stage_judge(
    sm.input.questions,
    dict(zip(systems, sm.input.answers)),
    job.params["settings"],
    job.params["models"],
    dict(zip(systems, sm.output.judged)),
    sm.input.validity,
    use_torch=job.use_torch,
)
