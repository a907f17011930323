"""Artifact canaries: judges that read only the check set's surface, which the gate must reject every run.

The NLI field met hypothesis-only baselines (a classifier that never reads the premise and still scores well,
because the data's makers left annotation artifacts); a gate that such a reader passes cannot tell a judge from
one. Two readers of artifacts, each cheap (milliseconds to a second, no model, no KG):

- ``canary-template-matcher`` (:func:`template_match`): a rule matcher that knows how the check pairs are
  worded (the generators' templates and the giveaways of their negatives: "it is not true that", a "because"
  inside the sentence, a comparison word that differs from the reference's, a name neither the question nor the
  reference has). It passed the check set of issue 34 (balanced accuracy 0.982, issue 45).
- ``canary-twin-matcher`` (:func:`twin_match`): the template matcher that also knows the minimal pairs'
  wordings (:mod:`.check_twins`): in "E because C" the side that holds the reference's cause is the cause (Yes
  when it follows "because", No when it precedes it); "it is not true that Z" is a Yes only when Z states the
  reference's comparison inverted; a rule-template sentence is a Yes when it shares the reference's comparison
  and anchor. The strongest cheap reader of wordings that the gate must still reject.
- ``canary-surface-answer`` and ``canary-surface-pair`` (:class:`SurfaceClassifier`): a logistic regression
  (scikit-learn) on word 1-2-grams of the answer alone, and of the answer with the reference (the answer's
  n-grams, and its words that the reference lacks and the reference's that it lacks, marked as such). Trained on
  the pairs of some question families and templates and tested on held-out ones: the families and the
  templates (column ``template``: the generator and wording that made the answer) are each dealt into
  :data:`FOLDS` seeded folds; the pairs of family fold j and template fold k are judged by a model trained on
  the pairs of neither family fold j nor template fold k. Every pair is judged once, by a model that saw
  neither its question family nor its template.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from benchval.commonwhy.eval.check_wording import _OPPOSITES, clauses, content_words, core_clause, restates

FOLDS = 5
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_POSITIVE_OPENINGS = ("the reason is that", "it is due to the fact that")
_KG_SHAPES = re.compile(r"\bis the \w[\w ]* of\b|'s \w[\w ]* is\b|\bhas \w[\w ]* as\b", re.IGNORECASE)
_COMPARISON = re.compile(r"\b(" + "|".join(_OPPOSITES) + r")\b", re.IGNORECASE)


def _norm(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _names(text: str) -> set[str]:
    """Capitalised words after the first, and numbers."""
    return {w for w in _WORD.findall(text)[1:] if w[:1].isupper() or w[:1].isdigit()}


def _first_clause(text: str) -> str:
    """The answer's first clause without its relative clause ("X is a bacteria, which ..." -> "X is a bacteria")."""
    parts = clauses(text)
    return core_clause(parts[0] if parts else text)


def _skeleton(text: str) -> str:
    """The first clause's wording with names and numbers blanked ("computer software" read as "software")."""
    words = _WORD.findall(_first_clause(text).replace("computer software", "software"))[1:]
    return " ".join("X" if w[:1].isupper() or w[:1].isdigit() else w.lower() for w in words)


def _comparison(text: str) -> set[str]:
    return {m.lower() for m in _COMPARISON.findall(_first_clause(text))}


def _giveaway(question: str, reference: str, answer: str) -> bool | None:
    """The verdict the wording alone gives away, or None."""
    same_clauses = sorted(map(_norm, clauses(answer))) == sorted(map(_norm, clauses(reference)))
    if _norm(answer) == _norm(reference) or same_clauses:
        return True
    if not content_words(answer) or restates(answer, question) or "not true that" in answer.lower():
        return False
    if re.search(r"\w[\w,]*\s+because\b", answer, re.IGNORECASE):  # a "because" inside: the reversed link
        return False
    if sorted(_norm(answer)) == sorted(_norm(reference)):  # the reference's words, traded places
        return False
    mine, theirs = _comparison(answer), _comparison(reference)
    if mine and theirs and mine != theirs:  # before/after swapped
        return False
    swapped_in = _names(_first_clause(answer)) - _names(question) - _names(reference)
    if {name for name in swapped_in if not name[:1].isdigit()}:  # another entity or value in the cause
        return False
    return None


def template_match(question: str, reference: str, answer: str) -> tuple[bool, str]:
    """The template-aware matcher (module docstring): (yes, which of its tests decided)."""
    given = _giveaway(question, reference, answer)
    if given is not None:
        return given, "giveaway"
    if answer.strip().lower().startswith(_POSITIVE_OPENINGS) or _KG_SHAPES.search(answer):
        return True, "positive template"
    if _skeleton(answer) == _skeleton(reference):
        return True, "the reference's skeleton"
    share = len(content_words(answer) & content_words(reference)) / max(1, len(content_words(answer)))
    return share >= 0.5, f"{share:.2f}"


def _words_of(text: str) -> set[str]:
    return set(_norm(core_clause(text)))


