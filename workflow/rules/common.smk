# Config loading and the wildcard constraints. Paths, name patterns and the studies' models, tasks
# and pairs live in benchval.jobs.layout, which every rule file imports itself (docs/workflow.md, "Layout").
import sys
from pathlib import Path

from snakemake.utils import validate

from benchval.plumbing.config import (
    check_command_line,
    check_references,
    check_sections_are_mappings,
    check_top_level_keys,
)
from benchval.plumbing.command_line import plans_jobs
from benchval.plumbing.identifiers import check_config_names, check_no_foreign_symlinks
from benchval.plumbing.config_values import check_bootstrap_costs, check_finite_numbers, check_schema
from benchval.plumbing.yaml_limits import check_yaml_limits
from benchval.lmeval.task_names import check_harness_tasks
from benchval.jobs.layout import alternatives, model_manifest, workflow_layout
from benchval.plumbing.planning_checks import check_hf_models, check_study_columns, study_sizes
from benchval.plumbing.strict_yaml import check_no_duplicate_keys
from benchval.tasks.variants import add_task_variants

check_command_line(workflow.config_settings.config)
check_yaml_limits(workflow.configfiles)  # size, depth and alias expansion, before anything reads the values
check_no_duplicate_keys(workflow.configfiles)  # config.yaml, the catalogue, every --configfile
check_top_level_keys(config)  # a mistyped key in one line, not the schema dump of validate()
check_sections_are_mappings(config)
check_schema(config)  # one line with the closest key, not validate()'s schema dump (benchval.plumbing.config_values)
check_finite_numbers(config)  # NaN passes every jsonschema bound
validate(config, "../schemas/config.schema.yaml")
LAYOUT = workflow_layout(config)  # fills the nested schema defaults validate() leaves out
LAYOUT.register_model_job_slots(workflow)  # locally, local.model_jobs_at_once model jobs at once
add_task_variants(config)  # catalogue `variants` -> tasks <task>__<value>; studies with sensitivity_variants list them
check_references(config)
# Names that become rule names or paths are identifiers, and no two share a rule or path
# (benchval.plumbing.identifiers); no output is written through a symlink leaving results/.
check_config_names(config, systems=LAYOUT.commonwhy_eval_systems())
# Planning-time checks (benchval.plumbing.planning_checks): a column a csv study's file lacks, and, for the
# command line's own run (not a cluster job, nor --report), a Hugging Face model that cannot be reached.


def _expand_study_path(path):
    return Path(path.replace("{mirror}", str(LAYOUT.raw_root)))


check_study_columns(config["studies"], _expand_study_path)
check_harness_tasks(config["studies"], _expand_study_path)  # an lm_eval task its results files do not hold
check_bootstrap_costs(
    config,
    study_sizes(config["studies"], _expand_study_path),  # a bootstrap too large refused, a long one warned
    lambda warning: print(warning, file=sys.stderr),
)
if plans_jobs(sys.argv):
    check_no_foreign_symlinks("results")
    check_hf_models(
        config["models"],
        sorted(set(LAYOUT.scored_study_models()) | set(LAYOUT.commonwhy_eval_systems()) & set(config["models"])),
        lambda model: Path(model_manifest(model)).exists(),
    )


wildcard_constraints:
    model=alternatives(config["models"]),
    task=alternatives(config["tasks"]),
