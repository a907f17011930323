"""Metrics on hand-made pairs whose values are computed by hand."""

from __future__ import annotations

import gzip
import math
import re
from pathlib import Path

import pandas as pd
import pytest
import sacrebleu

from benchval.commonwhy.eval import metrics, wordnet

needs_wordnet = pytest.mark.skipif(
    not (wordnet.wordnet_dir() / "data.noun").is_file(),
    reason=f"Debian WordNet absent; install with `{wordnet.APT_INSTALL}`",
)


def test_rouge_l_lcs_and_stemming():
    # LCS("the cat on the mat", "the cat sat on the mat") = 5 -> P = 5/5, R = 5/6, F = 10/11
    assert metrics.rouge_l("the cat on the mat", "the cat sat on the mat") == pytest.approx(10 / 11)
    # Porter stemming: cats -> cat, running -> run
    assert metrics.rouge_l("cats running", "cat run") == pytest.approx(1.0)
    assert metrics.rouge_l("completely different", "nothing shared") == 0.0


def test_bleu_known_precisions():
    ref = "alpha beta gamma delta epsilon"
    hyp = "alpha beta gamma delta zeta"
    # n-gram precisions 4/5, 3/4, 2/3, 1/2; brevity penalty 1
    expected = 100 * (4 / 5 * 3 / 4 * 2 / 3 * 1 / 2) ** 0.25
    assert metrics.bleu(hyp, ref) == pytest.approx(expected, rel=1e-6)
    assert metrics.bleu(ref, ref) == pytest.approx(100.0)


@needs_wordnet
def test_meteor_exact_and_wordnet_synonym():
    # 4 exact matches in one chunk: Fmean = 1, penalty = 0.5 * (1/4)^3
    assert metrics.meteor("the dog runs fast", "the dog runs fast") == pytest.approx(1 - 0.5 / 64)
    # 'ran' ~ 'runs' only through WordNet (the Porter stem of 'ran' is 'ran'); 'quickly' != 'fast'
    # 3 matches, P = R = 3/4, Fmean = 3/4, 1 chunk: 3/4 * (1 - 0.5 * (1/3)^3)
    value = metrics.meteor("the dog ran quickly", "the dog runs fast")
    assert value == pytest.approx(0.75 * (1 - 0.5 / 27))


@needs_wordnet
def test_lexical_scores_take_the_max_over_references_per_metric():
    refs = ["the cat sat on the mat", "alpha beta gamma delta epsilon"]
    got = metrics.lexical_scores("alpha beta gamma delta zeta", refs)
    assert got["rougeL"] == pytest.approx(0.8)  # LCS 4 of 5 and 5 -> F = 0.8
    # the second reference: n-gram precisions 4/5, 3/4, 2/3, 1/2 (the first shares no word)
    assert got["bleu"] == pytest.approx(100 * (4 / 5 * 3 / 4 * 2 / 3 * 1 / 2) ** 0.25, rel=1e-6)
    by_sacrebleu = [sacrebleu.sentence_bleu("alpha beta gamma delta zeta", [ref]).score for ref in refs]
    assert got["bleu"] == pytest.approx(max(by_sacrebleu)) and by_sacrebleu[0] < by_sacrebleu[1]


def test_no_reference_is_an_error():
    with pytest.raises(ValueError, match="no reference"):
        metrics.lexical_scores("x", [], where="id q1")


def test_lexnames_table_matches_the_debian_man_page():
    page = Path("/usr/share/man/man5/lexnames.5WN.gz")
    if not page.is_file():
        pytest.skip("lexnames(5WN) man page not installed")
    rows = re.findall(r"^(\d\d)\t(\S+)", gzip.open(page, "rt").read(), flags=re.M)
    assert [name for _, name in rows] == [e.split()[0] for e in wordnet.LEXNAMES]
    assert [int(n) for n, _ in rows] == list(range(len(wordnet.LEXNAMES)))


def test_missing_wordnet_names_the_apt_line(tmp_path):
    with pytest.raises(FileNotFoundError, match="apt-get install -y --no-install-recommends wordnet-base"):
        wordnet.load_wordnet(str(tmp_path))


def test_bertscore_identity_is_one_and_max_over_references(tiny_encoder):
    settings = metrics.BertScoreSettings(model_type=tiny_encoder, num_layers=2, batch_size=4)
    hyps = ["because he was born in germany", "the cat sat"]
    refs = [["she is a citizen of france", "because he was born in germany"], ["the dog"]]
    got = metrics.bertscore_max(hyps, refs, settings)
    assert got.loc[0, "bs_f1"] == pytest.approx(1.0, abs=1e-5)  # identical reference present
    assert got.loc[0, "bs_precision"] == pytest.approx(1.0, abs=1e-5)
    assert got.loc[1, "bs_f1"] < 1.0
    assert not got.isna().any().any()
    # F1 is the harmonic mean of P and R for a single reference
    single = metrics.bertscore_max(["the cat sat"], [["the dog"]], settings).iloc[0]
    p, r = single["bs_precision"], single["bs_recall"]
    assert single["bs_f1"] == pytest.approx(2 * p * r / (p + r), rel=1e-5)


@needs_wordnet
def test_score_answers_table(tiny_encoder):
    answers = pd.DataFrame(
        {"id": ["a", "b"], "answer": ["the cat sat", "x y"], "references": [["the cat sat"], ["p q", "x y"]]}
    )
    settings = metrics.BertScoreSettings(model_type=tiny_encoder, num_layers=2)
    got = metrics.score_answers(answers, settings)
    assert list(got["id"]) == ["a", "b"]
    assert got["rougeL"].tolist() == pytest.approx([1.0, 1.0])
    assert got["bleu"].iloc[0] == pytest.approx(100.0)
    assert math.isfinite(got["bs_f1"].iloc[1])
    with pytest.raises(KeyError, match="references"):
        metrics.score_answers(answers.drop(columns="references"), None)