def _because_inside(reference: str, answer: str) -> bool | None:
    """ "E because C": Yes when C holds the reference's cause, No when E does, None otherwise."""
    match = re.match(r"^(?!because\b)(.+?)\s+because\s+(.+)$", answer.strip(), re.IGNORECASE)
    parts = clauses(reference)
    if not match or not parts:
        return None
    cause = _words_of(parts[0])
    effect_side, cause_side = _words_of(match.group(1)), _words_of(match.group(2))
    if cause and cause <= cause_side:
        return True
    if cause and cause <= effect_side:
        return False
    return None


def _not_true_that(reference: str, answer: str) -> bool | None:
    """ "it is not true that Z": Yes only when Z is the reference's cause with its comparison inverted."""
    match = re.search(r"not true that\s+(.+)$", answer.strip(), re.IGNORECASE)
    if not match:
        return None
    stated, theirs = _comparison(match.group(1)), _comparison(reference)
    return bool(stated and theirs and stated != theirs)


def twin_match(question: str, reference: str, answer: str) -> tuple[bool, str]:
    """The template matcher that knows the minimal pairs' wordings too (module docstring)."""
    for name, reader in (("because inside", _because_inside), ("not true that", _not_true_that)):
        given = reader(reference, answer)
        if given is not None:
            return given, name
    return template_match(question, reference, answer)


# --- the learned surface classifier ------------------------------------------------------------------


def pair_text(answer: str, reference: str) -> str:
    """The answer with its words the reference lacks (``new_w``) and the reference's it lacks (``miss_w``)."""
    mine, theirs = set(_norm(answer)), set(_norm(reference))
    return " ".join(
        [answer, *(f"new_{w}" for w in sorted(mine - theirs)), *(f"miss_{w}" for w in sorted(theirs - mine))]
    )


def fold_of(values: Sequence[str], folds: int, rng: np.random.Generator) -> np.ndarray:
    """Each distinct value dealt into one of `folds` folds (a seeded permutation, in turn)."""
    distinct = sorted(set(values))
    order = rng.permutation(len(distinct))
    fold = {distinct[j]: k % folds for k, j in enumerate(order)}
    return np.array([fold[v] for v in values])


class SurfaceClassifier:
    """Logistic regression on word 1-2-grams of the answer (``reads="answer"``) or of the answer with the
    reference (``reads="pair"``); judged out of fold (module docstring). ``verdicts(check)`` as the gate reads."""

    def __init__(self, reads: str, seed: int, folds: int = FOLDS):
        if reads not in ("answer", "pair"):
            raise ValueError(f"SurfaceClassifier reads 'answer' or 'pair', not {reads!r}")
        self.reads, self.seed, self.folds = reads, seed, folds
        self.name, self.decision = f"canary-surface-{reads}", "learned"

    def texts(self, check: pd.DataFrame) -> list[str]:
        if self.reads == "answer":
            return check["answer"].fillna("").tolist()
        return [pair_text(a, r) for a, r in zip(check["answer"].fillna(""), check["reference"].fillna(""))]

    def out_of_fold(self, check: pd.DataFrame) -> np.ndarray:
        """P(Yes) of every pair from a model that saw neither its family nor its template."""

        rng = np.random.default_rng([self.seed, 45])
        templates = check["template"] if "template" in check else check["kind"]  # a set built before templates
        family = fold_of(check["family"].astype(str).tolist(), self.folds, rng)
        template = fold_of(templates.astype(str).tolist(), self.folds, rng)
        texts, expected = self.texts(check), check["expected"].to_numpy(bool)
        scores = np.full(len(check), np.nan)
        for j in range(self.folds):
            for k in range(self.folds):
                test = (family == j) & (template == k)
                if test.any():
                    train = (family != j) & (template != k)
                    scores[test] = self._fit_predict(texts, expected, train, test)
        return scores

    @staticmethod
    def _fit_predict(texts: list[str], expected: np.ndarray, train: np.ndarray, test: np.ndarray) -> np.ndarray:
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.linear_model import LogisticRegression

        if len(set(expected[train])) < 2:  # one class to learn from: its share
            return np.full(int(test.sum()), expected[train].mean() if train.any() else 0.5)
        vectoriser = CountVectorizer(ngram_range=(1, 2), lowercase=True, binary=True, token_pattern=r"[^\W_]+")
        model = LogisticRegression(solver="liblinear", class_weight="balanced")
        model.fit(vectoriser.fit_transform([texts[i] for i in np.flatnonzero(train)]), expected[train])
        return model.predict_proba(vectoriser.transform([texts[i] for i in np.flatnonzero(test)]))[:, 1]

    def verdicts(self, check: pd.DataFrame) -> pd.DataFrame:
        scores = self.out_of_fold(check)
        table = check.reset_index(drop=True).copy()
        table["judged_yes"] = scores >= 0.5
        table["n_unparsed"] = 0
        table["raw"] = [f"{s:.3f}" for s in scores]
        table["agrees"] = table["judged_yes"] == table["expected"]
        return table
