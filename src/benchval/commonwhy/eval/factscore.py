"""FActScore against the KG source (Min et al., 2023; CommonWhy §4.2 and Figure 4).

f(answer) = supported atomic claims / checkable atomic claims, reported with its coverage (checkable / all
claims); the claims and their check against the KG are :mod:`.kg_claims`. Per answer, per system's answers
(with the judge's ``correct``) and for the questions' reference answers (the check on the checker).
"""

from __future__ import annotations

import json

import pandas as pd

from benchval.commonwhy.eval.kg_claims import KGFactChecker, split_claims_by_rule


def factscore_answer(answer: str, checker: KGFactChecker, splitter=split_claims_by_rule) -> dict:
    """n_claims, n_checkable, n_supported, n_unlinked (no KG entity), coverage (checkable / claims),
    factscore (supported / checkable; NaN when no claim is checkable) and the claims."""
    checks = [checker.check(claim) for claim in splitter(answer)]
    n, checkable = len(checks), sum(c.checkable for c in checks)
    supported = sum(c.supported for c in checks)
    return {
        "n_claims": n,
        "n_checkable": checkable,
        "n_supported": supported,
        "n_unlinked": sum(not c.entities for c in checks),
        "coverage": checkable / n if n else float("nan"),
        "factscore": supported / checkable if checkable else float("nan"),
        "claims": [
            {
                "claim": c.claim,
                "supported": c.supported,
                "checkable": c.checkable,
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
    "n_unlinked",
    "coverage",
    "factscore",
    "claims",
]


def factscore_table(
    answers: pd.DataFrame, judged: pd.DataFrame, checker: KGFactChecker, splitter=split_claims_by_rule
) -> pd.DataFrame:
    """FActScore of every answer, with `correct` from the judge (the paper reports correct ones only)."""
    merged = answers[["id", "answer"]].merge(judged[["id", "correct"]], on="id", how="left", validate="one_to_one")
    rows = []
    for row in merged.itertuples(index=False):
        result = factscore_answer(row.answer, checker, splitter)
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
    "coverage",
    "factscore",
]


def reference_factscore(questions: pd.DataFrame, checker: KGFactChecker, splitter=split_claims_by_rule) -> pd.DataFrame:
    """FActScore of the reference answers themselves, per source and split: the check on the checker.

    The constructed questions' references are worded from KG facts, so their claims should be
    checkable and supported; a low coverage or score there points at the claim splitter or the
    relation matcher, not at a system. Pooled over claims (coverage = checkable / claims,
    FActScore = supported / checkable; NaN when nothing is checkable)."""
    rows = []
    for (source, split), group in questions.groupby(["source", "split"], sort=True):
        results = [factscore_answer(ref, checker, splitter) for refs in group["references"] for ref in refs]
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
                "coverage": checkable / claims if claims else float("nan"),
                "factscore": supported / checkable if checkable else float("nan"),
            }
        )
    return pd.DataFrame(rows, columns=REFERENCE_SUMMARY_COLUMNS)
