# lm_eval studies recomputed from lm-eval's samples files (benchval.lmeval, docs/configuration.md
# "lm-eval studies"): beside the score table (rule import_score_table), the item-bootstrap 95% interval
# of every score, results/studies/{study}/tables/item_intervals.csv. Seconds of pandas: a local rule.
from benchval.jobs.layout import PAIRED_TABLE, SCOREBOARD_TABLE, STUDY_TABLE, alternatives, fill, workflow_layout
from benchval.lmeval import samples_studies
from benchval.jobs.reruns import script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.jobs.rule_files import raw_content_of
from benchval.jobs.study_inputs import (
    bootstrap_settings,
    study_family_rules,
    study_family_rules_digests,
    study_raw_sources,
    study_source_input,
)

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
raw_content = raw_content_of(LAYOUT)  # raw inputs by content (benchval.jobs.rule_files.raw_content)
LMEVAL_ITEM_INTERVALS = fill(STUDY_TABLE, name="item_intervals")


rule lmeval_item_intervals:
    input:
        source=lambda w: study_source_input(LAYOUT, w.study),  # a raw or user file: by content
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
        raw_content=lambda w: raw_content(study_raw_sources(LAYOUT, w.study)),  # derived: its source's sha256
        mirror=workdir_relative(LAYOUT.mirror),  # derived: mirror, workdir-relative
        seed=config_provider("seed"),
        code=script_code("lmeval_item_intervals.py"),
    script:
        "../scripts/lmeval_item_intervals.py"


# The scoreboard (table, figure) and the paired comparisons of an lm_eval study with samples, as a scored
# study gets them from rules scoreboard and paired_comparisons (scoreboard.smk; docs/analysis.md "Scoreboard"):
# counted from the predictions its score table is counted from (benchval.lmeval.steps.lmeval_scoreboard).
rule lmeval_scoreboard:
    input:
        source=lambda w: study_source_input(LAYOUT, w.study),  # a raw or user file: by content
        family_rules=lambda w: ancient(study_family_rules(LAYOUT, w.study)),
    output:
        table=SCOREBOARD_TABLE,
        figures=LAYOUT.scoreboard_figure_files("{study}"),
        paired=PAIRED_TABLE,
    log:
        logs("lmeval_scoreboard/{study}.log"),
    benchmark:
        benchmarks("lmeval_scoreboard/{study}.tsv")
    wildcard_constraints:
        study=alternatives(samples_studies(LAYOUT.studies)),
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        study=config_provider("studies.{study}"),
        family_rules=lambda w: study_family_rules_digests(LAYOUT, w.study, workflow.basedir),  # derived: its content
        raw_content=lambda w: raw_content(study_raw_sources(LAYOUT, w.study)),  # derived: its source's sha256
        mirror=workdir_relative(LAYOUT.mirror),  # derived: mirror, workdir-relative
        bootstrap=bootstrap_settings(config),  # derived: seed, analysis.{seed,n_bootstrap,ci_level}
        figure_formats=config_provider("analysis.figures.formats"),
        figure_dpi=config_provider("analysis.figures.dpi"),
        notice=config_provider("studies.{study}.notice", default=None),
        code=script_code("lmeval_scoreboard.py"),
    script:
        "../scripts/lmeval_scoreboard.py"
