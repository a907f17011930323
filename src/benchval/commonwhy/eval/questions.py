"""The evaluation sample: seeded why-questions from the published splits and from the local-KG construction.

Reads part 1's tables (``results/commonwhy/published.parquet`` via :func:`read_published`,
``results/commonwhy/constructed.parquet`` via :func:`read_constructed`) and writes one table,
``questions.parquet``, with the columns of :data:`COLUMNS`:

- ``id`` (``pub-…`` / ``kg-…`` + the source's id), ``source`` (``published`` | ``constructed``),
  ``split`` (``head`` | ``longtail``), ``question``, ``references`` (list of reference answers),
  ``rule``, ``reasoning_category``, ``popularity``, ``anchor_qids`` (list).

Items that share a question text are first merged into one item with all their references
(:func:`merge_shared_questions`). Per (source, split) ``n_per_split`` questions are drawn without replacement
with a seeded
generator; the report lists, per source, the counts before and after each step and why rows left.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.commonwhy.eval.parquet_tables import read_table, write_table
from benchval.commonwhy.gold_audit import exclude_flagged

log = logging.getLogger(__name__)

COLUMNS = ["id", "source", "split", "question", "references", "rule", "reasoning_category", "popularity", "anchor_qids"]
SPLITS = ("head", "longtail")


def _question_view(table: pd.DataFrame, source: str, id_prefix: str, id_column: str) -> pd.DataFrame:
    """One source's questions in the COLUMNS layout."""
    return pd.DataFrame(
        {
            "id": id_prefix + table[id_column].astype(str),
            "source": source,
            "split": table["split"],
            "question": table["question"],
            "references": table["answers"].map(list),
            "rule": table["rule"],
            "reasoning_category": table["reasoning_category"],
            "popularity": table["popularity"].astype("int64"),
            "anchor_qids": table["anchor_qids"].map(list),
        }
    )


def merge_shared_questions(view: pd.DataFrame, source: str, report: list) -> pd.DataFrame:
    """Items of one split that share a question text become one item (the first, by id) holding every
    distinct reference.

    The published files give some questions several items with different answers (other valid causes);
    metrics then take the best reference and the judge accepts a match with any. Items of different
    splits stay apart (the split is part of what an item is). Reported: how many items were merged
    into which.
    """
    view = view.sort_values("id", kind="stable")
    keys = ["split", "question"] if "split" in view else ["question"]
    first = view.groupby(keys, sort=False)["id"].transform("first")
    merged_into = {i: f for i, f in zip(view["id"], first) if i != f}
    references = view.groupby(first, sort=False)["references"].agg(
        lambda lists: list(dict.fromkeys(r for refs in lists for r in refs))
    )
    kept = view[view["id"] == first].copy()
    kept["references"] = kept["id"].map(references)
    report.append(
        {
            "filter": f"{source}: items sharing a question merged",
            "before": len(view),
            "after": len(kept),
            "removed": {"merged into the item with the same question": len(merged_into)} if merged_into else {},
            "merged": merged_into,
        }
    )
    return kept.reset_index(drop=True)


def _filter(view: pd.DataFrame, source: str, report: list) -> pd.DataFrame:
    """Keep rows with a head/longtail split and at least one non-empty reference; report counts."""
    before = len(view)
    in_split = view["split"].isin(SPLITS)
    has_ref = view["references"].map(lambda refs: any(str(r).strip() for r in refs))
    removed = {}
    if (~in_split).sum():
        removed["split not head/longtail (e.g. middle)"] = int((~in_split).sum())
    if (in_split & ~has_ref).sum():
        removed["no reference answer"] = int((in_split & ~has_ref).sum())
    kept = view[in_split & has_ref]
    report.append({"filter": f"{source}: usable", "before": before, "after": len(kept), "removed": removed})
    return kept


SAMPLE_METHODS = ("seeded", "first")


def stratified_counts(sizes: pd.Series, n: int) -> pd.Series:
    """Questions per stratum for a sample of `n`: proportional to the stratum sizes, rounded by largest
    remainder (ties: the larger stratum, then the name), never more than a stratum holds."""
    total = int(sizes.sum())
    exact = sizes * n / total if total else sizes * 0.0
    counts = np.floor(exact).astype(int)
    order = sorted(sizes.index, key=lambda k: (-(exact[k] - counts[k]), -sizes[k], str(k)))
    for key in order[: n - int(counts.sum())]:
        counts[key] += 1
    return counts.clip(upper=sizes)


def _stratified(rows: pd.DataFrame, n: int, column: str, rng: np.random.Generator) -> pd.DataFrame:
    """A seeded sample of `n` rows with each value of `column` in proportion to its share."""
    strata = rows[column].fillna("(none)")
    counts = stratified_counts(strata.value_counts().sort_index(), n)
    picked = []
    for value, k in counts.items():
        members = np.flatnonzero((strata == value).to_numpy())
        picked.extend(members[rng.choice(len(members), size=int(k), replace=False)])
    return rows.iloc[np.sort(picked)]


