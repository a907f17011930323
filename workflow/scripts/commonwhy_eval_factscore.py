"""Rule commonwhy_eval_factscore: FActScore of every system's answers against the KG source."""

from benchval.commonwhy.eval.steps.commonwhy_eval_factscore import stage_factscore
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm, light=False)  # a model job; torch is imported only if a model is loaded
systems = job.params["systems"]
stage_factscore(
    dict(zip(systems, sm.input.answers)),
    dict(zip(systems, sm.input.judged)),
    job.params["settings"],
    job.params["models"],
    job.params["kg"],
    sm.input.get("store"),
    dict(zip(systems, sm.output.systems)),
    questions=sm.input.questions,
    references_out=sm.output.references,
    summary_out=sm.output.summary,
    use_torch=job.use_torch,
)
