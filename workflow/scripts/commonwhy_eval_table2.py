"""Rule commonwhy_eval_table2: results.csv, Table 2 layout per source and the figure."""

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
run.start_job(sm)
systems = {
    name: {"metrics": m, "judged": j, "factscore": f}
    for name, m, j, f in zip(sm.params.systems, sm.input.metrics, sm.input.judged, sm.input.factscore)
}
run.stage_table2(
    sm.input.questions,
    systems,
    sm.input.validity,
    sm.output.results,
    dict(zip(sm.params.sources, sm.output.tables)),
    sm.output.figure,
    sm.params.factscore_min_coverage,
    sm.params.bertscore_note,
    judges_measured=str(sm.input.judges[0]) if sm.input.judges else None,
    factscore_references=sm.input.factscore_references,
)
