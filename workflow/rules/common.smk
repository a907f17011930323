# Shared definitions: config validation, the studies' models and tasks, wildcard constraints.
import re

from snakemake.exceptions import WorkflowError

from benchval.config import check_command_line, check_references, check_sections_are_mappings, resolve_mirror
from benchval.tasks.variants import add_task_variants
from benchval.threads import model_job_threads
from benchval.workflow_support import canonical, script_code_for, workdir_relative

check_command_line(workflow.config_settings.config)
check_sections_are_mappings(config)
validate(config, "../schemas/config.schema.yaml")
add_task_variants(config)  # catalogue `variants` -> tasks <task>__<value>; studies with sensitivity_variants list them
check_references(config)

MIRROR = resolve_mirror(config["mirror"])
STUDIES = config["studies"]
SCORED_STUDIES = [name for name, spec in STUDIES.items() if spec["source"] == "scored"]
IMPORTED_STUDIES = [name for name, spec in STUDIES.items() if spec["source"] != "scored"]


def _alternatives(names):
    """A regex matching exactly these names (never matching anything when the list is empty)."""
    return "|".join(re.escape(name) for name in names) or "(?!x)x"


alternatives = _alternatives


# Every rule passes its params through canonical() (mappings with sorted keys: reordering keys in a
# config file reruns nothing) and has `code=script_code(<its script>)`: the content hashes of the
# script and of the benchval modules it imports, transitively, so that a change to package code
# reruns exactly the rules that run it (benchval.workflow_support, docs/workflow.md). Rule files that
# tests include on their own import these helpers themselves.
script_code = script_code_for(workflow.current_basedir)


def scoring_layout(model):
    """How `model`'s scoring (and its calibration and evaluation) is cut into jobs: per_task | per_model.
    A model entry's `scoring_jobs` (models.schema.yaml) overrides `scoring.jobs`."""
    return config["models"][model].get("scoring_jobs", config["scoring"].get("jobs", "per_task"))


# Jobs that run a language model take ceil(cores / local.model_jobs_at_once) of the --cores budget,
# so that at most that many run side by side locally; benchval.threads gives each the same share of
# the machine's real cores as torch threads, so torch never oversubscribes it. On a cluster
# workflow.cores is 1; profiles/slurm sets these rules' threads.
# (setdefault: validate() does not fill nested schema defaults yet; local.schema.yaml holds this one.
# Filled here, the scripts read it from snakemake.config through benchval.threads.job_torch_threads.)
MODEL_JOBS_AT_ONCE = config.setdefault("local", {}).setdefault("model_jobs_at_once", 2)


def _model_job_threads():
    try:
        return model_job_threads(workflow.cores, MODEL_JOBS_AT_ONCE)
    except WorkflowError:  # cluster execution without --cores: profiles/slurm sets the threads
        return 1


MODEL_JOB_THREADS = _model_job_threads()

SCORED_STUDY_PATTERN = _alternatives(SCORED_STUDIES)
IMPORTED_STUDY_PATTERN = _alternatives(IMPORTED_STUDIES)


wildcard_constraints:
    model=_alternatives(config["models"]),
    task=_alternatives(config["tasks"]),


def study_models(study):
    return STUDIES[study]["models"]


def study_tasks(study):
    return STUDIES[study]["tasks"]


def scored_pairs():
    """Every (model, task) that some scored study needs, each once."""
    return sorted({(m, t) for s in SCORED_STUDIES for m in study_models(s) for t in study_tasks(s)})


def scored_tasks():
    return sorted({t for s in SCORED_STUDIES for t in study_tasks(s)})
