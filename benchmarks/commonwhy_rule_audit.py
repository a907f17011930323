"""The gold audited on every rule (benchval.commonwhy.rule_audit), and the precision of its flags.

``audit``: every rule of ``inference_rule_entities.json`` audited: ``rules.csv`` (one row per rule, its flags and
why it was not checked) and ``summary.json`` (rules checked out of 231, flags per reason).
``sample``: a seeded sample of ``--n`` flagged and ``--n`` unflagged rules, shuffled, written blind to
``sample.csv`` (the rule, its query's conditions and first anchors; no flag) and the key to ``key.csv``.
A labeller marks each sampled rule ``bad`` (the query does not ground the rule: its anchors need not satisfy
the antecedent, the anchor is of the wrong type, or the premise cannot cause the conclusion) or ``ok`` in
``labels.csv`` (``sample_id,label,why``). ``agree``: the flags' precision (flagged rules labelled bad) and the
share of unflagged rules labelled bad (what the flags miss), in ``agreement.json``; ``--labels`` names another
labelling of the same sample (``independent_labels.csv``: a labeller who had seen neither the code, the key nor
``labels.csv``), written to ``agreement_<its name>.json`` with Cohen's kappa between it and ``labels.csv``
(``sklearn.metrics.cohen_kappa_score``). Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_rule_audit.py audit
    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_rule_audit.py sample --n 15
    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_rule_audit.py agree
    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_rule_audit.py agree --labels independent_labels.csv
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.commonwhy.rule_audit import audit_every_rule, reason_counts
from benchval.plumbing.folders import REPO_ROOT, default_mirror

OUT = REPO_ROOT / "benchmarks" / "results" / "commonwhy_rule_audit"
SEED = 20261206


def _raw_rules() -> Path:
    mirror = default_mirror()
    if mirror is None:
        raise SystemExit("needs the raw-data mirror (../shared/data/raw/commonwhy/inference_rule_entities.json)")
    return Path(mirror) / "commonwhy" / "inference_rule_entities.json"


def _conditions(sparql: str) -> str:
    """The query's triple patterns and filters, one line (what a labeller reads)."""
    inner = re.search(r"SELECT DISTINCT \?item WHERE\s*\{(.*?)\}\s*LIMIT", sparql, re.S)
    return re.sub(r"\s+", " ", (inner.group(1) if inner else sparql)).strip()


def audit(out: Path) -> pd.DataFrame:
    table = audit_every_rule(_raw_rules())
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "rules.csv", index=False)
    (out / "summary.json").write_text(json.dumps(reason_counts(table), indent=2))
    print(json.dumps(reason_counts(table), indent=2))
    return table


def sample(out: Path, n: int) -> None:
    table = audit_every_rule(_raw_rules())
    rng = np.random.default_rng(SEED)
    picked = []
    for flagged in (True, False):
        pool = table[table["flagged"] == flagged]
        picked += list(pool.index[rng.choice(len(pool), size=min(n, len(pool)), replace=False)])
    picked = [picked[i] for i in rng.permutation(len(picked))]
    raw = json.loads(_raw_rules().read_text(encoding="utf-8"))
    rules = list(raw)
    blind = pd.DataFrame(
        {
            "sample_id": [f"r{i:03d}" for i in range(len(picked))],
            "rule": [rules[i] for i in picked],
            "query_conditions": [_conditions(raw[rules[i]]["sparql"]) for i in picked],
            "first_anchors": ["; ".join(e["label"] for e in raw[rules[i]]["entities"][:5]) for i in picked],
        }
    )
    blind.to_csv(out / "sample.csv", index=False)
    key = blind[["sample_id"]].assign(
        rule_id=table.loc[picked, "rule_id"].to_list(),
        flagged=table.loc[picked, "flagged"].to_list(),
        reason_names=table.loc[picked, "reason_names"].to_list(),
    )
    key.to_csv(out / "key.csv", index=False)
    print(f"{len(blind)} rules written to {out / 'sample.csv'}")


def _read_labels(path: Path) -> pd.DataFrame:
    """A labelling of the sample: ``sample_id,label,why`` with every label ok or bad (else it stops, naming the row)."""
    labels = pd.read_csv(path, keep_default_na=False)
    labels["label"] = labels["label"].str.strip().str.lower()
    wrong = labels[~labels["label"].isin(["ok", "bad"])]
    if len(wrong):
        raise SystemExit(
            f"{path}: label {wrong['label'].iloc[0]!r} of {wrong['sample_id'].iloc[0]} is neither ok nor bad"
        )
    return labels


def agree(out: Path, labels_name: str = "labels.csv") -> dict:
    key = pd.read_csv(out / "key.csv", keep_default_na=False)
    labels = _read_labels(out / labels_name)
    both = key.merge(labels, on="sample_id", validate="one_to_one")
    if len(both) != len(key):
        raise SystemExit(f"{out / labels_name}: {len(both)} of the {len(key)} sampled rules labelled")
    bad = both["label"].eq("bad")
    flagged = both["flagged"].astype(str).str.lower().eq("true")
    result = {
        "n_flagged": int(flagged.sum()),
        "n_unflagged": int((~flagged).sum()),
        "precision": float(bad[flagged].mean()),
        "precision_per_reason": {
            name: {"n": int(has.sum()), "labelled_bad": int((has & bad).sum())}
            for name in sorted({n for names in both["reason_names"] for n in names.split(";") if n})
            for has in [both["reason_names"].str.split(";").map(lambda names, name=name: name in names)]
        },
        "flagged_labelled_ok": both.loc[flagged & ~bad, ["sample_id", "rule_id", "reason_names"]].to_dict("records"),
        "unflagged_labelled_bad": float(bad[~flagged].mean()),
        "missed": both.loc[~flagged & bad, ["sample_id", "rule_id", "why"]].to_dict("records"),
    }
    name = "agreement.json"
    if labels_name != "labels.csv":
        result = {"labels": labels_name, **result, "between_labellers": between_labellers(out, labels_name)}
        name = f"agreement_{Path(labels_name).stem}.json"
    (out / name).write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    return result


def between_labellers(out: Path, labels_name: str) -> dict:
    """Cohen's kappa and raw agreement of ``labels.csv`` (the audit's author) and `labels_name`, and the rules
    they label differently."""
    from sklearn.metrics import cohen_kappa_score

    first = _read_labels(out / "labels.csv")
    second = _read_labels(out / labels_name)
    both = first.merge(second, on="sample_id", suffixes=("_author", "_other"), validate="one_to_one")
    differ = both[both["label_author"] != both["label_other"]]
    return {
        "n": len(both),
        "kappa": float(cohen_kappa_score(both["label_author"], both["label_other"])),
        "raw_agreement": float((both["label_author"] == both["label_other"]).mean()),
        "disagreements": differ[["sample_id", "label_author", "label_other", "why_other"]].to_dict("records"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["audit", "sample", "agree"])
    parser.add_argument("--n", type=int, default=15, help="flagged and unflagged rules each (sample)")
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--labels", default="labels.csv", help="the labelling agree reads, in --out (agree)")
    args = parser.parse_args()
    out = Path(args.out)
    if args.step == "audit":
        audit(out)
    elif args.step == "sample":
        out.mkdir(parents=True, exist_ok=True)
        sample(out, args.n)
    else:
        agree(out, args.labels)


if __name__ == "__main__":
    main()
