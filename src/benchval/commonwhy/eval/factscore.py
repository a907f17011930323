"""FActScore against the KG source (Min et al., 2023; CommonWhy §4.2 and Figure 4).

f(answer) = supported atomic claims / checkable atomic claims, reported with its coverage (checkable / all
claims); the claims and their check against the KG are :mod:`.kg_claims`. Per answer, per system's answers
(with the judge's ``correct``) and for the questions' reference answers (the check on the checker).

The open world: each claim gets one of three verdicts, ``supported``, ``contradicted`` (the KG has statements of
the named relation of the kind the claim states, and none with its value) or ``not_checkable`` (no subject the
KG knows, no relation the KG has, or the KG lacks the fact). Checkable = supported + contradicted: a fact the KG
lacks lowers the coverage, never the score. The claims of an answer are about the question's entity (its
anchors, `about`) when they name it or start with a pronoun.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import pandas as pd

from benchval.commonwhy.eval.kg_claims import KGFactChecker, split_claims_by_rule


def factscore_answer(
    answer: str, checker: KGFactChecker, splitter=split_claims_by_rule, about: Mapping[str, str | None] | None = None
) -> dict:
    """n_claims, n_checkable, n_supported, n_contradicted, n_not_checkable, n_unlinked (no KG entity), coverage
    (checkable / claims), factscore (supported / checkable; NaN when no claim is checkable) and the claims.
    `about`: the answer's entity (the question's anchors, QID -> label)."""
    checks = [checker.check(claim, about) for claim in splitter(answer)]
    n, checkable = len(checks), sum(c.checkable for c in checks)
    supported = sum(c.supported for c in checks)
    return {
        "n_claims": n,
        "n_checkable": checkable,
        "n_supported": supported,
        "n_contradicted": sum(c.contradicted for c in checks),
        "n_not_checkable": n - checkable,
        "n_unlinked": sum(not c.entities for c in checks),
        "coverage": checkable / n if n else float("nan"),
        "factscore": supported / checkable if checkable else float("nan"),
        "claims": [
            {
                "claim": c.claim,
                "verdict": c.verdict,
                "supported": c.supported,
                "checkable": c.checkable,
                "not_checkable_because": c.reason,
                "entities": [q for q, _ in c.entities],
                "subject": c.subject,
                "negated": c.negated,
                "contradicted": c.contradicted,
                "relations": c.relations,
                "evidence": c.evidence,
            }
            for c in checks
        ],
    }


FACTSCORE_COLUMNS = [
    "id",
    "correct",
    "n_claims",
    "n_checkable",
    "n_supported",
    "n_contradicted",
    "n_not_checkable",
    "n_unlinked",
    "coverage",
    "factscore",
    "claims",
]


def factscore_table(
    answers: pd.DataFrame,
    judged: pd.DataFrame,
    checker: KGFactChecker,
    splitter=split_claims_by_rule,
    about: Mapping[str, Mapping[str, str | None]] | None = None,
) -> pd.DataFrame:
    """FActScore of every answer, with `correct` from the judge (the paper reports correct ones only);
    `about`: question id -> its anchors (QID -> label), the entity each answer is about."""
    merged = answers[["id", "answer"]].merge(judged[["id", "correct"]], on="id", how="left", validate="one_to_one")
    rows = []
    for row in merged.itertuples(index=False):
        result = factscore_answer(row.answer, checker, splitter, (about or {}).get(row.id))
        result["claims"] = json.dumps(result["claims"], ensure_ascii=False)
        rows.append({"id": row.id, "correct": None if pd.isna(row.correct) else bool(row.correct), **result})
    return pd.DataFrame(rows, columns=FACTSCORE_COLUMNS)


REFERENCE_SUMMARY_COLUMNS = [
    "source",
    "split",
    "n_references",
    "n_claims",
    "n_checkable",
    "n_supported",
    "n_contradicted",
    "coverage",
    "factscore",
]


def anchors_about(questions: pd.DataFrame, kg) -> dict[str, dict[str, str | None]]:
    """Question id -> its anchors (QID -> the KG's label, None when the KG lacks the entity)."""
    labels: dict[str, str | None] = {}
    for qids in questions["anchor_qids"]:
        for qid in qids:
            if qid not in labels:
                labels[qid] = kg.label(qid)
    return {i: {q: labels[q] for q in qids} for i, qids in zip(questions["id"], questions["anchor_qids"])}


def factscore_summary(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per system: answers, claims, the three verdicts, coverage (checkable / claims) and the pooled FActScore
    (supported / checkable): what the KG could say about each system's claims."""
    rows = []
    for system, table in tables.items():
        claims, supported = int(table["n_claims"].sum()), int(table["n_supported"].sum())
        contradicted, not_checkable = int(table["n_contradicted"].sum()), int(table["n_not_checkable"].sum())
        checkable = supported + contradicted
        rows.append(
            {
                "system": system,
                "n_answers": len(table),
                "n_claims": claims,
                "n_supported": supported,
                "n_contradicted": contradicted,
                "n_not_checkable": not_checkable,
                "coverage": checkable / claims if claims else float("nan"),
                "factscore_pooled": supported / checkable if checkable else float("nan"),
            }
        )
    return pd.DataFrame(rows)


def reference_factscore(questions: pd.DataFrame, checker: KGFactChecker, splitter=split_claims_by_rule) -> pd.DataFrame:
    """FActScore of the reference answers themselves, per source and split: the check on the checker.

    The constructed questions' references are worded from KG facts, so their claims should be
    checkable and supported; a low coverage or score there points at the claim splitter or the
    relation matcher, not at a system. Pooled over claims (coverage = checkable / claims,
    FActScore = supported / checkable; NaN when nothing is checkable)."""
    rows = []
    for (source, split), group in questions.groupby(["source", "split"], sort=True):
        abouts = group["about"] if "about" in group else [None] * len(group)
        results = [
            factscore_answer(ref, checker, splitter, about)
            for refs, about in zip(group["references"], abouts)
            for ref in refs
        ]
        claims, checkable = sum(r["n_claims"] for r in results), sum(r["n_checkable"] for r in results)
        supported = sum(r["n_supported"] for r in results)
        rows.append(
            {
                "source": source,
                "split": split,
                "n_references": len(results),
                "n_claims": claims,
                "n_checkable": checkable,
                "n_supported": supported,
                "n_contradicted": sum(r["n_contradicted"] for r in results),
                "coverage": checkable / claims if claims else float("nan"),
                "factscore": supported / checkable if checkable else float("nan"),
            }
        )
    return pd.DataFrame(rows, columns=REFERENCE_SUMMARY_COLUMNS)
