"""The numbers docs/analysis.md gives for the paper's design are those of the power command's outputs
(docs/power_paper_design.csv, docs/power_paper_needed.csv; the commands are in the docs)."""

import re

import pandas as pd

from benchval.plumbing.folders import REPO_ROOT

DOCS = REPO_ROOT / "docs" / "analysis.md"


def _effects(table, kind, adjustment):
    part = table[(table["kind"] == kind) & (table["adjustment"] == adjustment)]
    return part.set_index("task_items")["smallest_effect"]


def _range(values, digits=2):
    return f"{values.min():.{digits}f}-{values.max():.{digits}f}".replace("0.", ".")


def test_the_paper_design_table_and_answer_read_the_outputs():
    text = DOCS.read_text(encoding="utf-8")
    table = pd.read_csv(REPO_ROOT / "docs" / "power_paper_design.csv")
    assert set(table["n_models"]) == {23} and set(table["n_families"]) == {6} and set(table["n_sim"]) == {1000}
    for items in sorted(table["task_items"].unique()):
        cells = [
            f"{_effects(table, 'rho', 'none')[items]:.2f}",
            f"{_effects(table, 'rho', 'fdr')[items]:.2f}",
            f"{_effects(table, 'delta_rho', 'none')[items]:.3f}",
            f"{_effects(table, 'delta_rho', 'fdr')[items]:.3f}",
            f"{_effects(table, 'lofo_gain', 'none')[items]:.3f}",
        ]
        assert f"| {items} | " + " | ".join(cells) + " |" in text, items
    answer = " ".join(text[text.index("Answer: only large effects") :].split()[:160])
    assert f"about {_range(_effects(table, 'rho', 'none'))} unadjusted" in answer
    assert f"and {_range(_effects(table, 'rho', 'fdr'))} after BH" in answer
    delta = pd.concat([_effects(table, "delta_rho", "none"), _effects(table, "delta_rho", "fdr")])
    assert f"about {_range(delta)} in rho" in answer
    assert f"a share of {_range(_effects(table, 'lofo_gain', 'none'))} of a task's variance" in answer
    needed = pd.read_csv(REPO_ROOT / "docs" / "power_paper_needed.csv").set_index("task_items")["models_needed"]
    phrase = re.search(r"command gives (\d+) models for a 31-item task, (\d+) for 100 items and (\d+) for 201", answer)
    assert phrase and [int(n) for n in phrase.groups()] == [needed[31], needed[100], needed[201]]
