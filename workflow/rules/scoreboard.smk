# The scoreboard of every scored study (docs/analysis.md, "Scoreboard"): per model and task, accuracy
# and macro-F1 with item-bootstrap CIs and chance levels, as a table and a figure. It reads the items,
# scores and metrics files that scoring and evaluation already wrote: no model reruns. Its report page:
# workflow/rules/report.smk. (The partial-Spearman sensitivity table became a dimension of the specification
# grid: workflow/rules/robustness.smk.)
from benchval.jobs.layout import (
    CALIBRATED,
    METRICS,
    PAIRED_TABLE,
    SCOREBOARD_TABLE,
    SCORES,
    TASK_ITEMS,
    TASK_META,
    alternatives,
    fill,
    workflow_layout,
)
from benchval.jobs.reruns import canonical, script_code_for
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.jobs.study_inputs import bootstrap_settings, study_model_keys

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
_SCORED_STUDY_PATTERN = alternatives(LAYOUT.scored_studies)
# Every [model, task] of a scored study
_study_pairs = lambda study: [[m, t] for m in LAYOUT.study_models(study) for t in LAYOUT.study_tasks(study)]


rule scoreboard:
    input:
        task_items=lambda w: expand(TASK_ITEMS, task=LAYOUT.study_tasks(w.study)),
        metas=lambda w: expand(TASK_META, task=LAYOUT.study_tasks(w.study)),
        scores=lambda w: [fill(SCORES, model=m, task=t) for m, t in _study_pairs(w.study)],
        metrics=lambda w: [fill(METRICS, model=m, task=t) for m, t in _study_pairs(w.study)],
        # CommonWhy's criterion rows and tasks: whether each measure entered the study, and why not
        criteria=lambda w: LAYOUT.commonwhy_criterion_inputs(w.study),
    output:
        table=SCOREBOARD_TABLE,
        figures=LAYOUT.scoreboard_figure_files("{study}"),
    log:
        logs("scoreboard/{study}.log"),
    benchmark:
        benchmarks("scoreboard/{study}.tsv")
    wildcard_constraints:
        study=_SCORED_STUDY_PATTERN,
    conda:
        "../envs/benchval.yaml"
    params:
        tasks=config_provider("studies.{study}.tasks"),
        pairs=lambda w: _study_pairs(w.study),  # derived: the study's models x tasks
        models=lambda w: study_model_keys(LAYOUT, config_provider, w.study),  # derived: its models' entries
        labels=lambda w: canonical(LAYOUT.task_labels(w.study)),  # derived: the tasks' labels (tasks.<task>.label)
        normalisation=config_provider("scoring.normalisation"),
        bootstrap=bootstrap_settings(config),  # derived: seed, analysis.{seed,n_bootstrap,ci_level}
        code=script_code("scoreboard.py"),
        figure_formats=config_provider("analysis.figures.formats"),
        figure_dpi=config_provider("analysis.figures.dpi"),
        notice=config_provider("studies.{study}.notice", default=None),
    script:
        "../scripts/scoreboard.py"


rule paired_comparisons:
    """Every pair of the study's models on every task and pooled over its tasks: accuracy difference with
    a paired bootstrap interval, McNemar's test (benchval.evaluation.paired; docs/analysis.md)."""
    input:
        task_items=lambda w: expand(TASK_ITEMS, task=LAYOUT.study_tasks(w.study)),
        calibrated=lambda w: [fill(CALIBRATED, model=m, task=t) for m, t in _study_pairs(w.study)],
    output:
        table=PAIRED_TABLE,
    log:
        logs("paired_comparisons/{study}.log"),
    benchmark:
        benchmarks("paired_comparisons/{study}.tsv")
    wildcard_constraints:
        study=_SCORED_STUDY_PATTERN,
    conda:
        "../envs/benchval.yaml"
    params:
        tasks=config_provider("studies.{study}.tasks"),
        pairs=lambda w: _study_pairs(w.study),  # derived: the study's models x tasks
        bootstrap=bootstrap_settings(config),  # derived: seed, analysis.{seed,n_bootstrap,ci_level}
        code=script_code("paired_comparisons.py"),
    script:
        "../scripts/paired_comparisons.py"
