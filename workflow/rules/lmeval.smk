# lm_eval studies recomputed from lm-eval's samples files (benchval.lmeval, docs/configuration.md
# "lm-eval studies"): beside the score table (rule import_score_table), the item-bootstrap 95% interval
# of every score, results/studies/{study}/tables/item_intervals.csv. Seconds of pandas: a local rule.
from benchval.jobs.layout import PAIRED_TABLE, SCOREBOARD_TABLE, STUDY_TABLE, alternatives, fill, workflow_layout
from benchval.lmeval import samples_studies
from benchval.jobs.reruns import canonical, script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.analysis.study_import import expand_path
from benchval.jobs.rule_files import content_digests
from benchval.analysis.settings import settings_from_config
from benchval.plumbing.folders import workflow_root

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
LMEVAL_ITEM_INTERVALS = fill(STUDY_TABLE, name="item_intervals")
# Of the analysis settings, only what the bootstrap reads (analysis.seed, else seed; analysis.n_bootstrap,
# analysis.ci_level, as benchval.analysis.settings resolves them): other analysis settings rerun nothing
_ANALYSIS = settings_from_config({"seed": config["seed"], **config["analysis"]})
_BOOTSTRAP = canonical({"seed": _ANALYSIS.seed, "n_bootstrap": _ANALYSIS.n_bootstrap, "ci_level": _ANALYSIS.ci_level})
# A study's source file or folder (its `path`, the mirror expanded), from the working directory
_study_source = lambda w: workdir_relative(expand_path(LAYOUT.studies[w.study]["path"], LAYOUT.mirror))
# An lm_eval study's model-registry rules file: an ancient input, its content a param, so that editing it
# reruns the import and a fresh clone does not
_family_rules = lambda study: (
    [LAYOUT.studies[study]["family_rules"]] if LAYOUT.studies[study].get("family_rules") else []
)
_family_rules_content = lambda w: content_digests(_family_rules(w.study), workflow_root(workflow.basedir))


rule lmeval_item_intervals:
    input:
        source=_study_source,
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


# The scoreboard (table, figure) and the paired comparisons of an lm_eval study with samples, as a scored
# study gets them from rules scoreboard and paired_comparisons (scoreboard.smk; docs/analysis.md "Scoreboard"):
# counted from the predictions its score table is counted from (benchval.lmeval.steps.lmeval_scoreboard).
rule lmeval_scoreboard:
    input:
        source=_study_source,
        family_rules=lambda w: ancient(_family_rules(w.study)),
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
        family_rules=_family_rules_content,  # derived: the content of studies.<study>.family_rules
        mirror=workdir_relative(LAYOUT.mirror),  # derived: mirror, workdir-relative
        bootstrap=_BOOTSTRAP,  # derived: seed, analysis.{seed,n_bootstrap,ci_level}
        figure_formats=config_provider("analysis.figures.formats"),
        figure_dpi=config_provider("analysis.figures.dpi"),
        notice=config_provider("studies.{study}.notice", default=None),
        code=script_code("lmeval_scoreboard.py"),
    script:
        "../scripts/lmeval_scoreboard.py"
