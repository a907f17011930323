# Robustness of every study (docs/analysis.md, "Task reliability", "Power planning", "Specification
# robustness"): section `robustness:` of the config (workflow/schemas/robustness.schema.yaml). Each rule
# runs for every study the config declares; scored studies also read their stored item-level scores
# (no model reruns), imported ones the item counts their task entries declare (`n_items`). The report page
# of the specification table: workflow/rules/report.smk.
from benchval.jobs.layout import (
    SCORE_TABLE,
    SCORES,
    STUDY_TASKS,
    TASK_ITEMS,
    TASK_META,
    TASK_RELIABILITY_TABLE,
    POWER_TABLE,
    SPECIFICATION_TABLE,
    fill,
    workflow_layout,
)
from benchval.jobs.reruns import canonical, script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.analysis.declared_items import declared_item_counts
from benchval.lmeval import samples_studies
from benchval.jobs.study_inputs import study_raw_sources, study_source_input
from benchval.jobs.rule_files import raw_content_of

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
raw_content = raw_content_of(LAYOUT)  # raw inputs by content (benchval.jobs.rule_files.raw_content)
# (model, task) pairs whose stored scores a scored study's robustness rules read; none if imported
_item_pairs = lambda study: (
    [[m, t] for m in LAYOUT.study_models(study) for t in LAYOUT.study_tasks(study)]
    if study in LAYOUT.scored_studies
    else []
)
_item_tasks = lambda study: sorted({task for _, task in _item_pairs(study)})
# The item files, task metas and stored scores of those pairs
_item_inputs = lambda w: {
    "task_items": [fill(TASK_ITEMS, task=t) for t in _item_tasks(w.study)],
    "metas": [fill(TASK_META, task=t) for t in _item_tasks(w.study)],
    "scores": [fill(SCORES, model=m, task=t) for m, t in _item_pairs(w.study)],
}
# An lm_eval study read item by item (`samples:`): its entry and the mirror, for reliability from its samples
# files, and its lm-eval output folder as an input, so that new runs rerun it; None and [] for another study
_SAMPLES_STUDIES = set(samples_studies(LAYOUT.studies))
_samples_study = lambda study: (
    canonical({"study": LAYOUT.studies[study], "mirror": workdir_relative(LAYOUT.mirror)})
    if study in _SAMPLES_STUDIES
    else None
)
_samples_folder = lambda w: [study_source_input(LAYOUT, w.study)] if w.study in _SAMPLES_STUDIES else []
# Its content (declared sha256 in the mirror, else digests): new bytes rerun it, a copy with new mtimes does not
_samples_content = lambda w: (raw_content(study_raw_sources(LAYOUT, w.study)) if w.study in _SAMPLES_STUDIES else None)
# The scored study's normalisation (imported studies have none)
_normalisation = lambda w: config_provider("scoring.normalisation") if w.study in LAYOUT.scored_studies else None


rule task_reliability:
    input:
        unpack(_item_inputs),
        lmeval_samples=_samples_folder,
        table=SCORE_TABLE,
        tasks=STUDY_TASKS,
    output:
        table=TASK_RELIABILITY_TABLE,
    log:
        logs("task_reliability/{study}.log"),
    benchmark:
        benchmarks("task_reliability/{study}.tsv")
    wildcard_constraints:
        study="[^/]+",
    localrule: True  # seconds of numpy on stored scores
    conda:
        "../envs/benchval.yaml"
    params:
        pairs=lambda w: _item_pairs(w.study),  # derived: the scored study's models x tasks
        item_counts=lambda w: canonical(declared_item_counts(LAYOUT.studies[w.study])),  # derived: studies.<study>.tasks.<task>.n_items
        normalisation=_normalisation,  # derived: scoring.normalisation, for a scored study
        lmeval=lambda w: _samples_study(w.study),  # derived: studies.<study> and the mirror, for a samples study
        lmeval_content=_samples_content,  # derived: the content of its samples folder, for a samples study
        settings=canonical(
            {
                "seed": config_provider("seed"),
                **config_provider("analysis", "metrics", "min_models"),
                **config_provider("robustness.reliability", "n_bootstrap", "n_splits"),
            }
        ),
        code=script_code("task_reliability.py"),
    script:
        "../scripts/task_reliability.py"


rule power_planning:
    input:
        table=SCORE_TABLE,
        tasks=STUDY_TASKS,
        reliability=TASK_RELIABILITY_TABLE,
    output:
        table=POWER_TABLE,
    log:
        logs("power_planning/{study}.log"),
    benchmark:
        benchmarks("power_planning/{study}.tsv")
    wildcard_constraints:
        study="[^/]+",
    localrule: True  # seconds of vectorised simulation
    conda:
        "../envs/benchval.yaml"
    params:
        power=config_provider("robustness.power"),
        seed=config_provider("seed"),
        alpha=config_provider("analysis.fdr.alpha"),
        min_models=config_provider("analysis.min_models"),
        ridge_alpha=config_provider("analysis.ridge_alpha"),
        code=script_code("power_planning.py"),
    script:
        "../scripts/power_planning.py"


rule specification_robustness:
    input:
        unpack(_item_inputs),
        table=SCORE_TABLE,
        tasks=STUDY_TASKS,
    output:
        table=SPECIFICATION_TABLE,
        figures=LAYOUT.study_figure_files("{study}", ["specification_curve"]),
    log:
        logs("specification_robustness/{study}.log"),
    benchmark:
        benchmarks("specification_robustness/{study}.tsv")
    wildcard_constraints:
        study="[^/]+",
    localrule: True  # the analysis statistics a few times over, on stored scores
    conda:
        "../envs/benchval.yaml"
    params:
        pairs=lambda w: _item_pairs(w.study),  # derived: the scored study's models x tasks
        normalisation=_normalisation,  # derived: scoring.normalisation, for a scored study
        grid=config_provider("robustness.specification"),
        # the whole `analysis:` section (every statistic is recomputed under the grid), seed filled in
        analysis=config_provider("analysis", defaults={"seed": "seed"}),
        notice=config_provider("studies.{study}.notice", default=None),
        code=script_code("specification_robustness.py"),
    script:
        "../scripts/specification_robustness.py"
