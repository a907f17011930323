"""Rule commonwhy_eval_factscore: FActScore of every system's answers against the KG source."""

from benchval.commonwhy.eval import run
from benchval.joblog import log_to_file
from benchval.threads import job_torch_threads

sm = snakemake  # noqa: F821
log_to_file(sm.log[0])
run.set_threads(job_torch_threads(sm))
run.stage_factscore(
    dict(zip(sm.params.systems, sm.input.answers)),
    dict(zip(sm.params.systems, sm.input.judged)),
    sm.params.settings,
    sm.params.models,
    sm.params.kg,
    sm.input.get("store"),
    dict(zip(sm.params.systems, sm.output.systems)),
    questions=sm.input.questions,
    references_out=sm.output.references,
)
