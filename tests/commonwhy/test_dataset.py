"""Published Head/Longtail as a tidy table with anchor QIDs and rule labels."""

from __future__ import annotations

import json

import pytest

from benchval.commonwhy.dataset import load_published, match_anchor, read_published, write_published
from benchval.commonwhy.errors import CommonWhyDataError

RULE = "If person A was born after 2001, then A could not have voted in 1998."


def _write(tmp_path, head, longtail=None):
    entities = [
        {"qid": "Q1", "label": "Anna"},
        {"qid": "Q2", "label": "Anna Berzina"},
        {"qid": "Q3", "label": "Juris"},
        {"qid": "Q4", "label": "Juris"},
    ]
    files = {
        "Head.json": head,
        "Longtail.json": longtail or [],
        "inference_rule_entities.json": {
            RULE: {
                "sparql": "SELECT ?item WHERE {}",
                "entities": entities,
                "question": "Why couldn't person A have voted?",
                "answer": "Because ...",
            }
        },
        "LabeledRules.json": {RULE: ["TemporalReasoning", "Political", "Historical"]},
    }
    for name, data in files.items():
        (tmp_path / name).write_text(json.dumps(data), encoding="utf-8")
    return tmp_path


def _item(question, rule=RULE, popularity=10):
    return {"question": question, "answer": "Because ...", "rule": rule, "popularity": popularity}


def test_join_statuses_and_labels(tmp_path):
    table, report = load_published(
        _write(
            tmp_path,
            [
                _item("Why couldn't Anna Berzina have voted?"),
                _item("Why couldn't Juris have voted?"),
                _item("Why couldn't Maija have voted?"),
                _item("Why couldn't Anna have voted?", rule=RULE.replace("1998", "1989")),
            ],
            [_item("Why couldn't Anna have voted?", popularity=3)],
        )
    )
    assert table["join_status"].tolist() == ["joined", "ambiguous", "no_label_match", "rule_not_found", "joined"]
    assert table["anchor_qids"].tolist() == [["Q2"], ["Q3", "Q4"], [], [], ["Q1"]]
    assert table["item_id"].tolist()[-1] == "commonwhy-longtail-00001"
    assert (table["reasoning_category"].iloc[0], table["domain"].iloc[0]) == (
        "TemporalReasoning",
        "Political;Historical",
    )
    assert report["without_qid"] == 2
    assert report["unjoined_rules"][0]["difference"] == ["'1989.' vs '1998.'"]
    write_published(table, report, tmp_path / "p.parquet", tmp_path / "p.json")
    assert read_published(tmp_path / "p.parquet")["anchor_qids"].map(list).tolist() == table["anchor_qids"].tolist()


def test_bad_item_names_file_item_and_key(tmp_path):
    with pytest.raises(CommonWhyDataError, match=r"Head\.json, item 1, key 'popularity'"):
        load_published(_write(tmp_path, [{"question": "Why?", "answer": "Because", "rule": RULE, "popularity": "x"}]))


def test_longest_label_wins():
    assert match_anchor(
        "Why couldn't Anna Berzina vote?", [{"qid": "Q1", "label": "Anna"}, {"qid": "Q2", "label": "Anna Berzina"}]
    )[1] == ["Q2"]


def test_published_files_from_the_mirror(mirror):
    table, report = load_published(mirror / "commonwhy")
    assert len(table) == 14860 and table.groupby("split").size().to_dict() == {"head": 7430, "longtail": 7430}
    assert report["with_qid"] == 14764 and report["by_status"]["rule_not_found"] == 96
    assert report["unjoined_rules"][0]["difference"] == ["'2022,' vs '2002,'"]
    assert report["items_without_rule_labels"] == 0 and report["distinct_rules"] == 209
