"""Rule commonwhy_eval_table2: results.csv, the Table 2 layout per source and the figure."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from benchval.commonwhy.eval import table2_results
from benchval.commonwhy.eval.questions import read_questions, sample_composition
from benchval.commonwhy.eval.steps.commonwhy_eval_stage_io import read_validity


def measured_judges_note(judges_csv: str | Path, bar: float) -> str:
    """What benchmarks/bench_commonwhy_judges.py found (its judges.csv): which judges pass the bar, with figures."""
    table = pd.read_csv(judges_csv)
    measured = table[(table["status"] == "measured") & (table["decision"] != "rule")]  # canaries are no judges
    passing = measured[measured["valid"].astype(str).str.lower() == "true"]
    figures = "; ".join(
        f"{r.judge} ({r.decision}) {r.balanced_accuracy:.3f} [{r.balanced_accuracy_lo:.3f}, "
        f"{r.balanced_accuracy_hi:.3f}]"
        for r in measured.itertuples()
    )
    head = (
        f"no judge at hand passes the bar {bar:.2f}"
        if passing.empty
        else f"passing the bar {bar:.2f}: " + ", ".join(f"{r.judge} ({r.decision})" for r in passing.itertuples())
    )
    missing = table.loc[table["status"] != "measured", "judge"].tolist()
    tail = f"; not measured: {', '.join(missing)}" if missing else ""
    return f"{head} (benchmarks/bench_commonwhy_judges.py, balanced accuracy [95% CI]: {figures}{tail})"


def reference_factscore_note(references: pd.DataFrame | None, source: str) -> str:
    """One sentence per source: FActScore of the reference answers themselves (the check on the checker)."""
    if references is None:
        return ""
    rows = references[references["source"] == source]
    parts = [
        f"{r.split} coverage {r.coverage:.2f}, FActScore "
        f"{'n/a (no claim checkable)' if pd.isna(r.factscore) else f'{r.factscore:.2f}'} "
        f"({r.n_checkable} of {r.n_claims} claims checkable)"
        for r in rows.itertuples()
    ]
    return f"FActScore of the {source} references themselves: " + "; ".join(parts) if parts else ""


def stage_table2(
    questions: str,
    systems: Mapping[str, Mapping[str, str]],
    validity: str,
    results_out: str,
    table_outs: Mapping[str, str],
    figure_out: str,
    min_coverage: float = 0.0,
    bertscore_note: str = "",
    judges_measured: str | None = None,
    factscore_references: str | None = None,
) -> None:
    """`systems`: name -> {metrics, judged, factscore} paths. `table_outs`: source -> CSV path.
    `validity`: the judge's check verdict (judge-dependent cells are invalid when it failed; the reason then
    adds what the judge benchmark found, `judges_measured`: its judges.csv)."""
    sample = read_questions(questions)
    items = pd.concat(
        [
            table2_results.item_scores(
                sample,
                name,
                pd.read_parquet(p["metrics"]),
                pd.read_parquet(p["judged"]),
                pd.read_parquet(p["factscore"]),
            )
            for name, p in systems.items()
        ],
        ignore_index=True,
    )
    check = read_validity(validity)
    if not check["valid"] and judges_measured:
        check["reason"] += "; " + measured_judges_note(judges_measured, check["bar"])
    results = table2_results.summarise(items, check, min_coverage)
    Path(results_out).parent.mkdir(parents=True, exist_ok=True)
    results.to_csv(results_out, index=False)
    references = pd.read_csv(factscore_references) if factscore_references else None
    for source, path in table_outs.items():
        composition = f"sample by reasoning category: {sample_composition(sample, source)}"
        note = "; ".join(filter(None, [bertscore_note, reference_factscore_note(references, source), composition]))
        table2_results.table2_layout(results, source, note).to_csv(path)
    table2_results.plot_results(
        results[results["source"] == "published"] if (results["source"] == "published").any() else results,
        figure_out,
        "CommonWhy answers (layout of Table 2 + FActScore)",
    )
