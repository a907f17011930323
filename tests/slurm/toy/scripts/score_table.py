"""Toy score_table: accuracy per (model, task)."""

import csv
import pathlib

rows = []
for path in map(pathlib.Path, snakemake.input):
    with open(path) as handle:
        items = list(csv.DictReader(handle))
    accuracy = sum(item["label"] == item["prediction"] for item in items) / len(items)
    rows.append({"model": path.parent.name, "task": path.stem, "metric": "accuracy", "value": f"{accuracy:.6f}"})
with open(snakemake.output[0], "w", newline="") as handle:
    writer = csv.DictWriter(handle, fieldnames=["model", "task", "metric", "value"])
    writer.writeheader()
    writer.writerows(rows)
with open(snakemake.log[0], "w") as log:
    print(f"{len(rows)} rows", file=log)
