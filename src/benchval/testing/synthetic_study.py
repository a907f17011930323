"""A synthetic study shaped like the paper's (for tests and benchmarks/bench_analysis.py).

Scores follow a latent ability (log size + a family effect) plus task noise, squashed into
(0, 1). Nothing here is data; it only gives the analysis realistic shapes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

PAPER_FAMILY_SIZES = {
    "Pythia": [1, 2.8, 6.9, 12],
    "OPT": [1.3, 2.7, 6.7, 13, 66],
    "Qwen2.5": [1.5, 3, 7, 14, 72],
    "Llama3": [1, 3, 8, 70],
    "Gemma2": [2, 9, 27],
    "Mistral": [7, 12],
}

PAPER_TASKS = [  # task, role, pairs_with, axes, label
    ("winogrande", "cs_original", None, "", "WinoGrande"),
    ("hellaswag", "cs_original", None, "event", "HellaSwag"),
    ("siqa", "cs_original", None, "social", "Social IQA"),
    ("piqa", "cs_original", None, "event", "Physical IQA"),
    ("winowhat", "cs_reworked", "winogrande", "", "WinoWhat"),
    ("goldenswag", "cs_reworked", "hellaswag", "event", "GoldenSwag"),
    ("siqa_filtered", "cs_reworked", "siqa", "social", "Filtered Social IQA"),
    ("piqa_rup", "cs_reworked", "piqa", "event", "Physical IQA-RUP"),
    ("blimp", "control", None, "", "BLiMP"),
    ("mmlu_redux", "control", None, "", "MMLU-Redux"),
    ("gpqa_diamond", "control", None, "", "GPQA Diamond"),
    ("cei", "downstream", None, "social", "CEI"),
    ("sarc7", "downstream", None, "social", "SARC7"),
    ("false_beliefs", "downstream", None, "social", "False Beliefs"),
    ("implicature", "downstream", None, "pragmatic", "Implicature"),
    ("presupposition", "downstream", None, "pragmatic", "Presupposition"),
    ("indirect_requests", "downstream", None, "pragmatic", "Indirect Requests"),
    ("timedial", "downstream", None, "event", "TimeDial"),
    ("trip", "downstream", None, "event", "TRIP"),
]
ACCURACY_ONLY = {"timedial"}


def synthetic_study(
    seed: int = 0, family_sizes: dict | None = None, tasks=PAPER_TASKS
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(score_table, tasks) frames in the data-contract format."""
    rng = np.random.default_rng(seed)
    family_sizes = family_sizes or PAPER_FAMILY_SIZES
    models = [(f"{family}-{size:g}b", family, float(size)) for family, sizes in family_sizes.items() for size in sizes]
    family_effect = {family: rng.normal(0, 0.5) for family in family_sizes}
    ability = np.array([np.log(size) + family_effect[family] for _, family, size in models])
    ability = (ability - ability.mean()) / ability.std()
    records = []
    for task, role, _, _, _ in tasks:
        loading = {"downstream": 0.6, "control": 0.8}.get(role, 1.0) * rng.uniform(0.3, 1.0)
        base = rng.normal(0, 0.5)
        for metric in ("accuracy", "macro_f1"):
            if metric == "macro_f1" and task in ACCURACY_ONLY:
                continue
            latent = (
                base + loading * ability + rng.normal(0, 0.6, size=len(models)) - (0.3 if metric == "macro_f1" else 0)
            )
            values = 1 / (1 + np.exp(-latent))
            records.extend(
                {"model": m, "family": f, "size_b": s, "task": task, "metric": metric, "value": float(v)}
                for (m, f, s), v in zip(models, values)
            )
    score_table = pd.DataFrame.from_records(records)
    task_table = pd.DataFrame.from_records(tasks, columns=["task", "role", "pairs_with", "axes", "label"])
    return score_table, task_table


def write_synthetic_study(directory: str | Path, seed: int = 0, **kwargs) -> tuple[Path, Path]:
    """Write ``score_table.csv`` and ``tasks.csv`` into ``directory``; return their paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    score_table, task_table = synthetic_study(seed, **kwargs)
    score_path, task_path = directory / "score_table.csv", directory / "tasks.csv"
    score_table.to_csv(score_path, index=False)
    task_table.to_csv(task_path, index=False)
    return score_path, task_path
