"""The tasks.smk rules end to end: mirror files, a download, and an offline GoldenSwag skip."""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import subprocess
import sys
import threading
from functools import partial

import pytest
import yaml

from benchval.plumbing.folders import REPO_ROOT
from benchval.tasks.items import read_items, read_task_meta

PIQA_ROWS = [{"goal": f"How do I do thing {i}?", "sol1": f"way {i}", "sol2": f"other way {i}"} for i in range(6)]


@pytest.fixture
def upstream(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    (root / "valid.jsonl").write_text("".join(json.dumps(row) + "\n" for row in PIQA_ROWS))
    (root / "valid-labels.lst").write_text("0\n1\n0\n1\n1\n0\n")
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def declared(root, base, name, path):
    return {"path": path, "url": f"{base}/{name}", "sha256": hashlib.sha256((root / name).read_bytes()).hexdigest()}


def test_prepare_rules_end_to_end(tmp_path, upstream, catalogue, mirror):
    root, base = upstream
    config = {
        "mirror": str(mirror),
        "seed": 5,
        "sample": {"n_items": 4, "per_task": {"winogrande": 10}},
        "datasets": {
            "winogrande": catalogue["datasets"]["winogrande"],
            "toy_piqa": {
                "files": {
                    "data": declared(root, base, "valid.jsonl", "toy_piqa/valid.jsonl"),
                    "labels": declared(root, base, "valid-labels.lst", "toy_piqa/valid-labels.lst"),
                }
            },
        },
        "tasks": {
            "winogrande": catalogue["tasks"]["winogrande"],
            "goldenswag": catalogue["tasks"]["goldenswag"],
            "toy": dict(catalogue["tasks"]["piqa"], dataset="toy_piqa", adapter="piqa"),
        },
    }
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    (tmp_path / "Snakefile").write_text(
        f'configfile: "config.yaml"\ninclude: "{REPO_ROOT / "workflow" / "rules" / "tasks.smk"}"\n'
    )
    targets = [f"results/tasks/{task}.parquet" for task in ("winogrande", "goldenswag", "toy")]
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_HOME=str(tmp_path / "hf"))
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", *targets],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "SKIP task goldenswag" in result.stderr

    wino = read_items(tmp_path / "results/tasks/winogrande.parquet")
    assert len(wino) == 10 and read_task_meta(tmp_path / "results/tasks/winogrande.meta.json")["n_raw"] == 1267
    assert str(mirror.resolve()) in json.dumps(
        read_task_meta(tmp_path / "results/tasks/winogrande.parquet")["source_files"]
    )

    assert (tmp_path / "resources/data/toy_piqa/valid.jsonl").read_bytes() == (root / "valid.jsonl").read_bytes()
    toy = read_items(tmp_path / "results/tasks/toy.parquet")
    assert len(toy) == 4 and set(toy["context"]) <= {f"Question: How do I do thing {i}?\nAnswer:" for i in range(6)}

    gold = read_task_meta(tmp_path / "results/tasks/goldenswag.meta.json")
    assert gold["unavailable"].startswith("needs the Hugging Face Hub") and gold["n_final"] == 0
    filters = json.loads((tmp_path / "results/tasks/goldenswag.filters.json").read_text())
    assert filters["notes"][0].startswith("skipped: needs the Hugging Face Hub")
    assert "SKIP task goldenswag" in (tmp_path / "logs/prepare_task/goldenswag.log").read_text()
