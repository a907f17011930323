"""Rule commonwhy_eval_table2: results.csv, Table 2 layout per source and the figure."""

import logging

from benchval.commonwhy.eval import run

sm = snakemake  # noqa: F821
# force: an imported library may already have configured the root logger
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s", force=True)
run.set_threads(sm.threads)
systems = {name: {"metrics": m, "judged": j, "factscore": f} for name, m, j, f in
           zip(sm.params.systems, sm.input.metrics, sm.input.judged, sm.input.factscore)}
run.stage_table2(sm.input.questions, systems, sm.input.validity, sm.output.results,
                 dict(zip(sm.params.sources, sm.output.tables)), sm.output.figure, sm.params.factscore_min_coverage,
                 sm.params.bertscore_note, judges_measured=str(sm.input.judges[0]) if sm.input.judges else None)
