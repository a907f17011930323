"""End to end on the real mirror: LitWD1K store + published rules -> grounded questions with subgraphs."""

from __future__ import annotations

import pytest

from benchval.commonwhy.steps.commonwhy_kg_store import build_store
from benchval.commonwhy.kg import LocalSource
from benchval.commonwhy.pipeline import construct, load_rules


@pytest.fixture(scope="module")
def litwd1k(mirror, tmp_path_factory):
    root = tmp_path_factory.mktemp("kg")
    build_store(mirror / "wikidata_litwd1k", root / "litwd1k.oxigraph", root / "stats.json")
    return LocalSource.open(root / "litwd1k.oxigraph")


def test_published_rules_ground_on_litwd1k(mirror, litwd1k):
    raw = mirror / "commonwhy"
    rules = load_rules(raw / "inference_rule_entities.json", raw / "LabeledRules.json")
    table, report, summary = construct(rules, litwd1k)
    assert summary["rules_total"] == len(report) == 231
    assert summary["rules_grounded"] >= 1 and summary["questions_built"] == len(table) > 0
    assert sum(summary["rules_by_status"].values()) == 231
    # every rule that yields nothing says why
    assert (report.loc[report.status != "grounded", "reason"].str.len() > 0).all()
    assert (report.loc[report.status == "parse_error", "rule"].str.len() > 0).all()
    # every grounded question names its anchor, has supporting facts about it, and is in the KG
    for row in table.itertuples():
        assert row.question.startswith("Why") and row.anchor_labels[0] in row.question
        assert row.n_facts > 0 and {fact["subject"] for fact in row.subgraph} == set(row.anchor_qids)
        assert row.popularity == litwd1k.triple_count(row.anchor_qids[0])
    counts = table.groupby(["rule_id", "split"]).size().unstack(fill_value=0)
    assert (counts["head"] == counts["longtail"]).all()


def test_user_rule_with_two_anchors_grounds_on_litwd1k(mirror, litwd1k):
    from benchval.plumbing.folders import REPO_ROOT

    raw = mirror / "commonwhy"
    rules = load_rules(
        raw / "inference_rule_entities.json",
        raw / "LabeledRules.json",
        REPO_ROOT / "tests/commonwhy/data/user_rules_litwd1k.yaml",
    )
    user = [rule for rule in rules if rule.origin.endswith("user_rules_litwd1k.yaml")]
    table, report, summary = construct(user, litwd1k)
    assert report["status"].tolist() == ["grounded"] and len(table) == 20
    for row in table.itertuples():
        person, season = row.anchor_labels
        assert row.question == f"Why couldn't {person} have played in {season}?"
        born = [f["value"] for f in row.subgraph if f["subject"] == row.anchor_qids[0] and f["property"] == "P569"]
        start = [f["value"] for f in row.subgraph if f["subject"] == row.anchor_qids[1] and f["property"] == "P580"]
        assert born and start and min(born) > min(start)  # the facts that make the answer true are in the subgraph
