"""The check set's questions: the CommonWhy items as one table, and the seeded draw with its family cap."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from benchval.commonwhy.eval.check_causes import MAY_EXPLAIN, event_year, may_explain, shares_cause
from benchval.commonwhy.eval.check_wording import question_family
from benchval.commonwhy.rule_audit import premise_cannot_cause


def _items(published: pd.DataFrame | None, constructed: pd.DataFrame | None) -> pd.DataFrame:
    """Both sources as one item table (item, source, split, question, answers, rule, anchors, subgraph, family)."""
    parts = []
    for table, source, id_column in ((published, "published", "item_id"), (constructed, "constructed", "question_id")):
        if table is None:
            continue
        parts.append(
            pd.DataFrame(
                {
                    "item": table[id_column].astype(str),
                    "source": source,
                    "split": table["split"],
                    "question": table["question"],
                    "answers": table["answers"].map(list),
                    "rule": table["rule"].fillna(""),
                    "rule_id": table["rule_id"].astype(str),
                    "reasoning_category": table["reasoning_category"],
                    "popularity": table["popularity"].astype("int64"),
                    "anchor_qids": table["anchor_qids"].map(list),
                    "anchor_labels": table["anchor_labels"].map(list),
                    "subgraph": table["subgraph"].map(list) if "subgraph" in table else [[] for _ in range(len(table))],
                    "audit_reasons": table["audit_reasons"].map(list),
                }
            )
        )
    items = pd.concat(parts, ignore_index=True)
    # the gold audit's flagged items never enter the check set (their gold may be false), nor serve as others;
    # nor do the items of a rule whose premise cannot cause its conclusion ("born in Concepción" is no answer to
    # "why did he die in ...": cw158), whatever their gold says
    items = items[~items["audit_reasons"].map(bool) & items["rule"].map(premise_cannot_cause).isna()]
    items = items.reset_index(drop=True)
    items["answers"] = items["answers"].map(lambda answers: [a for a in answers if a and str(a).strip()])
    items = items[items["answers"].map(bool)].reset_index(drop=True)
    items["answer"] = items["answers"].str[0]
    items["anchor"] = items["anchor_labels"].map(lambda labels: labels[0] if labels else None)
    items["family"] = [question_family(q, labels) for q, labels in zip(items["question"], items["anchor_labels"])]
    items["index"] = items.index
    return items


def _excluded_reasons(table: pd.DataFrame) -> pd.Series:
    """Per item, why the check set leaves it out: its gold audit reasons, and premise_cannot_cause."""
    premise = table["rule"].fillna("").map(lambda rule: ["premise_cannot_cause"] if premise_cannot_cause(rule) else [])
    return table["audit_reasons"].map(lambda rs: [r.split(":", 1)[0] for r in rs]) + premise


def gold_audit_excluded(published: pd.DataFrame | None, constructed: pd.DataFrame | None) -> dict:
    """Items of each table left out of the check set, per reason: the gold audit's flags, and the rules whose
    premise cannot cause their conclusion (benchval.commonwhy.rule_audit.premise_cannot_cause)."""
    out = {}
    for source, table in (("published", published), ("constructed", constructed)):
        if table is not None:
            names = _excluded_reasons(table).map(lambda rs: sorted(set(rs)))
            out[source] = {
                "items": int(names.map(bool).sum()),
                "per_reason": {str(k): int(v) for k, v in names.explode().dropna().value_counts().items()},
            }
    return out


def question_references(items: pd.DataFrame) -> dict[str, list[str]]:
    """Question text -> every distinct answer of its items."""
    by_question = items.groupby("question")["index"].apply(list)
    return {q: list(dict.fromkeys(a for i in idx for a in items.at[i, "answers"])) for q, idx in by_question.items()}


def anchor_index(items: pd.DataFrame) -> dict[str, list[int]]:
    """Anchor QID -> the items about it."""
    index: dict[str, list[int]] = {}
    for row in items.itertuples(index=False):
        for qid in row.anchor_qids:
            index.setdefault(qid, []).append(row.index)
    return index


def audit_other_rules(
    items: pd.DataFrame,
    by_anchor: Mapping[str, list[int]],
    item: pd.Series,
    references: Sequence[str],
    no_label: Callable[[str, str], str | None] | None = None,
) -> tuple[list[int], list[tuple[int, str]], list[tuple[int, str]]]:
    """Items of another rule and question about the same anchor, labelled by the guidelines: (those whose
    answer does not explain `item`'s event: negatives, [(index, why it explains): valid alternative causes],
    [(index, why no rule labels it)]).

    `no_label(rule, other_rule)`: why another rule's cause labels no pair of a question of `rule`, from the rules'
    grounding queries (:meth:`benchval.commonwhy.rule_audit.GroundingQueries.why_no_label`): a cause its query never
    tests, or one of a rule sharing the question's query ("earned a master's degree" for "why did X pursue higher
    education?", grounded on physicians, was a negative: issue 45, p0160/p0161); None: every candidate labelled."""
    candidates = sorted(
        {
            i
            for q in item["anchor_qids"]
            for i in by_anchor.get(q, [])
            if items.at[i, "rule"] != item["rule"] and items.at[i, "question"] != item["question"]
        }
    )
    negatives, alternatives, left_out = [], [], []
    event = event_year(item["question"])
    for i in candidates:
        other = items.loc[i]
        why_not = no_label(item["rule"], other["rule"]) if no_label else None
        if why_not:
            left_out.append((i, why_not))
            continue
        explains = may_explain(other["rule"], item["rule"], event)
        if explains is None:
            continue  # a looser bound and no event date to compare it with: no rule labels it
        if explains:
            alternatives.append((i, MAY_EXPLAIN))
        elif shares_cause(other["answer"], references, item["anchor"]):
            alternatives.append((i, "states the reference's cause in other words"))
        else:
            negatives.append(i)
    return negatives, alternatives, left_out


