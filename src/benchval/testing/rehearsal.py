"""A rehearsal of the paper's study on tiny random-weight models: same 23 names, families, sizes,
all 19 tasks at a small n, one scoring job per model. THE WEIGHTS ARE RANDOM: every number it
produces is meaningless; it shows that the whole DAG runs, how many jobs it has and how long they take.

    python -m benchval.testing.rehearsal write-config    # config/rehearsal.yaml from config/paper.yaml
    python -m benchval.testing.rehearsal build rehearsal  # the 23 tiny models under rehearsal/models/
    snakemake --cores 2 --configfile config/config.yaml config/rehearsal.yaml --directory rehearsal \
        results/figures results/tables

Each family gets its paper architecture (:mod:`benchval.testing.architectures`: Pythia -> GPT-NeoX,
OPT, Qwen 2.5 -> Qwen 2, Llama 3 -> Llama, Gemma 2, Mistral) and a tiny BPE tokenizer that adds BOS
where the family's own tokenizer does (OPT, Llama 3, Gemma 2, Mistral). ``size_b`` is the paper's
nominal size, kept as metadata (the models have 2 layers and hidden size 32); ``job_size_b`` is their
real size, so that cluster jobs ask for what a tiny model needs, not for what a 72B one would.
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

import yaml

from benchval.plumbing.config import merged_config
from benchval.plumbing.folders import REPO_ROOT

FAMILY_ARCHITECTURE = {
    "pythia": "gpt_neox",
    "opt": "opt",
    "qwen": "qwen2",
    "llama": "llama",
    "gemma": "gemma2",
    "mistral": "mistral",
}
FAMILY_ADDS_BOS = {"pythia": False, "opt": True, "qwen": False, "llama": True, "gemma": True, "mistral": True}
FIGURE_NOTICE = "REHEARSAL: random-weight models under the paper's names; every number here is meaningless"
NOTICE = (
    "REHEARSAL WITH RANDOM WEIGHTS: tiny random-weight models under the paper's model names. "
    "Every score, metric, table and figure of this run is meaningless; only the job count and "
    "the times mean something."
)
# Jobs' resources are computed from this size (benchval.jobs.cluster_resources): the tiny models have about 30,000
# parameters; 1 million is a round upper bound.
TINY_JOB_SIZE_B = 0.001
MODELS_DIR = "models"  # relative to the rehearsal's working directory (snakemake --directory)


def paper_config() -> dict:
    """config.yaml + catalogue + paper.yaml, merged as `--configfile config/paper.yaml` merges them."""
    return merged_config(REPO_ROOT / "config" / "paper.yaml")


def rehearsal_config(
    n_items: int = 8, n_bootstrap: int = 100, models: list[str] | None = None, tasks: list[str] | None = None
) -> dict:
    """The rehearsal overlay (merged on top of config/config.yaml like paper.yaml): the paper study's
    models (or ``models``) as local tiny folders, its tasks (or ``tasks``) at ``n_items`` each."""
    paper = paper_config()
    study = paper["studies"]["default"]
    models = models or list(study["models"])
    entries = {}
    for name in models:
        entry = paper["models"][name]
        entries[name] = {
            "family": entry["family"],
            "size_b": entry["size_b"],
            "job_size_b": TINY_JOB_SIZE_B,
            "dtype": "float32",
            "device": "cpu",
            "source": {"type": "local", "path": f"{MODELS_DIR}/{name}"},
        }
    return {
        "sample": {"n_items": n_items, "per_task": {}},
        "models": entries,
        "scoring": {"engine": "fast", "batch_tokens": 1024, "jobs": "per_model"},
        "analysis": {"n_bootstrap": n_bootstrap},
        "studies": {
            "default": {
                "source": "scored",
                "models": models,
                "tasks": list(tasks or study["tasks"]),
                "commonwhy_criterion": False,
                "notice": FIGURE_NOTICE,
            }
        },
    }


def write_config(path: Path, **kwargs) -> Path:
    header = "".join(
        f"# {line}\n"
        for line in [
            NOTICE,
            "",
            "Written by `python -m benchval.testing.rehearsal write-config` from config/paper.yaml (do not edit;",
            "tests/test_rehearsal.py checks that it matches). Build the models, then run in its own directory:",
            "  python -m benchval.testing.rehearsal build rehearsal",
            "  snakemake --cores 2 --configfile config/config.yaml config/rehearsal.yaml --directory rehearsal \\",
            "      results/figures results/tables",
            "(config.yaml is named too: under --directory the Snakefile's relative configfile is not found.)",
            "Merged on top of config/config.yaml: studies.default is the paper's study on the tiny models.",
        ]
    )
    path = Path(path)
    path.write_text(header + "\n" + yaml.safe_dump(rehearsal_config(**kwargs), sort_keys=False))
    return path


def build_models(workdir: Path, config: dict) -> list[Path]:
    """Save each rehearsal model (random weights, seeded by its position) under ``workdir``, with a
    RANDOM-WEIGHTS.txt beside it, and the notice at the top of ``workdir``."""
    from benchval.testing.architectures import build_architecture, vocab_size
    from benchval.testing.tiny import tiny_tokenizer

    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "README-RANDOM-WEIGHTS.txt").write_text(NOTICE + "\n")
    tokenizers = {bos: tiny_tokenizer(bos) for bos in (False, True)}
    folders = []
    for seed, (name, entry) in enumerate(config["models"].items()):
        folder = workdir / entry["source"]["path"]
        if not (folder / "config.json").exists():
            tokenizer = tokenizers[FAMILY_ADDS_BOS[entry["family"]]]
            model = build_architecture(FAMILY_ARCHITECTURE[entry["family"]], vocab_size(tokenizer), seed=seed)
            model.save_pretrained(folder)
            tokenizer.save_pretrained(folder)
            (folder / "RANDOM-WEIGHTS.txt").write_text(f"{name}: {NOTICE}\n")
        folders.append(folder)
    return folders


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    write = sub.add_parser("write-config", help="write config/rehearsal.yaml from config/paper.yaml")
    write.add_argument("--output", type=Path, default=REPO_ROOT / "config" / "rehearsal.yaml")
    build = sub.add_parser("build", help="build the tiny models of a rehearsal config under WORKDIR")
    build.add_argument("workdir", type=Path)
    build.add_argument("--config", type=Path, default=REPO_ROOT / "config" / "rehearsal.yaml")
    args = parser.parse_args(argv)
    if args.command == "write-config":
        print(write_config(args.output))
    else:
        config = copy.deepcopy(yaml.safe_load(args.config.read_text()))
        print(f"{len(build_models(args.workdir, config))} tiny random-weight models under {args.workdir}")


if __name__ == "__main__":
    main()
