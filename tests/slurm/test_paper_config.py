"""config/paper.yaml: the paper's 23 models (Table 3) and every task, valid against the schemas."""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path

import yaml
from snakemake.utils import validate

from benchval.testing.synthetic_study import PAPER_FAMILY_SIZES
from benchval.jobs.cluster_resources import ClusterSettings, entry_resources
from benchval.plumbing.config import check_references, merged_config, task_files
from benchval.testing.snakemake_run import job_counts, offline_env, run_snakemake, snakemake_command

REPO = Path(__file__).resolve().parents[2]

# Appendix A, Table 3 of "Benchmarking the Benchmarks": family -> Hugging Face checkpoints.
TABLE_3 = {
    "pythia": ["EleutherAI/pythia-1b", "EleutherAI/pythia-2.8b", "EleutherAI/pythia-6.9b", "EleutherAI/pythia-12b"],
    "opt": ["facebook/opt-1.3b", "facebook/opt-2.7b", "facebook/opt-6.7b", "facebook/opt-13b", "facebook/opt-66b"],
    "qwen": [f"Qwen/Qwen2.5-{s}-Instruct" for s in ("1.5B", "3B", "7B", "14B", "72B")],
    "llama": [
        "meta-llama/Llama-3.2-1B-Instruct",
        "meta-llama/Llama-3.2-3B-Instruct",
        "meta-llama/Llama-3.1-8B-Instruct",
        "meta-llama/Llama-3.3-70B-Instruct",
    ],
    "gemma": ["google/gemma-2-2b-it", "google/gemma-2-9b-it", "google/gemma-2-27b-it"],
    "mistral": ["mistralai/Mistral-7B-Instruct-v0.3", "mistralai/Mistral-Nemo-Instruct-2407"],
}


def paper_config() -> dict:
    """config.yaml, then the catalogue, then paper.yaml: what `--configfile config/paper.yaml` gives."""
    return merged_config(REPO / "config" / "paper.yaml")


def test_paper_config_is_valid_and_complete():
    config = paper_config()
    validate(copy.deepcopy(config), str(REPO / "workflow" / "schemas" / "config.schema.yaml"))
    check_references(config)
    study = config["studies"]["default"]
    assert study["source"] == "scored"
    catalogue_tasks = [  # every catalogue task but the sensitivity variants (not the paper's)
        task
        for path in task_files()  # every task folder's task.yaml
        for task, spec in yaml.safe_load(path.read_text()).get("tasks", {}).items()
        if spec["role"] != "cs_variant"
    ]
    assert sorted(study["tasks"]) == sorted(catalogue_tasks)
    models = {name: config["models"][name] for name in study["models"]}
    assert len(models) == 23
    by_family = {
        family: sorted(m["source"]["id"] for m in models.values() if m["family"] == family) for family in TABLE_3
    }
    assert by_family == {family: sorted(ids) for family, ids in TABLE_3.items()}
    sizes = {family: sorted(m["size_b"] for m in models.values() if m["family"] == family) for family in TABLE_3}
    # the paper's family names without their version: "Qwen2.5" is the config's "qwen"
    nominal = {family.lower().rstrip("0123456789."): sorted(s) for family, s in PAPER_FAMILY_SIZES.items()}
    assert sizes == nominal
    assert Counter(m["device"] for m in models.values()) == {"cuda": 23}
    assert config["sample"]["n_items"] is None
    # the paper's 60 TimeDial dialogs (selection not stated): a seeded sample of the 1,104
    assert config["sample"]["per_task"] == {"timedial": 60}
    assert set(config["paper_n_deviations"]) <= set(catalogue_tasks)


def test_paper_study_is_the_paper_only():
    """studies.default merges key by key: paper.yaml must switch off config.yaml's CommonWhy criterion.

    The three offline models answering CommonWhy are not in the paper's study; left on, the criterion
    would merge in from config/config.yaml and add two tasks the paper does not have.
    """
    base = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    assert base["studies"]["default"]["commonwhy_criterion"] is True  # what would merge in
    study = paper_config()["studies"]["default"]
    assert study["commonwhy_criterion"] is False
    assert not set(study["models"]) & set(base["studies"]["default"]["models"])


def test_paper_models_get_gpus_as_in_the_paper():
    """With the paper's 96 GB GPUs: up to 27B on one GPU, the 66-72B models on two (Appendix A)."""
    config = paper_config()
    settings = ClusterSettings.from_config(config["cluster"])
    assert settings.gpu_mem_gb == 96  # paper.yaml states the paper's cards
    batch_tokens = config["scoring"]["batch_tokens"]
    for name in config["studies"]["default"]["models"]:
        entry = config["models"][name]
        gpus = entry_resources(entry, "score", settings, batch_tokens)["gpu"]
        assert gpus == (2 if entry["size_b"] > 32 else 1), (name, gpus)


def test_paper_config_plans():
    """`snakemake -n --configfile config/paper.yaml` builds the whole DAG, with the job layout of
    each model's `scoring_jobs`: the models of 30B and more one scoring (and calibration and
    evaluation) job each over all 19 tasks, the 20 others one per (model, task); one prepare_task
    job per task."""
    command = [*snakemake_command(REPO, REPO / "config" / "paper.yaml"), "-n", "--quiet", "rules"]
    # the 23 Hugging Face models cannot be fetched here: plan without the Hub check, said explicitly
    # (without it the dry run stops in one line naming the first model: tests/test_docs_commands.py)
    result, _ = run_snakemake(command, env=offline_env(BENCHVAL_PLAN_WITHOUT_HUB="1"))
    assert result.returncode == 0, result.stderr[-3000:]
    jobs = job_counts(result.stdout + result.stderr)
    config = paper_config()
    study = config["studies"]["default"]
    assert (len(study["models"]), len(study["tasks"])) == (23, 19)
    large = [m for m in study["models"] if config["models"][m]["size_b"] >= 30]
    assert sorted(large) == ["llama-3.3-70b-instruct", "opt-66b", "qwen2.5-72b-instruct"]
    for prefix in ("score_model_", "evaluate_model_", "calibrate_model_"):
        assert {rule: n for rule, n in jobs.items() if rule.startswith(prefix)} == {
            prefix + re.sub(r"\W", "_", m): 1 for m in large
        }, jobs
    assert jobs["score"] == jobs["evaluate"] == jobs["calibrate"] == 20 * 19, jobs
    assert jobs["prepare_task"] == 19, jobs
    # the paper and nothing more: no CommonWhy job, and only the paper's 23 models are prepared
    assert not [rule for rule in jobs if rule.startswith(("commonwhy", "kg_store"))], jobs
    assert jobs["prepare_model"] == 23, jobs
