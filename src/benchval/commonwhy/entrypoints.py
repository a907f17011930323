"""What the Snakemake rules call: one function per rule, paths and config in, files out."""

from __future__ import annotations

import json
import logging
import shutil
import time
from pathlib import Path
from typing import Mapping, Sequence

import pyoxigraph as ox

from benchval.commonwhy.config_keys import GROUND_KEYS
from benchval.commonwhy.dataset import load_published, write_published
from benchval.commonwhy.kg import open_source
from benchval.commonwhy.pipeline import construct, load_rules, write_outputs
from benchval.commonwhy.rdf_convert import litwd1k_to_ntriples, write_ntriples

log = logging.getLogger("benchval.commonwhy")


def published(raw_dir: Path | str, table_path: Path | str, report_path: Path | str) -> dict:
    """Rule ``commonwhy_published``: Head + Longtail -> published.parquet + join report."""
    table, report = load_published(raw_dir)
    write_published(table, report, table_path, report_path)
    log.info(
        "published items: %d; join outcomes %s; without QID %d (%s)",
        report["items"],
        report["by_status"],
        report["without_qid"],
        "; ".join(f"{r['items']} items: {r['difference']}" for r in report["unjoined_rules"]),
    )
    return report


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


def ground(
    raw_dir: Path | str,
    cw_config: Mapping,
    store_dir: Path | str | None,
    constructed: Path | str,
    report_csv: Path | str,
    summary_json: Path | str,
    annotations: Sequence[str] = (),
) -> dict:
    """Rule ``commonwhy_ground``: rules + KG source -> constructed.parquet, grounding report, summary."""
    if sorted(cw_config) != sorted(GROUND_KEYS):
        raise ValueError(
            f"rule commonwhy_ground passes commonwhy keys {sorted(cw_config)}; ground reads exactly "
            f"{list(GROUND_KEYS)} (benchval.commonwhy.config_keys.GROUND_KEYS)"
        )
    raw_dir = Path(raw_dir)
    rules = load_rules(raw_dir / "inference_rule_entities.json", raw_dir / "LabeledRules.json", cw_config["user_rules"])
    source = open_source(cw_config["kg"] or {}, store_dir, language=cw_config["language"])
    allow_partial = bool(cw_config["allow_partial"])
    table, report, summary = construct(rules, source, list(annotations), progress=True, allow_partial=allow_partial)
    write_outputs(table, report, summary, constructed, report_csv, summary_json)
    log.info(
        "rules %d, grounded %d, questions %d, by status %s",
        summary["rules_total"],
        summary["rules_grounded"],
        summary["questions_built"],
        summary["rules_by_status"],
    )
    return summary
