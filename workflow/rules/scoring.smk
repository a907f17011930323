# Scoring: items x prepared model -> results/scores/{model}/{task}.parquet (benchval.scoring).
# Finished shards stay in results/scores/{model}/{task}.shards/ so that an interrupted job resumes.

from benchval.scoring.resources import job_resources as _scoring_job_resources


# Everything in `scoring:` but the normalisation, which only rule evaluate uses: editing it must not
# rerun the scoring (Snakemake reruns a job whose params changed).
_SCORING_PARAMS = {key: value for key, value in config["scoring"].items() if key != "normalisation"}


# common.smk's MODEL_JOB_THREADS (one model job at a time locally); 1 when this file is used alone.
_MODEL_THREADS = globals().get("MODEL_JOB_THREADS", 1)


def _scoring_resources(wildcards):
    entry = config["models"][wildcards.model]
    return _scoring_job_resources(
        float(entry["size_b"]), entry.get("dtype", "float32"), int(config["scoring"]["batch_tokens"])
    )


rule score:
    input:
        table="results/tasks/{task}.parquet",  # ("items" is reserved by Snakemake)
        meta="results/tasks/{task}.meta.json",  # scoring_mode
        model="resources/models/{model}/benchval-model.json",
    output:
        "results/scores/{model}/{task}.parquet",
    params:
        scoring=_SCORING_PARAMS,
        model=lambda wildcards: config["models"][wildcards.model],
        shard_dir=lambda wildcards: f"results/scores/{wildcards.model}/{wildcards.task}.shards",
    log:
        "logs/score/{model}/{task}.log",
    threads: _MODEL_THREADS
    resources:
        mem_mb=lambda wildcards: _scoring_resources(wildcards)["mem_mb"],
        runtime=lambda wildcards: _scoring_resources(wildcards)["runtime"],
    script:
        "../scripts/score.py"
