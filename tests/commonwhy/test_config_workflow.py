"""The `commonwhy:` config block against its schema, and the kg_store rule rebuilding on a changed source."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
import yaml

from benchval.plumbing.folders import REPO_ROOT

from test_rdf_convert import _mini_litwd1k

from benchval.plumbing.raw_files import sha256_of

SCHEMA = yaml.safe_load((REPO_ROOT / "workflow/schemas/commonwhy.schema.yaml").read_text())
BLOCK = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())["commonwhy"]


def test_config_block_is_valid():
    jsonschema.validate(BLOCK, SCHEMA)


@pytest.mark.parametrize(
    "change",
    [
        lambda b: b.update(unknown_key=1),
        lambda b: b["kg"].update(source="sparql"),
        lambda b: b["kg"]["remote"].update(retries=3),
        lambda b: b.update(annotations=["only-one-annotator.csv"]),
    ],
)
def test_bad_config_fails(change):
    block = copy.deepcopy(BLOCK)
    change(block)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(block, SCHEMA)


def _snakemake(workdir: Path, *args: str) -> str:
    snakefile = workdir / "Snakefile"
    snakefile.write_text(f'configfile: "config.yaml"\ninclude: "{REPO_ROOT}/workflow/rules/commonwhy.smk"\n')
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(snakefile), "-d", str(workdir), "--cores", "1", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout + done.stderr


def test_changed_litwd1k_source_rebuilds_the_store(tmp_path):
    folder = tmp_path / "mirror" / "wikidata_litwd1k"
    _mini_litwd1k(folder)
    # the mirror declares its files' checksums, as the shared one does (benchval.plumbing.raw_file_checks)
    sums = [f"{sha256_of(p)}  ./{p.relative_to(folder)}" for p in sorted(folder.rglob("*")) if p.is_file()]
    (folder / "SHA256SUMS").write_text("\n".join(sums) + "\n")
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({"mirror": str(tmp_path / "mirror"), "commonwhy": BLOCK}))
    target = "resources/kg/litwd1k.oxigraph.stats.json"
    assert "kg_store" in _snakemake(tmp_path, target)
    assert (tmp_path / "resources/kg/litwd1k.oxigraph").is_dir()
    assert "Nothing to be done" in _snakemake(tmp_path, target, "-n")
    changed = tmp_path / "mirror/wikidata_litwd1k/LitWD1K/train.txt"
    changed.write_text(changed.read_text() + "Q3\tP47\tQ2\n")  # a new triple in the source
    later = time.time() + 2
    os.utime(changed, (later, later))
    # read by content (docs/workflow.md): new bytes under the old declaration plan nothing (the job, were it
    # run, stops naming the file); the new release's SHA256SUMS rebuilds the store
    assert "Nothing to be done" in _snakemake(tmp_path, target, "-n")
    sums = [f"{sha256_of(p)}  ./{p.relative_to(folder)}" for p in sorted(folder.rglob("*")) if p.is_file()]
    (folder / "SHA256SUMS").write_text("\n".join(line for line in sums if not line.endswith("SHA256SUMS")) + "\n")
    assert "kg_store" in _snakemake(tmp_path, target, "-n")
