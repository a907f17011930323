"""Canary judges: rule-based judges that a check set able to tell a judge from a string matcher must reject.

Each has the interface of :class:`~.judge.Judge` (``decide(triples)``, ``decision``) and is run on the check set
by the default run (no model, milliseconds); each must fail the gate (:func:`~.judge_check.judge_validity`).
If one passes, the check set cannot separate a judge from it and no judge's verdicts are used.

- ``reference-words``: Yes exactly when the answer equals the reference after case and punctuation clean-up;
- ``always-yes`` / ``always-no``;
- ``lexical-overlap``: Yes when the F1 of the answer's and the reference's word sets is at least a threshold
  (``commonwhy_eval.judge_check.canary_overlap_threshold``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def word_f1(answer: str, reference: str) -> float:
    """F1 of the two texts' lower-cased word sets (0 when either is empty)."""
    a, r = set(words(answer)), set(words(reference))
    if not a or not r:
        return 0.0
    common = len(a & r)
    return 2 * common / (len(a) + len(r))


class CanaryJudge:
    """A rule-based judge: ``rule(reference, answer) -> (yes, raw)``."""

    def __init__(self, name: str, rule):
        self.name, self.decision, self.rule = name, "rule", rule

    def decide(self, triples: Sequence[tuple[str, str, str]]) -> list[dict]:
        out = []
        for _question, reference, answer in triples:
            yes, raw = self.rule(reference, answer)
            out.append({"yes": bool(yes), "parsed": True, "raw": raw})
        return out


def canary_judges(overlap_threshold: float) -> list[CanaryJudge]:
    """The four canaries, named ``canary-<rule>``."""
    return [
        CanaryJudge("canary-reference-words", lambda r, a: (words(a) == words(r) and bool(words(a)), "")),
        CanaryJudge("canary-always-yes", lambda r, a: (True, "")),
        CanaryJudge("canary-always-no", lambda r, a: (False, "")),
        CanaryJudge(
            "canary-lexical-overlap",
            lambda r, a: (word_f1(a, r) >= overlap_threshold, f"{word_f1(a, r):.3f}"),
        ),
    ]