def draw_items(
    items: pd.DataFrame,
    settings: Mapping,
    rng: np.random.Generator,
    no_label: Callable[[str, str], str | None] | None = None,
) -> tuple[pd.DataFrame, dict]:
    """Seeded draw of anchored questions (one item per question text): first ``n_shared_anchor`` whose anchor
    has another rule's question whose cause does not explain the event (so that ``other_rule_same_entity`` has
    enough pairs for a gate row of its own: with anchors of any other rule it had 22 of 527, unread, and a matcher
    that says Yes to every other rule's cause passed the gate, issue 45),
    then ``n_constructed`` and ``n_published`` others; at most ``max_per_family`` per question family over all
    pools. The report says what each pool held and what the cap skipped. `no_label`: as :func:`audit_other_rules`'
    (the shared-anchor pool is read with the labelling the check set uses: read without it, the 20 questions of the
    default draw kept 9 other_rule_same_entity pairs of 53 and the twin matcher passed the gate, issue 45)."""
    anchored = items[items["anchor"].notna()].drop_duplicates("question")
    references, by_anchor = question_references(items), anchor_index(items)
    shared = [
        row["index"]
        for _, row in anchored.iterrows()
        if len(by_anchor.get(row["anchor_qids"][0], [])) > 1
        and audit_other_rules(items, by_anchor, row, references[row["question"]], no_label)[0]
    ]
    pools = {
        "shared_anchor": anchored.loc[shared],
        "constructed": anchored[anchored["source"] == "constructed"],
        "published": anchored[anchored["source"] == "published"],
    }
    per_family: Counter = Counter()
    chosen: list[int] = []
    report = {}
    for pool, table in pools.items():
        wanted, taken, capped = settings[f"n_{pool}"], 0, 0
        for position in rng.permutation(len(table)) if wanted else []:  # an empty pool leaves the stream as is
            if taken == wanted:
                break
            row = table.iloc[position]
            if row["index"] in chosen:
                continue
            if per_family[row["family"]] >= settings["max_per_family"]:
                capped += 1
                continue
            per_family[row["family"]] += 1
            chosen.append(row["index"])
            taken += 1
        report[pool] = {"available": len(table), "wanted": wanted, "drawn": taken, "skipped_by_family_cap": capped}
    drawn = items.loc[sorted(chosen)]
    report["families"] = int(drawn["family"].nunique())
    report["largest_family"] = int(drawn["family"].value_counts().max()) if len(drawn) else 0
    return drawn, report


def check_questions(drawn: pd.DataFrame, references: Mapping[str, list[str]]) -> pd.DataFrame:
    """The drawn questions in the evaluation sample's layout (answered by the configured models)."""
    return pd.DataFrame(
        {
            "id": "chk-" + drawn["item"],
            "source": drawn["source"],
            "split": drawn["split"],
            "question": drawn["question"],
            "references": [references[q] for q in drawn["question"]],
            "rule": drawn["rule"],
            "reasoning_category": drawn["reasoning_category"],
            "popularity": drawn["popularity"],
            "anchor_qids": drawn["anchor_qids"],
            "item": drawn["item"],
        }
    ).reset_index(drop=True)
