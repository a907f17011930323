"""Rule ``commonwhy_published`` (workflow/scripts/commonwhy_published.py): the published CommonWhy items."""

from __future__ import annotations

import logging
from pathlib import Path

from benchval.commonwhy.dataset import load_published, write_published

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
