"""Reference-based answer metrics, each taken against every reference and maximised (CommonWhy §4.2).

As in the paper's baselines/evaluation.py: ROUGE-L F-measure with the Porter stemmer (rouge-score),
sentence BLEU (sacrebleu, 0-100), METEOR (nltk, whitespace tokens, WordNet from Debian) and
BERTScore precision / recall / F1 (bert-score) with a configurable encoder. Each metric is
maximised over the references on its own (the best reference may differ between metrics).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
from nltk.translate.meteor_score import meteor_score
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

from benchval.commonwhy.eval.wordnet import load_wordnet

log = logging.getLogger(__name__)

LEXICAL_METRICS = ("rougeL", "bleu", "meteor")
BERTSCORE_METRICS = ("bs_precision", "bs_recall", "bs_f1")


@dataclass(frozen=True)
class BertScoreSettings:
    """Encoder for BERTScore: a local transformers folder (or hub id) and the layer to use."""

    model_type: str
    num_layers: int
    batch_size: int = 32
    rescale_with_baseline: bool = False
    lang: str = "en"

    @classmethod
    def from_section(cls, bs, encoder_dir: str | None) -> BertScoreSettings:
        """From the ``commonwhy_eval.metrics.bertscore`` section `bs` (``model_type`` null: the extracted
        encoder folder `encoder_dir`)."""
        return cls(
            model_type=bs["model_type"] or encoder_dir,
            num_layers=bs["num_layers"],
            batch_size=bs["batch_size"],
            rescale_with_baseline=bs["rescale_with_baseline"],
        )


_ROUGE = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
_BLEU = BLEU(effective_order=True)


def rouge_l(hypothesis: str, reference: str) -> float:
    """ROUGE-L F-measure with Porter stemming, in [0, 1]."""
    return _ROUGE.score(reference, hypothesis)["rougeL"].fmeasure


def bleu(hypothesis: str, reference: str) -> float:
    """Sentence BLEU (sacrebleu defaults, effective order), in [0, 100]."""
    return _BLEU.sentence_score(hypothesis, [reference]).score


def meteor(hypothesis: str, reference: str) -> float:
    """METEOR (nltk defaults) on whitespace tokens, with WordNet synonyms, in [0, 1]."""
    return meteor_score([reference.split()], hypothesis.split(), wordnet=load_wordnet())


def _check_references(references: Sequence[str], where: str) -> None:
    if len(references) == 0:
        raise ValueError(f"{where}: no reference answers; every question needs at least one")


def lexical_scores(hypothesis: str, references: Sequence[str], where: str = "answer") -> dict:
    """Max over references of ROUGE-L, BLEU and METEOR for one answer."""
    _check_references(references, where)
    return {
        "rougeL": max(rouge_l(hypothesis, ref) for ref in references),
        "bleu": max(bleu(hypothesis, ref) for ref in references),
        "meteor": max(meteor(hypothesis, ref) for ref in references),
    }


def bertscore_max(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], settings: BertScoreSettings
) -> pd.DataFrame:
    """BERTScore P/R/F1 of each hypothesis, each maximised over its references (one batched call)."""
    import bert_score

    if len(hypotheses) != len(references):
        raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} reference lists")
    pairs = [(i, h, r) for i, (h, refs) in enumerate(zip(hypotheses, references)) for r in refs]
    for i, refs in enumerate(references):
        _check_references(refs, f"hypothesis {i}")
    if not pairs:
        return pd.DataFrame(columns=list(BERTSCORE_METRICS), dtype=float)
    owners, cands, refs = zip(*pairs)
    precision, recall, f1 = bert_score.score(
        list(cands),
        list(refs),
        model_type=settings.model_type,
        num_layers=settings.num_layers,
        batch_size=settings.batch_size,
        rescale_with_baseline=settings.rescale_with_baseline,
        lang=settings.lang,
        verbose=False,
    )
    per_pair = pd.DataFrame(
        {"owner": owners, "bs_precision": precision.tolist(), "bs_recall": recall.tolist(), "bs_f1": f1.tolist()}
    )
    best = per_pair.groupby("owner")[list(BERTSCORE_METRICS)].max()
    return best.reindex(range(len(hypotheses))).reset_index(drop=True)


def score_answers(answers: pd.DataFrame, settings: BertScoreSettings | None) -> pd.DataFrame:
    """Per-answer metrics for a table with columns id, answer, references (list of strings).

    Returns id + rougeL, bleu, meteor and (when `settings` is given) bs_precision, bs_recall, bs_f1.
    """
    for column in ("id", "answer", "references"):
        if column not in answers.columns:
            raise KeyError(f"answers table lacks column {column!r}; has {list(answers.columns)}")
    rows = [
        {"id": row.id, **lexical_scores(row.answer, list(row.references), where=f"id {row.id}")}
        for row in answers.itertuples(index=False)
    ]
    scores = pd.DataFrame(rows, columns=["id", *LEXICAL_METRICS])
    if settings is not None:
        bs = bertscore_max(list(answers["answer"]), [list(r) for r in answers["references"]], settings)
        scores = pd.concat([scores, bs], axis=1)
    return scores