def _draw(
    view: pd.DataFrame,
    source: str,
    n_per_split: int | None,
    rng: np.random.Generator,
    report: list,
    method: str = "seeded",
    stratify_by: str | None = None,
) -> pd.DataFrame:
    """`method`: ``seeded`` (random without replacement; with `stratify_by`, e.g. ``reasoning_category``, in
    proportion to each category's share of the split) or ``first`` (the first n per split in file order, as the
    authors' evaluation script takes the first 1,000 questions of each split)."""
    if method not in SAMPLE_METHODS:
        raise ValueError(f"commonwhy_eval.sample.method: {method!r} is not one of {SAMPLE_METHODS}")
    parts = []
    for split in SPLITS:
        rows = view[view["split"] == split].sort_values("id")
        n = len(rows) if n_per_split is None else min(n_per_split, len(rows))
        if n_per_split is not None and len(rows) < n_per_split:
            log.warning("%s/%s: only %d questions for the %d requested", source, split, len(rows), n_per_split)
        if method == "first":
            chosen = rows.iloc[:n]
        elif stratify_by:
            chosen = _stratified(rows, n, stratify_by, rng)
        else:
            chosen = rows.iloc[np.sort(rng.choice(len(rows), size=n, replace=False))] if n else rows.iloc[:0]
        report.append(
            {
                "filter": f"{source}/{split}: {method} sample"
                + (f" stratified by {stratify_by}" if stratify_by else ""),
                "before": len(rows),
                "after": n,
                "removed": {"not sampled": len(rows) - n} if len(rows) > n else {},
            }
        )
        parts.append(chosen)
    return pd.concat(parts, ignore_index=True)


def sample_questions(
    published: pd.DataFrame | None,
    constructed: pd.DataFrame | None,
    n_per_split: dict[str, int | None],
    seed: int,
    method: str = "seeded",
    stratify_by: str | None = None,
    exclude_audited: Sequence[str] = (),
) -> tuple[pd.DataFrame, list[dict]]:
    """The evaluation sample and its filter report. `n_per_split` maps source -> count (None = all);
    `method`: seeded or first (see :func:`_draw`); `exclude_audited`: the gold-audit reasons
    (:mod:`benchval.commonwhy.gold_audit`) whose items are left out before the draw (reported)."""
    rng = np.random.default_rng(seed)
    report: list[dict] = []
    parts = []
    for source, table, id_prefix, id_column in (
        ("published", published, "pub-", "item_id"),
        ("constructed", constructed, "kg-", "question_id"),
    ):
        if table is None or n_per_split.get(source, 0) == 0:
            continue
        if exclude_audited:
            table, removed = exclude_flagged(table, exclude_audited, id_column)
            report.append(
                {
                    "filter": f"{source}: gold audit (excluded reasons {', '.join(removed['reasons_excluded'])})",
                    "before": removed["before"],
                    "after": removed["after"],
                    "removed": {k: v for k, v in removed["removed_per_reason"].items() if v},
                }
            )
        view = merge_shared_questions(_question_view(table, source, id_prefix, id_column), source, report)
        kept = _filter(view, source, report)
        parts.append(_draw(kept, source, n_per_split.get(source), rng, report, method, stratify_by))
    if not parts:
        raise ValueError("no question source selected: set commonwhy_eval.sample.published or .constructed")
    sample = pd.concat(parts, ignore_index=True)[COLUMNS]
    if sample["id"].duplicated().any():
        raise ValueError(f"duplicate question ids: {sample.loc[sample['id'].duplicated(), 'id'].tolist()[:5]}")
    return sample, report


def sample_composition(sample: pd.DataFrame, source: str) -> str:
    """The sample of one source by split and reasoning category: "head (n=1000): TemporalReasoning 281, ..."."""
    rows = sample[sample["source"] == source]
    parts = []
    for split, group in rows.groupby("split", sort=True):
        counts = group["reasoning_category"].fillna("(none)").value_counts()
        parts.append(f"{split} (n={len(group)}): " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return "; ".join(parts)


def write_questions(sample: pd.DataFrame, report: list[dict], path: str | Path, report_path: str | Path) -> None:
    write_table(sample, path)
    Path(report_path).write_text(json.dumps(report, indent=2))


def read_questions(path: str | Path) -> pd.DataFrame:
    """questions.parquet, checked for the documented columns."""
    table = read_table(path, COLUMNS, "a CommonWhy evaluation sample")
    table["references"] = table["references"].map(list)
    table["anchor_qids"] = table["anchor_qids"].map(list)
    return table
