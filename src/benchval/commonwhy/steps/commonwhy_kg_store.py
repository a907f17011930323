"""Rule ``commonwhy_kg_store`` (workflow/scripts/commonwhy_kg_store.py): the LitWD1K knowledge-graph store."""

from __future__ import annotations

import json
import logging
import shutil
import time
from pathlib import Path

import pyoxigraph as ox

from benchval.commonwhy.rdf_convert import litwd1k_to_ntriples, write_ntriples

log = logging.getLogger("benchval.commonwhy")


def build_store(
    litwd1k_dir: Path | str, store_dir: Path | str, stats_path: Path | str, infer_time_precision: bool = True
) -> dict:
    """Rule ``kg_store``: LitWD1K mirror -> Wikidata-style N-Triples -> pyoxigraph store directory."""
    started = time.perf_counter()
    lines, stats = litwd1k_to_ntriples(litwd1k_dir, infer_time_precision=infer_time_precision)
    store_dir = Path(store_dir)
    staging = store_dir.with_name(store_dir.name + ".building")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    ntriples = staging.with_suffix(".nt")
    write_ntriples(lines, ntriples)
    store = ox.Store(str(staging))
    store.bulk_load(path=str(ntriples), format=ox.RdfFormat.N_TRIPLES)
    store.flush()
    loaded = len(store)
    del store
    ntriples.unlink()
    shutil.rmtree(store_dir, ignore_errors=True)
    staging.rename(store_dir)
    summary = {
        **{k: v for k, v in vars(stats).items() if k != "missing_labels"},
        "ids_without_label": len(stats.missing_labels),
        "quads_in_store": loaded,
        "infer_time_precision": infer_time_precision,
        "seconds": round(time.perf_counter() - started, 2),
    }
    Path(stats_path).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    log.info("LitWD1K store %s: %s", store_dir, summary)
    return summary
