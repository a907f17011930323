"""The published CommonWhy splits (Head.json, Longtail.json) as one tidy table.

Each published item has only ``question``, ``answer`` (one string), ``rule`` and ``popularity``. This
module adds the reasoning category and domain (``LabeledRules.json``: rule -> [category, domain, ...];
the first label is the category, the rest the domain) and the anchor QIDs from
``inference_rule_entities.json``: the item's rule text must be a key there, and the anchor is the
rule entity whose label occurs in the question (the longest such label, so "John Smith Jr." wins over
"John Smith"). Join outcomes (``join_status``):

- ``joined``           one entity (or several with the same QID) matched;
- ``ambiguous``        several different QIDs share the longest matching label (all are kept);
- ``rule_not_found``   the rule text is not a key of inference_rule_entities.json;
- ``no_label_match``   no entity label of the rule occurs in the question.

``audit_reasons`` lists why the item's gold is suspect (:mod:`benchval.commonwhy.gold_audit`: its rule's query
does not match the rule's template, or its answer's comparison contradicts its own numbers); empty when none.
The report's ``gold_audit`` counts them per reason.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from benchval.commonwhy.errors import CommonWhyDataError
from benchval.commonwhy.gold_audit import audit_item, audit_rules, audit_summary
from benchval.commonwhy.rules import load_labeled_rules

SPLIT_FILES = {"head": "Head.json", "longtail": "Longtail.json"}
ITEM_FIELDS = {"question": str, "answer": str, "rule": str, "popularity": int}
JOIN_STATUSES = ("joined", "ambiguous", "rule_not_found", "no_label_match")
COLUMNS = [
    "item_id",
    "split",
    "source_row",
    "question",
    "answer",
    "answers",
    "rule",
    "rule_id",
    "popularity",
    "reasoning_category",
    "domain",
    "rule_labels",
    "anchor_qids",
    "anchor_labels",
    "join_status",
    "audit_reasons",
]


def _read_items(path: Path) -> list[dict]:
    items = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(items, list):
        raise CommonWhyDataError(path, None, "expected a JSON list of items")
    for position, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise CommonWhyDataError(path, f"item {position}", "expected an object")
        for key, kind in ITEM_FIELDS.items():
            value = item.get(key)
            if not isinstance(value, kind) or isinstance(value, bool) or (kind is str and not value.strip()):
                raise CommonWhyDataError(path, f"item {position}, key {key!r}", f"missing or not a {kind.__name__}")
    return items


def _rule_index(path: Path) -> dict[str, dict]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise CommonWhyDataError(path, None, "expected a JSON object keyed by rule text")
    index = {}
    for number, (text, entry) in enumerate(data.items(), start=1):
        entities = entry.get("entities") if isinstance(entry, dict) else None
        if not isinstance(entities, list):
            raise CommonWhyDataError(path, f"key {text[:60]!r}", "missing 'entities' list")
        index[text] = {"rule_id": f"cw{number:03d}", "entities": entities}
    return index


def match_anchor(question: str, entities: list[dict]) -> tuple[str, list[str], list[str]]:
    """(join status, QIDs, labels) of the rule entities whose longest label occurs in ``question``."""
    found = [e for e in entities if e.get("label") and e["label"] in question]
    if not found:
        return "no_label_match", [], []
    longest = max(len(e["label"]) for e in found)
    best = [e for e in found if len(e["label"]) == longest]
    qids = list(dict.fromkeys(e["qid"] for e in best))
    labels = [next(e["label"] for e in best if e["qid"] == qid) for qid in qids]
    return ("joined" if len(qids) == 1 else "ambiguous"), qids, labels


def _row(split: str, position: int, item: dict, rules: dict, labeled: dict, audited: dict) -> dict:
    rule = rules.get(item["rule"])
    rule_reasons = (audited.get(item["rule"]) or {}).get("reasons") or []
    if rule is None:
        status, qids, labels = "rule_not_found", [], []
    else:
        status, qids, labels = match_anchor(item["question"], rule["entities"])
    rule_labels = labeled.get(item["rule"], [])
    return {
        "item_id": f"commonwhy-{split}-{position:05d}",
        "split": split,
        "source_row": position,
        "question": item["question"],
        "answer": item["answer"],
        "answers": [item["answer"]],
        "rule": item["rule"],
        "rule_id": rule["rule_id"] if rule else None,
        "popularity": item["popularity"],
        "reasoning_category": rule_labels[0] if rule_labels else None,
        "domain": ";".join(rule_labels[1:]) or None,
        "rule_labels": list(rule_labels),
        "anchor_qids": qids,
        "anchor_labels": labels,
        "join_status": status,
        "audit_reasons": list(rule_reasons) + audit_item(item["question"], item["answer"]),
    }


def _join_report(table: pd.DataFrame, rules: dict, labeled: dict) -> dict:
    unjoined_rules = []
    missing = table[table["join_status"] == "rule_not_found"]
    for text, group in missing.groupby("rule", sort=True):
        nearest = difflib.get_close_matches(text, list(rules), n=1, cutoff=0.6)
        difference = []
        if nearest:
            a, b = text.split(), nearest[0].split()
            difference = [
                f"{' '.join(a[i1:i2])!r} vs {' '.join(b[j1:j2])!r}"
                for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b).get_opcodes()
                if tag != "equal"
            ]
        unjoined_rules.append(
            {
                "rule": text,
                "items": int(len(group)),
                "items_by_split": {k: int(v) for k, v in group["split"].value_counts().items()},
                "nearest_key": nearest[0] if nearest else None,
                "difference": difference,
            }
        )
    by_split = {
        split: {s: int(n) for s, n in Counter(group["join_status"]).items()}
        for split, group in table.groupby("split", sort=False)
    }
    return {
        "items": int(len(table)),
        "by_status": {s: int((table["join_status"] == s).sum()) for s in JOIN_STATUSES},
        "by_split": by_split,
        "with_qid": int(table["anchor_qids"].map(len).gt(0).sum()),
        "without_qid": int(table["anchor_qids"].map(len).eq(0).sum()),
        "items_without_rule_labels": int(table["reasoning_category"].isna().sum()),
        "distinct_rules": int(table["rule"].nunique()),
        "distinct_questions": int(table["question"].nunique()),
        "items_sharing_a_question_text": int(table["question"].duplicated(keep=False).sum()),
        "unjoined_rules": unjoined_rules,
        "no_label_match_examples": table.loc[table["join_status"] == "no_label_match", ["item_id", "question", "rule"]]
        .head(20)
        .to_dict("records"),
        "ambiguous_examples": table.loc[table["join_status"] == "ambiguous", ["item_id", "question", "anchor_qids"]]
        .head(20)
        .assign(anchor_qids=lambda d: d["anchor_qids"].map(list))
        .to_dict("records"),
    }


def load_published(directory: Path | str) -> tuple[pd.DataFrame, dict]:
    """Head + Longtail as one table (columns :data:`COLUMNS`) and the join report."""
    directory = Path(directory)
    rules = _rule_index(directory / "inference_rule_entities.json")
    audited = audit_rules(directory / "inference_rule_entities.json")
    labeled = load_labeled_rules(directory / "LabeledRules.json")
    rows = []
    for split, name in SPLIT_FILES.items():
        for position, item in enumerate(_read_items(directory / name), start=1):
            rows.append(_row(split, position, item, rules, labeled, audited))
    table = pd.DataFrame(rows, columns=COLUMNS)
    report = _join_report(table, rules, labeled)
    report["gold_audit"] = audit_summary(audited, table["audit_reasons"])
    report["gold_audit"]["items_flagged_per_rule"] = (
        table[table["audit_reasons"].map(bool)].groupby("rule_id", dropna=False).size().astype(int).to_dict()
    )
    return table, report


PUBLISHED_SCHEMA = pa.schema(
    [
        ("item_id", pa.string()),
        ("split", pa.string()),
        ("source_row", pa.int64()),
        ("question", pa.string()),
        ("answer", pa.string()),
        ("answers", pa.list_(pa.string())),
        ("rule", pa.string()),
        ("rule_id", pa.string()),
        ("popularity", pa.int64()),
        ("reasoning_category", pa.string()),
        ("domain", pa.string()),
        ("rule_labels", pa.list_(pa.string())),
        ("anchor_qids", pa.list_(pa.string())),
        ("anchor_labels", pa.list_(pa.string())),
        ("join_status", pa.string()),
        ("audit_reasons", pa.list_(pa.string())),
    ]
)


def write_published(table: pd.DataFrame, report: dict, parquet_path: Path | str, report_path: Path | str) -> None:
    for path in (parquet_path, report_path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pandas(table, schema=PUBLISHED_SCHEMA, preserve_index=False), parquet_path)
    Path(report_path).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def read_published(path: Path | str) -> pd.DataFrame:
    """Read published.parquet, checking it has the documented columns."""
    table = pq.read_table(path)
    missing = [name for name in COLUMNS if name not in table.column_names]
    if missing:
        raise ValueError(f"{path}: not a published CommonWhy table (missing columns {missing})")
    return table.to_pandas()
