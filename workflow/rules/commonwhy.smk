# CommonWhy (Moradi et al., 2026): the published dataset, a local Wikidata-style KG (LitWD1K) and
# the construction pipeline of paper section 3.2. Config: the `commonwhy:` block (schema
# workflow/schemas/commonwhy.schema.yaml); docs/commonwhy.md explains every output.

import os

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
from benchval.jobs.reruns import script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.plumbing.folders import workflow_root
from benchval.jobs.job_logs import benchmarks, logs
from benchval.jobs.rule_files import content_digests, raw_content_of

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
raw_content = raw_content_of(LAYOUT)  # raw inputs by content (benchval.jobs.rule_files.raw_content)

CW_CONFIG = config["commonwhy"]
# mirror: null -> resources/data, filled by rule fetch_raw_file (config/catalogue/raw_sources.yaml);
# relative to the working directory: moving the checkout with its data reruns nothing
CW_MIRROR = workdir_relative(LAYOUT.raw_root)
CW_RAW = f"{CW_MIRROR}/commonwhy"
CW_LITWD1K = f"{CW_MIRROR}/wikidata_litwd1k"
CW_PUBLISHED_FILES = ["Head.json", "Longtail.json", "inference_rule_entities.json", "LabeledRules.json"]
# Raw files are ancient inputs, their declared sha256 a param (`raw_content`: benchval.jobs.rule_files.raw_content),
# which the job checks them against (`raw_files`): a mirror copied again with new mtimes reruns nothing
CW_PUBLISHED_INPUTS = {name.split(".")[0]: f"{CW_RAW}/{name}" for name in CW_PUBLISHED_FILES}
CW_LITWD1K_INPUTS = [f"{CW_LITWD1K}/{name}" for name in CW_LITWD1K_FILES]
CW_GROUND_RAW = {
    "rule_entities": f"{CW_RAW}/inference_rule_entities.json",
    "labeled_rules": f"{CW_RAW}/LabeledRules.json",
}
# The annotation and rule files grounding reads: ancient inputs, their content a param (`files`)
CW_GROUND_FILES = [*CW_CONFIG["annotations"], *([CW_CONFIG["user_rules"]] if CW_CONFIG["user_rules"] else [])]
_ground_inputs = lambda w: {
    **{name: ancient(path) for name, path in CW_GROUND_RAW.items()},
    "annotations": ancient(list(CW_CONFIG["annotations"])),
    **LAYOUT.kg_store_inputs,
    **({"user_rules": ancient(CW_CONFIG["user_rules"])} if CW_CONFIG["user_rules"] else {}),
}


rule commonwhy_published:
    input:
        **{name: ancient(path) for name, path in CW_PUBLISHED_INPUTS.items()},  # by content
    output:
        table=COMMONWHY_PUBLISHED,
        report=COMMONWHY_PUBLISHED_REPORT,
    log:
        logs("commonwhy_published/commonwhy_published.log"),
    benchmark:
        benchmarks("commonwhy_published/commonwhy_published.tsv")
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        raw_dir=lambda w, input: os.path.dirname(input.Head),  # CW_RAW
        raw_content=raw_content(CW_PUBLISHED_INPUTS.values()),  # derived: the declared sha256 of each raw input
        raw_files=LAYOUT.raw_file_check,  # derived: not a rerun trigger (its docstring)
        code=script_code("commonwhy_published.py"),
    script:
        "../scripts/commonwhy_published.py"


rule kg_store:
    input:
        ancient(CW_LITWD1K_INPUTS),  # by content
    output:
        store=directory(LAYOUT.kg_store),
        stats=f"{LAYOUT.kg_store}.stats.json",
    log:
        logs("kg_store/kg_store.log"),
    benchmark:
        benchmarks("kg_store/kg_store.tsv")
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        litwd1k_dir=lambda w, input: str(input[0]).removesuffix(CW_LITWD1K_FILES[0]).rstrip("/"),  # CW_LITWD1K
        infer_time_precision=config_provider("commonwhy.kg.infer_time_precision"),
        raw_content=raw_content(CW_LITWD1K_INPUTS),  # derived: the declared sha256 of each raw input
        raw_files=LAYOUT.raw_file_check,  # derived: not a rerun trigger (its docstring)
        code=script_code("commonwhy_kg_store.py"),
    script:
        "../scripts/commonwhy_kg_store.py"


rule commonwhy_ground:
    input:
        unpack(_ground_inputs),
    output:
        constructed=COMMONWHY_CONSTRUCTED,
        report=COMMONWHY_GROUNDING_REPORT,
        summary=COMMONWHY_CONSTRUCTION_SUMMARY,
    log:
        logs("commonwhy_ground/commonwhy_ground.log"),
    benchmark:
        benchmarks("commonwhy_ground/commonwhy_ground.tsv")
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        raw_dir=CW_RAW,
        # the keys ground reads (annotations are inputs): editing another reruns nothing
        commonwhy=config_provider("commonwhy", *CW_GROUND_KEYS),
        files=content_digests(CW_GROUND_FILES, workflow_root(workflow.basedir)),  # derived: commonwhy.{annotations,user_rules}
        raw_content=raw_content(CW_GROUND_RAW.values()),  # derived: the declared sha256 of each raw input
        raw_files=LAYOUT.raw_file_check,  # derived: not a rerun trigger (its docstring)
        code=script_code("commonwhy_ground.py"),
    script:
        "../scripts/commonwhy_ground.py"
