"""The configured judge's figures on the committed check set, as docs/commonwhy-eval.md states them, are read from
the default run's outputs copied to benchmarks/results/commonwhy_canaries/default-run/ (issue 45)."""

from __future__ import annotations

import json

import pandas as pd

from benchval.plumbing.folders import REPO_ROOT

RUN = REPO_ROOT / "benchmarks/results/commonwhy_canaries/default-run"


def test_docs_state_the_default_runs_judge_on_the_committed_set_from_its_output():
    docs = " ".join((REPO_ROOT / "docs/commonwhy-eval.md").read_text().split())
    validity = json.loads((RUN / "smollm2-135m.json").read_text())
    rows = pd.read_csv(RUN / "smollm2-135m.csv").set_index("subset")
    assert not validity["valid"] and validity["n_pairs"] == rows.loc["all", "n_pairs"]
    stated = (
        f"balanced accuracy {validity['balanced_accuracy']:.3f} (lower end {validity['balanced_accuracy_lo']:.3f}) "
        f"on {validity['n_pairs']} pairs of {rows.loc['all', 'n_questions']} questions and says Yes to "
        f"{100 * validity['share_yes']:.1f}% of them: recall {rows.loc['positive', 'rate']:.3f} on the positives "
        f"(lower end {rows.loc['positive', 'rate_lo']:.3f}), specificity {rows.loc['negative', 'rate']:.3f} on the "
        f"negatives ({rows.loc['negative', 'rate_lo']:.3f}); every row the gate reads fails its floor"
    )
    assert stated in docs, stated
    assert set(validity["failing"]) == set(rows.index[rows["read"]])  # "every row read fails"


def test_docs_state_the_judges_agreement_with_the_blind_natural_labels_from_its_output():
    docs = " ".join((REPO_ROOT / "docs/commonwhy-eval.md").read_text().split())
    result = json.loads((REPO_ROOT / "benchmarks/results/commonwhy_natural_labels/agreement.json").read_text())
    verdicts = pd.read_csv(REPO_ROOT / "benchmarks/results/commonwhy_natural_labels/verdicts.csv")
    labels = pd.read_csv(REPO_ROOT / "config/commonwhy/natural_labels.csv")["label"].value_counts()
    no = verdicts.loc[~verdicts["expected"]]
    stated = (
        f"{labels['no']} `no`, {labels['yes']} `yes`, {labels['not_checkable']} `not_checkable`",
        f"says Yes to {100 * result['share_judged_yes']:.1f}% of them and agrees with {verdicts['agrees'].sum()} of "
        f"{result['n']} labels (accuracy {result['accuracy']:.3f}, Cohen's kappa {result['kappa']:.3f})",
        f"with {result['n_yes_labels']} `yes` label its balanced accuracy ({result['balanced_accuracy']:.3f})",
        f"({(~no['judged_yes']).sum()} of {len(no)})",
    )
    for text in stated:
        assert text in docs, text
