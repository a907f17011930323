# CommonWhy (Moradi et al., 2026): the published dataset, a local Wikidata-style KG (LitWD1K) and
# the construction pipeline of paper section 3.2. Config: the `commonwhy:` block (schema
# workflow/schemas/commonwhy.schema.yaml); docs/commonwhy.md explains every output.

from benchval.commonwhy.rdf_convert import INPUT_FILES as CW_LITWD1K_FILES
from benchval.config import raw_root, resolve_mirror
from benchval.workflow_support import canonical, script_code_for, workdir_relative

script_code = script_code_for(workflow.current_basedir)  # see common.smk

CW_CONFIG = config.get("commonwhy") or {}
CW_KG = CW_CONFIG.get("kg") or {}
# mirror: null -> resources/data, filled by rule fetch_raw_file (config/catalogue/raw_sources.yaml);
# relative to the working directory: moving the checkout with its data reruns nothing
CW_MIRROR = workdir_relative(raw_root(resolve_mirror(config.get("mirror"))))
CW_RAW = f"{CW_MIRROR}/commonwhy"
CW_LITWD1K = f"{CW_MIRROR}/wikidata_litwd1k"
CW_STORE = CW_KG.get("store", "resources/kg/litwd1k.oxigraph")
CW_PUBLISHED_FILES = ["Head.json", "Longtail.json", "inference_rule_entities.json", "LabeledRules.json"]


def commonwhy_outputs():
    """Final files of the CommonWhy part (for the default target)."""
    return [
        "results/commonwhy/published.parquet",
        "results/commonwhy/published_join_report.json",
        "results/commonwhy/constructed.parquet",
        "results/commonwhy/grounding_report.csv",
        "results/commonwhy/construction_summary.json",
    ]


def _commonwhy_ground_inputs(wildcards):
    inputs = {
        "rule_entities": f"{CW_RAW}/inference_rule_entities.json",
        "labeled_rules": f"{CW_RAW}/LabeledRules.json",
        "annotations": list(CW_CONFIG.get("annotations") or []),
    }
    if CW_KG.get("source", "local") == "local":
        inputs["store"] = CW_STORE
    if CW_CONFIG.get("user_rules"):
        inputs["user_rules"] = CW_CONFIG["user_rules"]
    return inputs


rule commonwhy_published:
    input:
        **{name.split(".")[0]: f"{CW_RAW}/{name}" for name in CW_PUBLISHED_FILES},
    output:
        table="results/commonwhy/published.parquet",
        report="results/commonwhy/published_join_report.json",
    params:
        raw_dir=CW_RAW,
        code=script_code("commonwhy_published.py"),
    log:
        "logs/commonwhy_published/commonwhy.log",
    benchmark:
        "logs/benchmarks/commonwhy_published/commonwhy.tsv"
    script:
        "../scripts/commonwhy_published.py"


rule kg_store:
    input:
        [f"{CW_LITWD1K}/{name}" for name in CW_LITWD1K_FILES],
    output:
        store=directory(CW_STORE),
        stats=f"{CW_STORE}.stats.json",
    params:
        litwd1k_dir=CW_LITWD1K,
        infer_time_precision=CW_KG.get("infer_time_precision", True),
        code=script_code("commonwhy_kg_store.py"),
    log:
        "logs/kg_store/litwd1k.log",
    benchmark:
        "logs/benchmarks/kg_store/litwd1k.tsv"
    script:
        "../scripts/commonwhy_kg_store.py"


rule commonwhy_ground:
    input:
        unpack(_commonwhy_ground_inputs),
    output:
        constructed="results/commonwhy/constructed.parquet",
        report="results/commonwhy/grounding_report.csv",
        summary="results/commonwhy/construction_summary.json",
    params:
        raw_dir=CW_RAW,
        commonwhy=canonical(CW_CONFIG),
        code=script_code("commonwhy_ground.py"),
    log:
        "logs/commonwhy_ground/commonwhy.log",
    benchmark:
        "logs/benchmarks/commonwhy_ground/commonwhy.tsv"
    script:
        "../scripts/commonwhy_ground.py"
