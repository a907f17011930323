"""Canary judges: rule-based judges that a check set able to tell a judge from a string matcher must reject.

Each has the interface of :class:`~.judge.Judge` (``decide(triples)``, ``decision``) and is run on the check set
by the default run (no model, milliseconds); each must fail the gate (:func:`~.judge_check.judge_validity`).
If one passes, the check set cannot separate a judge from it and no judge's verdicts are used.

- ``reference-words``: Yes exactly when the answer equals the reference after case and punctuation clean-up;
- ``always-yes`` / ``always-no``;
- ``lexical-overlap``: Yes when the F1 of the answer's and the reference's word sets is at least a threshold
  (``commonwhy_eval.judge_check.canary_overlap_threshold``);
- ``string-matcher``: the matcher of issue 34, which passed the former check (balanced accuracy 0.982): Yes when
  the answer adds something to the question (a content word the question lacks), names nothing absent from the
  question and the reference (no capitalised word after the first, no number, that neither has), and at least
  70% of its content words occur in them;
- ``template-matcher``, ``twin-matcher``, ``surface-answer``, ``surface-pair``: readers of the check set's artifacts
  (:mod:`.artifact_canaries`).

Every canary gives its verdicts on a whole check set (``verdicts(check)``): the rule-based ones pair by pair,
the learned ones out of fold.
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


STRING_MATCH_SHARE = 0.7


def string_match(question: str, reference: str, answer: str) -> tuple[bool, str]:
    """The issue-34 string matcher (module docstring): (yes, the share of the answer's content words found)."""
    from benchval.commonwhy.eval.check_wording import content_words

    mine, context = content_words(answer), content_words(question) | content_words(reference)
    adds = bool(mine - content_words(question))
    names = {w for w in _WORD.findall(answer)[1:] if w[:1].isupper() or w[:1].isdigit()}
    known = set(_WORD.findall(question)) | set(_WORD.findall(reference))
    share = len(mine & context) / len(mine) if mine else 0.0
    return adds and names <= known and share >= STRING_MATCH_SHARE, f"{share:.3f}"


class CanaryJudge:
    """A rule-based judge: ``rule(question, reference, answer) -> (yes, raw)``."""

    def __init__(self, name: str, rule):
        self.name, self.decision, self.rule = name, "rule", rule

    def decide(self, triples: Sequence[tuple[str, str, str]]) -> list[dict]:
        out = []
        for question, reference, answer in triples:
            yes, raw = self.rule(question, reference, answer)
            out.append({"yes": bool(yes), "parsed": True, "raw": raw})
        return out

    def verdicts(self, check):
        from benchval.commonwhy.eval.judge_gate import judge_pairs

        return judge_pairs(self, check)


def canary_judges(overlap_threshold: float, seed: int = 0) -> list:
    """The nine canaries, named ``canary-<rule>`` (`seed`: the learned ones' folds)."""
    from benchval.commonwhy.eval.artifact_canaries import SurfaceClassifier, template_match, twin_match

    return [
        CanaryJudge("canary-reference-words", lambda q, r, a: (words(a) == words(r) and bool(words(a)), "")),
        CanaryJudge("canary-always-yes", lambda q, r, a: (True, "")),
        CanaryJudge("canary-always-no", lambda q, r, a: (False, "")),
        CanaryJudge(
            "canary-lexical-overlap",
            lambda q, r, a: (word_f1(a, r) >= overlap_threshold, f"{word_f1(a, r):.3f}"),
        ),
        CanaryJudge("canary-string-matcher", string_match),
        CanaryJudge("canary-template-matcher", template_match),
        CanaryJudge("canary-twin-matcher", twin_match),
        SurfaceClassifier("answer", seed),
        SurfaceClassifier("pair", seed),
    ]
