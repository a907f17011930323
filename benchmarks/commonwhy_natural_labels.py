"""Natural answers labelled blind: the check set's labels file, and the configured judge's agreement with the labels.

``labels``: joins a blind labelling (``--labels``: ``sample_id,label,why``, label yes/no/not_checkable, made from
``--sample`` by a reader of docs/commonwhy-judge-guidelines.md who saw neither the key nor the code) to its key
(``--key``: ``sample_id,question_id,system,source_file``) and writes ``config/commonwhy/natural_labels.csv``
(question_id, system, answer_sha256, label, why: benchval.commonwhy.eval.check_natural). The digest is of the answer
as the run's answers table (``--run-dir``/results/commonwhy_eval/``source_file``) holds it; a sample answer that
differs from that text stops the script.

``agree``: the configured judge (``commonwhy_eval.judge``, its decision) on every labelled answer of the run, each
against all references of its question as answers are judged, and its agreement with the blind labels
(``not_checkable`` left out): Cohen's kappa (``sklearn.metrics.cohen_kappa_score``), balanced accuracy, accuracy,
per system, in ``benchmarks/results/commonwhy_natural_labels/agreement.json`` and ``verdicts.csv``. Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_natural_labels.py labels --run-dir /work/runs/after \\
        --labels natural_labels.csv --key natural_key.csv --sample natural_sample.csv
    PYTHONPATH=src .venv/bin/python benchmarks/commonwhy_natural_labels.py agree --run-dir /work/runs/after
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pandas as pd

from benchval.commonwhy.eval.check_natural import LABEL_COLUMNS, LABELS, answer_digest, read_natural_labels
from benchval.plumbing.folders import REPO_ROOT

LABELS_FILE = REPO_ROOT / "config" / "commonwhy" / "natural_labels.csv"
OUT = REPO_ROOT / "benchmarks" / "results" / "commonwhy_natural_labels"
EVAL = "results/commonwhy_eval"


def _run_answer(run_dir: Path, source_file: str, question_id: str) -> str:
    table = pd.read_parquet(run_dir / EVAL / source_file, columns=["id", "answer"])
    found = table.loc[table["id"] == question_id, "answer"]
    if len(found) != 1:
        raise SystemExit(f"{source_file}: {len(found)} answers to {question_id}")
    return "" if found.iloc[0] is None else str(found.iloc[0])


def labels(run_dir: Path, labels_path: Path, key_path: Path, sample_path: Path, out: Path) -> pd.DataFrame:
    given = pd.read_csv(labels_path, dtype=str, keep_default_na=False)
    given["label"] = given["label"].str.strip().str.lower()
    key = pd.read_csv(key_path, dtype=str, keep_default_na=False)
    sample = pd.read_csv(sample_path, dtype=str, keep_default_na=False)
    both = key.merge(given, on="sample_id", how="left", validate="one_to_one").merge(
        sample[["sample_id", "answer"]], on="sample_id", validate="one_to_one"
    )
    missing = both[both["label"].isna() | ~both["label"].isin(list(LABELS))]
    if len(missing):
        raise SystemExit(
            f"{labels_path}: {len(missing)} sampled answers without a known label: {list(missing['sample_id'])}"
        )
    rows = []
    for row in both.itertuples(index=False):
        text = _run_answer(run_dir, row.source_file, row.question_id)
        if text.strip() != row.answer.strip():
            raise SystemExit(
                f"{row.sample_id}: the sample's answer is not the run's ({row.source_file}, {row.question_id})"
            )
        rows.append(
            {
                "question_id": row.question_id,
                "system": row.system,
                "answer_sha256": answer_digest(text),
                "label": row.label,
                "why": " ".join(row.why.split()),
            }
        )
    table = pd.DataFrame(rows, columns=LABEL_COLUMNS).sort_values(["question_id", "system"])
    out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out, index=False)
    read_natural_labels(out)  # the check set's own reader accepts it
    print(f"{len(table)} labels written to {out}: {table['label'].value_counts().to_dict()}")
    return table


def _references(run_dir: Path) -> dict[str, list[str]]:
    """Question id -> every reference the judge reads (the evaluation's and the check's questions)."""
    out = {}
    for name in ("questions.parquet", "judge_check/check_questions.parquet"):
        table = pd.read_parquet(run_dir / EVAL / name, columns=["id", "question", "references"])
        out.update({row.id: (row.question, list(row.references)) for row in table.itertuples(index=False)})
    return out


def agree(run_dir: Path, labels_path: Path, config_files: list[str], models_dir: str, out: Path) -> dict:
    from sklearn.metrics import accuracy_score, balanced_accuracy_score, cohen_kappa_score

    from benchval.commonwhy.eval.check_natural import KIND
    from benchval.commonwhy.eval.judge_check import judge_pairs
    from benchval.commonwhy.eval.settings import resolve
    from benchval.commonwhy.eval.judge import make_judge
    from bench_commonwhy_judges import read_configs  # this folder's: merged as snakemake --configfile

    config = read_configs(config_files)
    settings = resolve(config.get("commonwhy_eval"))
    system = settings["judge"]["system"]
    table = read_natural_labels(labels_path)
    table = table[table["label"] != "not_checkable"].reset_index(drop=True)
    questions = _references(run_dir)
    pairs = pd.DataFrame(
        {
            "item": table["question_id"],
            "kind": KIND,
            "question": [questions[q][0] for q in table["question_id"]],
            "references": [questions[q][1] for q in table["question_id"]],
            "answer": [_answer_by_digest(run_dir, row) for row in table.itertuples(index=False)],
            "expected": table["label"].eq("yes"),
            "system": table["system"],
        }
    )
    started = time.perf_counter()
    judge = make_judge(system, settings, config["models"], models_dir)
    verdicts = judge_pairs(judge, pairs)
    seconds = time.perf_counter() - started
    expected, judged = verdicts["expected"].to_numpy(bool), verdicts["judged_yes"].to_numpy(bool)
    result = {
        "judge": system,
        "decision": judge.decision,
        "labels_file": str(labels_path.relative_to(REPO_ROOT))
        if labels_path.is_relative_to(REPO_ROOT)
        else str(labels_path),
        "n": len(verdicts),
        "n_yes_labels": int(expected.sum()),
        "share_judged_yes": float(judged.mean()),
        "kappa": float(cohen_kappa_score(expected, judged)),
        "balanced_accuracy": float(balanced_accuracy_score(expected, judged)),
        "accuracy": float(accuracy_score(expected, judged)),
        "per_system": {
            name: {"n": len(group), "labelled_yes": int(group["expected"].sum()), "agree": int(group["agrees"].sum())}
            for name, group in verdicts.groupby("system")
        },
        "seconds_with_load": round(seconds, 1),
    }
    out.mkdir(parents=True, exist_ok=True)
    verdicts.drop(columns=["references"]).to_csv(out / "verdicts.csv", index=False)
    (out / "agreement.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    return result


def _answer_by_digest(run_dir: Path, row) -> str:
    """The run's answer of `row`'s system to its question, found by the label's digest."""
    folder = run_dir / EVAL / ("judge_check/answers" if row.question_id.startswith("chk-") else "answers")
    text = _run_answer(run_dir, str((folder / f"{row.system}.parquet").relative_to(run_dir / EVAL)), row.question_id)
    if answer_digest(text) != row.answer_sha256:
        raise SystemExit(f"{row.question_id} ({row.system}): the run's answer is not the labelled one")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["labels", "agree"])
    parser.add_argument("--run-dir", required=True, help="a finished run (its results/commonwhy_eval/)")
    parser.add_argument("--labels", help="the blind labelling (labels)")
    parser.add_argument("--key", help="sample_id -> question_id, system, source_file (labels)")
    parser.add_argument("--sample", help="the sample the labeller read (labels)")
    parser.add_argument("--config", nargs="+", default=["config/config.yaml"])
    parser.add_argument("--models-dir", default="resources/models")
    args = parser.parse_args()
    run_dir = Path(args.run_dir)
    if args.step == "labels":
        labels(run_dir, Path(args.labels), Path(args.key), Path(args.sample), LABELS_FILE)
    else:
        agree(run_dir, LABELS_FILE, args.config, args.models_dir, OUT)


if __name__ == "__main__":
    main()
