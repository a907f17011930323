"""Double labelling of the judge's check set (docs/commonwhy-judge-guidelines.md, "Label quality").

Step 1, ``sample``: a seeded random sample of the check set's pairs (``--n``, the config's top-level seed) is written
blind to ``--out``/sample.csv (question, references, answer, the known facts about the entity; no kind, origin or
label) and the key to ``key.csv``. A second labeller labels sample.csv from the guidelines alone into
``second_labels.csv`` (``sample_id,label,why``; label yes or no). Step 2, ``agree``: Cohen's kappa (sklearn) of the
rule labels and the second labels, per kind counts (``agreement.json``) and every sampled pair with both labels
(``agreement.csv``); the disagreements are resolved in writing in ``resolution.md``.

``sample-hard`` draws a second blind sample (``sample_hard.csv``, key ``key_hard.csv``, ids ``h000`` on, seed
``[seed, 35]``) from the judgement-heavy pairs only, chosen by what a blind labeller sees: a non-empty answer that
is none of its references verbatim, and not already in key.csv's sample. It prints nothing but the count, so
that whoever draws it can label it blind. Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_label_agreement.py sample --n 60
    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_label_agreement.py sample-hard --n 40
    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_label_agreement.py agree
    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_label_agreement.py agree --labels independent_labels.csv \
        --name agreement_independent --versus second_labels.csv
    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_label_agreement.py agree --labels independent_labels_hard.csv \
        --key key_hard.csv --name agreement_independent_hard
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd
import yaml

from benchval.commonwhy.dataset import read_published
from benchval.commonwhy.eval.label_agreement import (
    agreement,
    blind_sample,
    known_facts,
    labeller_agreement,
    not_a_reference,
)
from benchval.commonwhy.pipeline import read_constructed

CHECK = "results/commonwhy_eval/judge_check/check_set.parquet"


def _facts(check: pd.DataFrame) -> list[str]:
    published, constructed = (
        read_published("results/commonwhy/published.parquet"),
        read_constructed("results/commonwhy/constructed.parquet"),
    )
    rows = []
    for table, id_column in ((published, "item_id"), (constructed, "question_id")):
        kept = table[table["audit_reasons"].map(len) == 0]
        for item, qids, answers in zip(kept[id_column].astype(str), kept["anchor_qids"], kept["answers"]):
            rows += [(item, qid, answer) for qid in qids[:1] for answer in answers]
    frame = pd.DataFrame(rows, columns=["item", "qid", "answer"])
    by_anchor = frame.groupby("qid")["answer"].apply(lambda a: list(dict.fromkeys(a))).to_dict()
    return known_facts(check, by_anchor, dict(zip(frame["item"], frame["qid"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["sample", "sample-hard", "agree"])
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--check", default=CHECK)
    parser.add_argument("--config", default="config/config.yaml")
    parser.add_argument("--out", default="benchmarks/results/commonwhy_label_agreement")
    parser.add_argument("--labels", default="second_labels.csv", help="agree: the labels, in --out")
    parser.add_argument("--key", default="key.csv", help="agree: the sample's key, in --out")
    parser.add_argument("--name", default="agreement", help="agree: writes <name>.json and <name>.csv in --out")
    parser.add_argument("--versus", help="agree: another labeller's labels in --out, compared on shared ids")
    args = parser.parse_args()
    out, check = Path(args.out), pd.read_parquet(args.check)
    out.mkdir(parents=True, exist_ok=True)
    if args.step == "sample":
        seed = yaml.safe_load(Path(args.config).read_text())["seed"]
        blind, key = blind_sample(check, args.n, seed, _facts(check))
        blind.to_csv(out / "sample.csv", index=False)
        key.to_csv(out / "key.csv", index=False)
        print(f"{len(blind)} pairs -> {out / 'sample.csv'} (key: {out / 'key.csv'})")
        return
    if args.step == "sample-hard":
        seed = yaml.safe_load(Path(args.config).read_text())["seed"]
        drawable = not_a_reference(check, pd.read_csv(out / "key.csv")["pair_id"].astype(str)).to_numpy()
        facts = [fact for fact, keep in zip(_facts(check), drawable, strict=True) if keep]
        blind, key = blind_sample(check[drawable], args.n, seed, facts, stream=35, prefix="h")
        blind.to_csv(out / "sample_hard.csv", index=False)
        key.to_csv(out / "key_hard.csv", index=False)
        print(len(blind))
        return
    labels = pd.read_csv(out / args.labels, dtype=str).fillna("")
    summary, table = agreement(check, pd.read_csv(out / args.key), labels)
    if args.versus:
        versus = pd.read_csv(out / args.versus, dtype=str).fillna("")
        summary["versus"] = {"labels": args.versus, **labeller_agreement(labels, versus)}
    (out / f"{args.name}.json").write_text(json.dumps(summary, indent=2))
    table.to_csv(out / f"{args.name}.csv", index=False)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
