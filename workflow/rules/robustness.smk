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
from benchval.jobs.rules import robustness as robustness_functions

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)


rule task_reliability:
    input:
        unpack(lambda w: robustness_functions.item_level_inputs(LAYOUT, w.study)),
        lmeval_samples=robustness_functions.lmeval_samples_folder(LAYOUT),
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
        pairs=lambda w: robustness_functions.item_level_pairs(LAYOUT, w.study),  # derived: keys named in its docstring
        item_counts=lambda w: canonical(robustness_functions.declared_item_counts(LAYOUT, w.study)),  # derived: keys named in its docstring
        normalisation=lambda w: robustness_functions.normalisation(LAYOUT, config_provider, w.study),  # derived: keys named in its docstring
        lmeval=lambda w: robustness_functions.lmeval_samples_study(LAYOUT, w.study),  # derived: keys named in its docstring
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
        unpack(lambda w: robustness_functions.item_level_inputs(LAYOUT, w.study)),
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
        pairs=lambda w: robustness_functions.item_level_pairs(LAYOUT, w.study),  # derived: keys named in its docstring
        normalisation=lambda w: robustness_functions.normalisation(LAYOUT, config_provider, w.study),  # derived: keys named in its docstring
        grid=config_provider("robustness.specification"),
        # the whole `analysis:` section (every statistic is recomputed under the grid), seed filled in
        analysis=config_provider("analysis", defaults={"seed": "seed"}),
        notice=config_provider("studies.{study}.notice", default=None),
        code=script_code("specification_robustness.py"),
    script:
        "../scripts/specification_robustness.py"
