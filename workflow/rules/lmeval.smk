# lm_eval studies recomputed from lm-eval's samples files (benchval.lmeval, docs/configuration.md
# "lm-eval studies"): beside the score table (rule import_score_table), the item-bootstrap 95% interval
# of every score, results/studies/{study}/tables/item_intervals.csv. Seconds of pandas: a local rule.
from benchval.jobs.layout import STUDY_TABLE, alternatives, fill, workflow_layout
from benchval.lmeval import samples_studies
from benchval.jobs.reruns import script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.jobs.rules import analysis as analysis_functions

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
LMEVAL_ITEM_INTERVALS = fill(STUDY_TABLE, name="item_intervals")


rule lmeval_item_intervals:
    input:
        source=analysis_functions.study_source(LAYOUT),
    output:
        intervals=LMEVAL_ITEM_INTERVALS,
    log:
        logs("lmeval_item_intervals/{study}.log"),
    benchmark:
        benchmarks("lmeval_item_intervals/{study}.tsv")
    wildcard_constraints:
        study=alternatives(samples_studies(LAYOUT.studies)),
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        study=config_provider("studies.{study}"),
        mirror=workdir_relative(LAYOUT.mirror),  # derived: mirror, workdir-relative
        seed=config_provider("seed"),
        code=script_code("lmeval_item_intervals.py"),
    script:
        "../scripts/lmeval_item_intervals.py"
