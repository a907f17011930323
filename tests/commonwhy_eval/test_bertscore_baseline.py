"""The locally computed BERTScore rescaling baseline, checked against bert-score's own use of a baseline file."""

from __future__ import annotations

import json

import bert_score
import pandas as pd
import pytest

from benchval.commonwhy.eval import bertscore_baseline as bb
from benchval.commonwhy.eval.metrics import BertScoreSettings


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_corpus_sentences_reports_what_it_removed(tmp_path):
    long = " ".join(["word"] * 32)
    corpus = write_jsonl(
        tmp_path / "c.json",
        [
            {"s": "the cat sat", "e": "the dog"},
            {"s": "the cat sat", "e": ""},
            {"s": long, "e": "he was born in germany"},
        ],
    )
    sentences, report = bb.corpus_sentences(corpus, ["s", "e"])
    assert sentences == ["the cat sat", "the dog", "he was born in germany"]
    assert report["removed"] == {"empty": 1, "duplicate": 1, "32 words or more": 1} and report["values"] == 6
    with pytest.raises(KeyError, match=r"c.json:1: no field \['x'\]"):
        bb.corpus_sentences(corpus, ["x"])
    (tmp_path / "bad.json").write_text('{"s": "a"}\nnot json\n')
    with pytest.raises(ValueError, match="bad.json:2: not a JSON line"):
        bb.corpus_sentences(tmp_path / "bad.json", ["s"])


def test_random_pairs_are_seeded_and_use_each_sentence_once():
    sentences = [f"s{i}" for i in range(10)]
    first, second = bb.random_pairs(sentences, 5, seed=3)
    assert sorted(first + second) == sorted(sentences)
    assert bb.random_pairs(sentences, 5, seed=3) == (first, second) != bb.random_pairs(sentences, 5, seed=4)
    with pytest.raises(ValueError, match="n_pairs: 6 pairs need 12 sentences, the corpus has 10"):
        bb.random_pairs(sentences, 6, seed=0)


CANDIDATES = ["because he was born in germany", "the cat sat", "she is a citizen of france"]
REFERENCES = ["the dog sat", "he is a citizen of germany", "the cat was born in france"]


def test_baseline_row_of_the_layer_is_the_mean_score_at_that_layer(tiny_encoder):
    settings = BertScoreSettings(model_type=tiny_encoder, num_layers=2, batch_size=4)
    table = bb.compute_baseline(CANDIDATES, REFERENCES, settings)
    assert list(table.columns) == ["P", "R", "F"] and table.index.tolist() == [0, 1, 2]  # embeddings + 2 layers
    p, r, f = bert_score.score(CANDIDATES, REFERENCES, model_type=tiny_encoder, num_layers=2, lang="en")
    assert table.loc[2].tolist() == pytest.approx([p.mean().item(), r.mean().item(), f.mean().item()], abs=1e-5)
    p1, _, _ = bert_score.score(CANDIDATES, REFERENCES, model_type=tiny_encoder, num_layers=1, lang="en")
    assert table.loc[1, "P"] == pytest.approx(p1.mean().item(), abs=1e-5)


def test_rescale_equals_bert_scores_own_rescaling_with_the_file(tiny_encoder, tmp_path):
    settings = BertScoreSettings(model_type=tiny_encoder, num_layers=2, batch_size=4)
    path = tmp_path / "baseline.csv"
    bb.compute_baseline(REFERENCES, CANDIDATES[::-1], settings).to_csv(path)
    baseline = bb.read_baseline(path, 2)
    raw = bert_score.score(CANDIDATES, REFERENCES, model_type=tiny_encoder, num_layers=2, lang="en")
    theirs = bert_score.score(
        CANDIDATES,
        REFERENCES,
        model_type=tiny_encoder,
        num_layers=2,
        lang="en",
        rescale_with_baseline=True,
        baseline_path=str(path),
    )
    ours = bb.rescale(pd.DataFrame({"bs_precision": raw[0], "bs_recall": raw[1], "bs_f1": raw[2]}), baseline)
    for k, column in enumerate(("bs_precision", "bs_recall", "bs_f1")):
        assert ours[f"{column}_rescaled"].tolist() == pytest.approx(theirs[k].tolist(), abs=1e-5)
    # hand-computed: a score equal to the baseline rescales to 0, a perfect score stays 1
    b = baseline["bs_f1"]
    assert bb.rescale(pd.DataFrame({"bs_precision": [1.0], "bs_recall": [1.0], "bs_f1": [b]}), baseline).iloc[0][
        ["bs_precision_rescaled", "bs_f1_rescaled"]
    ].tolist() == pytest.approx([1.0, 0.0])


def test_read_baseline_names_the_file_and_the_layer(tmp_path):
    (tmp_path / "b.csv").write_text("LAYER,P,R,F\n0,0.1,0.2,0.3\n")
    with pytest.raises(ValueError, match="b.csv: no row for layer 2"):
        bb.read_baseline(tmp_path / "b.csv", 2)
    (tmp_path / "c.csv").write_text("layer,p\n0,1\n")
    with pytest.raises(ValueError, match="c.csv: not a BERTScore baseline"):
        bb.read_baseline(tmp_path / "c.csv", 0)
