# lm_eval studies recomputed from lm-eval's samples files (benchval.lmeval, docs/configuration.md
# "lm-eval studies"): beside the score table (rule import_score_table), the item-bootstrap 95% interval
# of every score, results/studies/{study}/tables/item_intervals.csv. Seconds of pandas: a local rule.
from benchval.jobs.layout import STUDY_TABLE, alternatives, fill, workflow_layout
from benchval.lmeval import samples_studies
from benchval.jobs.reruns import canonical, script_code_for, workdir_relative

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
LAYOUT = workflow_layout(config)
LMEVAL_ITEM_INTERVALS = fill(STUDY_TABLE, name="item_intervals")


def _lmeval_source(wildcards):
    from benchval.analysis.study_import import expand_path

    return workdir_relative(expand_path(LAYOUT.studies[wildcards.study]["path"], LAYOUT.mirror))


rule lmeval_item_intervals:
    input:
        source=_lmeval_source,
    output:
        intervals=LMEVAL_ITEM_INTERVALS,
    log:
        "logs/lmeval_item_intervals/{study}.log",
    benchmark:
        "logs/benchmarks/lmeval_item_intervals/{study}.tsv"
    wildcard_constraints:
        study=alternatives(samples_studies(LAYOUT.studies)),
    localrule: True
    params:
        study=lambda w: canonical(LAYOUT.studies[w.study]),
        mirror=workdir_relative(LAYOUT.mirror),
        seed=config["seed"],
        code=script_code("lmeval_item_intervals.py"),
    script:
        "../scripts/lmeval_item_intervals.py"
