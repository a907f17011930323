"""Rule commonwhy_eval_table2: results.csv, Table 2 layout per source and the figure."""

from benchval.commonwhy.eval.steps.commonwhy_eval_table2 import stage_table2
from benchval.plumbing.job import start_job

sm = snakemake  # noqa: F821
job = start_job(sm)
systems = {
    name: {"metrics": m, "judged": j, "factscore": f}
    for name, m, j, f in zip(job.params["systems"], sm.input.metrics, sm.input.judged, sm.input.factscore)
}
stage_table2(
    sm.input.questions,
    systems,
    sm.input.validity,
    sm.output.results,
    dict(zip(job.params["sources"], sm.output.tables)),
    sm.output.figure,
    job.params["factscore_min_coverage"],
    job.params["bertscore_note"],
    judges_measured=str(sm.input.judges[0]) if sm.input.judges else None,
    factscore_references=sm.input.factscore_references,
)
