"""Toy score: a deterministic 'model' answers each item; progress bar (tqdm) in the log."""

import csv
import os
import random
import socket

from tqdm import tqdm

model, task = snakemake.wildcards.model, snakemake.wildcards.task
with open(snakemake.input[0]) as handle:
    items = list(csv.DictReader(handle))
with open(snakemake.log[0], "w") as log:
    print(f"host={socket.gethostname()} slurm_job_id={os.environ.get('SLURM_JOB_ID')}", file=log)
    rng = random.Random(f"{snakemake.params.seed}-{model}-{task}")
    p_correct = min(0.95, 0.5 + 100 * snakemake.params.size_b)
    rows = []
    for item in tqdm(items, desc=f"score {model}/{task}", unit="item", file=log):
        correct = rng.random() < p_correct
        prediction = int(item["label"]) if correct else 1 - int(item["label"])
        rows.append({"id": item["id"], "label": item["label"], "prediction": prediction})
with open(snakemake.output[0], "w", newline="") as handle:
    writer = csv.DictWriter(handle, fieldnames=["id", "label", "prediction"])
    writer.writeheader()
    writer.writerows(rows)
