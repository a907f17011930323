"""The rule audit's agreement with the independent labels (benchmarks/commonwhy_rule_audit.py agree --labels), as
docs/commonwhy.md states it, is read from its output; the kappa between the labellers is sklearn's on the files."""

from __future__ import annotations

import json

import pandas as pd
from sklearn.metrics import cohen_kappa_score

from benchval.plumbing.folders import REPO_ROOT

AUDIT = REPO_ROOT / "benchmarks/results/commonwhy_rule_audit"


def test_docs_state_the_independent_labels_agreement_from_its_output():
    docs = " ".join((REPO_ROOT / "docs/commonwhy.md").read_text().split())
    result = json.loads((AUDIT / "agreement_independent_labels.json").read_text())
    flagged_bad = round(result["precision"] * result["n_flagged"])
    missed = len(result["missed"])
    between = result["between_labellers"]
    for stated in (
        f"gives the flags' precision {result['precision']:.3f} ({flagged_bad} of {result['n_flagged']};",
        f"{missed} of {result['n_unflagged']} unflagged rules labelled bad ({result['unflagged_labelled_bad']:.3f}:",
        f"Cohen's kappa between the two labellings {between['kappa']:.3f} (raw agreement {between['raw_agreement']:.3f}"
        f" on {between['n']} rules;",
        f"the {len(between['disagreements'])} disagreements",
    ):
        assert stated in docs, stated
    author = pd.read_csv(AUDIT / "labels.csv").set_index("sample_id")["label"]
    other = pd.read_csv(AUDIT / "independent_labels.csv").set_index("sample_id")["label"].reindex(author.index)
    assert between["kappa"] == cohen_kappa_score(author, other)
