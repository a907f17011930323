# CommonWhy (Moradi et al., 2026): the published dataset, a local Wikidata-style KG (LitWD1K) and
# the construction pipeline of paper section 3.2. Config: the `commonwhy:` block (schema
# workflow/schemas/commonwhy.schema.yaml); docs/commonwhy.md explains every output.

from benchval.commonwhy.rdf_convert import INPUT_FILES as CW_LITWD1K_FILES
from benchval.commonwhy.config_keys import GROUND_KEYS as CW_GROUND_KEYS
from benchval.jobs.layout import (
    COMMONWHY_CONSTRUCTED,
    COMMONWHY_CONSTRUCTION_SUMMARY,
    COMMONWHY_GROUNDING_REPORT,
    COMMONWHY_PUBLISHED,
    COMMONWHY_PUBLISHED_REPORT,
    workflow_layout,
)
from benchval.jobs.reruns import canonical, script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.rule_files import content_digests
from benchval.plumbing.folders import workflow_root
from benchval.jobs.job_logs import add_logs_and_benchmarks

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)

CW_CONFIG = config["commonwhy"]
# mirror: null -> resources/data, filled by rule fetch_raw_file (config/catalogue/raw_sources.yaml);
# relative to the working directory: moving the checkout with its data reruns nothing
CW_MIRROR = workdir_relative(LAYOUT.raw_root)
CW_RAW = f"{CW_MIRROR}/commonwhy"
CW_LITWD1K = f"{CW_MIRROR}/wikidata_litwd1k"
CW_PUBLISHED_FILES = ["Head.json", "Longtail.json", "inference_rule_entities.json", "LabeledRules.json"]


def commonwhy_outputs():
    """Final files of the CommonWhy part (for the default target)."""
    return [
        COMMONWHY_PUBLISHED,
        COMMONWHY_PUBLISHED_REPORT,
        COMMONWHY_CONSTRUCTED,
        COMMONWHY_GROUNDING_REPORT,
        COMMONWHY_CONSTRUCTION_SUMMARY,
    ]


def _commonwhy_ground_inputs(wildcards):
    inputs = {
        "rule_entities": f"{CW_RAW}/inference_rule_entities.json",
        "labeled_rules": f"{CW_RAW}/LabeledRules.json",
        # files of annotations and rules: ancient, their content a param (benchval.jobs.rule_files)
        "annotations": ancient(list(CW_CONFIG["annotations"])),
        **LAYOUT.kg_store_inputs,
    }
    if CW_CONFIG["user_rules"]:
        inputs["user_rules"] = ancient(CW_CONFIG["user_rules"])
    return inputs


def _commonwhy_ground_files():
    """The annotation and rule files ground reads (its ancient inputs): their content, a param."""
    files = [*CW_CONFIG["annotations"], *([CW_CONFIG["user_rules"]] if CW_CONFIG["user_rules"] else [])]
    return content_digests(files, workflow_root(workflow.basedir))


rule commonwhy_published:
    input:
        **{name.split(".")[0]: f"{CW_RAW}/{name}" for name in CW_PUBLISHED_FILES},
    output:
        table=COMMONWHY_PUBLISHED,
        report=COMMONWHY_PUBLISHED_REPORT,
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        raw_dir=CW_RAW,
        raw_files=LAYOUT.raw_file_check,  # not a rerun trigger (its docstring)
        code=script_code("commonwhy_published.py"),
    script:
        "../scripts/commonwhy_published.py"


rule kg_store:
    input:
        [f"{CW_LITWD1K}/{name}" for name in CW_LITWD1K_FILES],
    output:
        store=directory(LAYOUT.kg_store),
        stats=f"{LAYOUT.kg_store}.stats.json",
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        litwd1k_dir=CW_LITWD1K,
        infer_time_precision=config_provider("commonwhy.kg.infer_time_precision"),
        raw_files=LAYOUT.raw_file_check,  # not a rerun trigger (its docstring)
        code=script_code("commonwhy_kg_store.py"),
    script:
        "../scripts/commonwhy_kg_store.py"


rule commonwhy_ground:
    input:
        unpack(_commonwhy_ground_inputs),
    output:
        constructed=COMMONWHY_CONSTRUCTED,
        report=COMMONWHY_GROUNDING_REPORT,
        summary=COMMONWHY_CONSTRUCTION_SUMMARY,
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        raw_dir=CW_RAW,
        # the keys ground reads (annotations are inputs): editing another reruns nothing
        commonwhy=config_provider("commonwhy", *CW_GROUND_KEYS),
        files=_commonwhy_ground_files(),
        raw_files=LAYOUT.raw_file_check,  # not a rerun trigger (its docstring)
        code=script_code("commonwhy_ground.py"),
    script:
        "../scripts/commonwhy_ground.py"


# every rule's log and benchmark file, from its name (benchval.jobs.job_logs)
add_logs_and_benchmarks(workflow.rules, workflow.current_basedir, workflow.modifier.path_modifier)
