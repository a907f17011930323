"""Toy figure: accuracy per model and task."""

import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

with open(snakemake.input[0]) as handle:
    rows = list(csv.DictReader(handle))
fig, ax = plt.subplots(figsize=(4, 3))
labels = [f"{r['model']}\n{r['task']}" for r in rows]
ax.bar(range(len(rows)), [float(r["value"]) for r in rows])
ax.set_xticks(range(len(rows)), labels, fontsize=6)
ax.set_ylabel("accuracy")
fig.tight_layout()
fig.savefig(snakemake.output[0], metadata={"Software": None})
with open(snakemake.log[0], "w") as log:
    print(f"figure with {len(rows)} bars", file=log)
