# Config loading and the wildcard constraints. Paths, name patterns and the studies' models, tasks
# and pairs live in benchval.plumbing.layout, which every rule file imports itself (docs/workflow.md, "Layout").
from snakemake.utils import validate

from benchval.plumbing.config import check_command_line, check_references, check_sections_are_mappings
from benchval.plumbing.layout import alternatives, workflow_layout
from benchval.plumbing.strict_yaml import check_no_duplicate_keys
from benchval.tasks.variants import add_task_variants

check_command_line(workflow.config_settings.config)
check_no_duplicate_keys(workflow.configfiles)  # config.yaml, the catalogue, every --configfile
check_sections_are_mappings(config)
validate(config, "../schemas/config.schema.yaml")
LAYOUT = workflow_layout(config)  # fills the nested schema defaults validate() leaves out
add_task_variants(config)  # catalogue `variants` -> tasks <task>__<value>; studies with sensitivity_variants list them
check_references(config)


wildcard_constraints:
    model=alternatives(config["models"]),
    task=alternatives(config["tasks"]),
