"""Toy prepare_task: n_items seeded binary-labelled items."""

import csv
import logging
import random

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
log = logging.getLogger("prepare_task")
task = snakemake.wildcards.task
rng = random.Random(f"{snakemake.params.seed}-{task}")
with open(snakemake.output[0], "w", newline="") as handle:
    writer = csv.writer(handle)
    writer.writerow(["id", "label"])
    for i in range(snakemake.params.n_items):
        writer.writerow([f"{task}-{i:04d}", rng.randint(0, 1)])
log.info("task %s: %d items", task, snakemake.params.n_items)
