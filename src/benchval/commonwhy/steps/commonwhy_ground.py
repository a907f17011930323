"""Rule ``commonwhy_ground`` (workflow/scripts/commonwhy_ground.py): rules grounded in a KG source."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Mapping, Sequence

from benchval.commonwhy.config_keys import GROUND_KEYS
from benchval.commonwhy.kg import open_source
from benchval.commonwhy.pipeline import construct, load_rules, write_outputs

log = logging.getLogger("benchval.commonwhy")


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
