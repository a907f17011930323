"""Results per system and split in the layout of the paper's Table 2 (CSV) and a figure.

Inputs per system (a model or a baseline run with a model): per-answer metrics, judge verdicts and
FActScores. Outputs:

- ``results.csv`` (tidy): system, source, split, n, the seven Table 2 measures, n_correct,
  factscore_correct (mean FActScore over answers judged correct, as in the paper's Figure 4; NaN
  when none is correct), factscore_all (over every answer with at least one claim);
- ``table2_{source}.csv``: one row per system, columns ``Long-Tail/BS-Prec`` … ``Head/Correctness (%)`` and
  ``Notes``; a cell that could not be measured validly reads ``invalid`` and the note says why (a judge
  that failed its check: Correctness and FActScore of correct answers are not reported);

When the judge failed its check, ``correctness_pct``, ``n_correct`` and ``factscore_correct`` are missing
and ``correctness_status`` gives the reason (``valid`` otherwise).
- a figure with one panel per measure, bars per system, head and long-tail side by side.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

MEASURES = {  # column in results.csv -> Table 2 heading
    "bs_precision": "BS-Prec",
    "bs_recall": "BS-Rec",
    "bs_f1": "BS-F1",
    "rougeL": "ROUGE-L",
    "bleu": "BLEU (%)",
    "meteor": "METEOR",
    "correctness_pct": "Correctness (%)",
}
RESCALED_MEASURES = {
    "bs_precision_rescaled": "BS-Prec (rescaled)",
    "bs_recall_rescaled": "BS-Rec (rescaled)",
    "bs_f1_rescaled": "BS-F1 (rescaled)",
}  # with the locally computed baseline (.bertscore_baseline)
SPLIT_HEADINGS = {"longtail": "Long-Tail", "head": "Head"}
PAPER_BERTSCORE = ("roberta-large", 17)  # bert-score's default encoder and layer for English, rescaled in the paper
FACTSCORE_MEASURES = {"factscore_all": "FActScore", "factscore_coverage": "FActScore coverage"}
RESULT_COLUMNS = [
    "system",
    "source",
    "split",
    "n",
    *MEASURES,
    *RESCALED_MEASURES,
    "n_correct",
    "factscore_correct",
    "n_factscore_correct",
    "factscore_all",
    "factscore_coverage",
    "correctness_status",
    "factscore_status",
]
JUDGE_DEPENDENT = ("correctness_pct", "n_correct", "factscore_correct", "n_factscore_correct")


def item_scores(
    questions: pd.DataFrame, system: str, metrics: pd.DataFrame, judged: pd.DataFrame, factscores: pd.DataFrame
) -> pd.DataFrame:
    """One row per answered question: its split/source, metrics, verdict and FActScore."""
    table = questions[["id", "source", "split"]].merge(metrics, on="id", how="inner", validate="one_to_one")
    table = table.merge(judged[["id", "correct"]], on="id", how="left", validate="one_to_one")
    table = table.merge(
        factscores[["id", "factscore", "n_claims", "n_checkable"]], on="id", how="left", validate="one_to_one"
    )
    if len(table) != len(metrics):
        raise KeyError(f"system {system}: {len(metrics) - len(table)} scored answers have no question in the sample")
    return table.assign(system=system)


def _coverage(group: pd.DataFrame) -> float:
    """Checkable claims / claims over a group of answers (NaN without claims)."""
    claims = group["n_claims"].sum()
    return float(group["n_checkable"].sum() / claims) if claims else float("nan")


def summarise(items: pd.DataFrame, judge_validity: dict | None = None, min_coverage: float = 0.0) -> pd.DataFrame:
    """Mean of each measure per (system, source, split); correctness in %, FActScore as in Figure 4.

    `judge_validity` ({valid, reason}): when the judge failed its check, the judge-dependent measures are
    missing and ``correctness_status`` holds the reason. FActScore (all answers; correct answers) is
    missing with ``factscore_status`` giving the reason when its coverage (checkable / all claims of those
    answers) is below `min_coverage`: "could not check" is not "false".
    """
    valid = judge_validity is None or judge_validity["valid"]
    status = "valid" if valid else f"invalid: {judge_validity['reason']}"
    rows = []
    for (system, source, split), group in items.groupby(["system", "source", "split"], sort=True):
        correct = group["correct"].astype("boolean").fillna(False).astype(bool)
        rows.append(
            {
                "system": system,
                "source": source,
                "split": split,
                "n": len(group),
                **{
                    m: group[m].mean()
                    for m in ("bs_precision", "bs_recall", "bs_f1", "rougeL", "bleu", "meteor", *RESCALED_MEASURES)
                    if m in group
                },
                "correctness_pct": 100 * correct.mean(),
                "n_correct": int(correct.sum()),
                "factscore_correct": group.loc[correct, "factscore"].mean(),
                "n_factscore_correct": int(group.loc[correct, "factscore"].notna().sum()),
                "factscore_all": group["factscore"].mean(),
                "factscore_coverage": _coverage(group),
                "correctness_status": status,
            }
        )
        coverage_correct = _coverage(group[correct])
        notes = []
        if rows[-1]["factscore_coverage"] < min_coverage:  # NaN (no claims) leaves the score NaN anyway
            rows[-1]["factscore_all"] = float("nan")
            notes.append(f"all answers: coverage {rows[-1]['factscore_coverage']:.2f} < {min_coverage:.2f}")
        if coverage_correct < min_coverage:
            rows[-1]["factscore_correct"] = float("nan")
            notes.append(f"correct answers: coverage {coverage_correct:.2f} < {min_coverage:.2f}")
        rows[-1]["factscore_status"] = (
            "valid" if not notes else "n/a (too few claims the KG can check): " + "; ".join(notes)
        )
    table = pd.DataFrame(rows).reindex(columns=RESULT_COLUMNS)
    if not valid:
        table[list(JUDGE_DEPENDENT)] = float("nan")
    return table


def bertscore_note(model_type: str, num_layers: int, rescaled: bool, local_baseline: str | None = None) -> str:
    """What the BS-* columns are, next to the paper's (rescaled roberta-large, bert-score's default for en).
    `local_baseline`: how the baseline behind the BS-* (rescaled) columns was computed (None: no such columns)."""
    scale = "rescaled with bert-score's baseline" if rescaled else "not rescaled"
    if rescaled and (model_type, num_layers) == PAPER_BERTSCORE:
        note = f"BS-*: BERTScore with {model_type}, layer {num_layers}, {scale}: the paper's setting"
    else:
        note = (
            f"BS-*: BERTScore with encoder {model_type}, layer {num_layers}, {scale}; not the paper's rescaled "
            "roberta-large, so not on its scale"
        )
    if local_baseline:
        note += (
            f"; BS-* (rescaled): (x - b) / (1 - b) with a baseline b computed here as bert-score computes its "
            f"own ({local_baseline}), still not the paper's roberta-large scale"
        )
    return note


def table2_layout(results: pd.DataFrame, source: str, note: str = "") -> pd.DataFrame:
    """The paper's wide layout for one source: Long-Tail measures, then Head measures; `note` opens Notes."""
    subset = results[results["source"] == source]
    wide = pd.DataFrame(index=sorted(subset["system"].unique()))
    wide.index.name = "Model"
    for split, heading in SPLIT_HEADINGS.items():
        part = subset[subset["split"] == split].set_index("system")
        rescaled = {c: label for c, label in RESCALED_MEASURES.items() if c in subset and subset[c].notna().any()}
        for column, label in {**MEASURES, **rescaled, **FACTSCORE_MEASURES}.items():
            wide[f"{heading}/{label}"] = part[column] if column in part else float("nan")
    wide = wide.round(3)
    invalid = subset.loc[subset["correctness_status"].fillna("valid") != "valid", "correctness_status"]
    wide["Notes"] = note
    if len(invalid):
        for heading in SPLIT_HEADINGS.values():
            wide[f"{heading}/Correctness (%)"] = "invalid"
        wide["Notes"] = "; ".join(filter(None, [note, f"Correctness (%) {invalid.iloc[0]}"]))
    for system, status in (
        subset.groupby("system")["factscore_status"]
        .agg(lambda s: "; ".join(f"{split}: {v}" for split, v in zip(subset.loc[s.index, "split"], s) if v != "valid"))
        .items()
    ):
        if status:
            wide.loc[system, "Notes"] = "; ".join(filter(None, [wide.loc[system, "Notes"], f"FActScore {status}"]))
    return wide


def plot_results(results: pd.DataFrame, path: str | Path, title: str) -> None:
    """Panels per measure (+ FActScore of correct answers), bars per system, head vs long-tail."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    measures = {**MEASURES, "factscore_correct": "FActScore (correct)"}
    systems = sorted(results["system"].unique())
    fig, axes = plt.subplots(2, 4, figsize=(16, 7), constrained_layout=True)
    width = 0.4
    for ax, (column, label) in zip(axes.flat, measures.items()):
        for offset, (split, heading) in zip((-width / 2, width / 2), SPLIT_HEADINGS.items()):
            part = results[results["split"] == split].set_index("system").reindex(systems)
            ax.bar([i + offset for i in range(len(systems))], part[column], width, label=heading)  # NaN: no bar
        ax.set_title(label if results[column].notna().any() else f"{label}: not measured validly")
        if column in ("factscore_correct", "correctness_pct"):
            ax.set_ylim(0, 100 if column == "correctness_pct" else 1)
        ax.set_xticks(range(len(systems)))
        ax.set_xticklabels(systems, rotation=35, ha="right", fontsize=7)
    axes.flat[0].legend(fontsize=8)
    fig.suptitle(title)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
