"""Rule commonwhy_eval_judge_check_report: the judge check table, and its HTML page for the report."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from benchval.commonwhy.eval.steps.commonwhy_eval_stage_io import read_validity


def stage_judge_check_report(
    scores: list[str],
    validities: list[str],
    table_out: str,
    page_out: str,
    measured: list[str] = (),
    canaries: tuple[str, str] | None = None,
) -> None:
    """The configured judge's check table and that of every judge measured by
    benchmarks/bench_commonwhy_judges.py (`measured`: its committed per-judge CSVs), one CSV and its HTML page."""
    from benchval.report.pages import write_table_page

    parts = [pd.read_csv(p).assign(measured_by="this run") for p in scores]
    parts += [pd.read_csv(p).assign(measured_by="benchmarks/bench_commonwhy_judges.py") for p in measured]
    if canaries:
        parts.append(pd.read_csv(canaries[0]).assign(measured_by="this run (canary)"))
    table = pd.concat(parts, ignore_index=True)
    verdicts = [read_validity(p) for p in validities]
    table.to_csv(table_out, index=False)
    intro = " ".join(f"{v['reason']}: correctness {'valid' if v['valid'] else 'INVALID (not used)'}." for v in verdicts)
    if canaries:
        canary_verdicts = json.loads(Path(canaries[1]).read_text())
        intro += (
            " Canary judges (each must fail the gate): "
            + "; ".join(
                f"{v['judge']} {'PASSES: the check set cannot separate' if v['valid'] else 'rejected'} "
                f"(below the floor: {', '.join(v['failing']) or 'none'})"
                for v in canary_verdicts
            )
            + "."
        )
    if measured:
        overall = table[(table["measured_by"] == "benchmarks/bench_commonwhy_judges.py") & (table["subset"] == "all")]
        intro += (
            " Every offline judge measured (balanced accuracy on all pairs, 95% interval): "
            + "; ".join(
                f"{r.judge} {r.decision} {r.balanced_accuracy:.3f} [{r.balanced_accuracy_lo:.3f}, "
                f"{r.balanced_accuracy_hi:.3f}]"
                for r in overall.itertuples()
            )
            + "."
        )
        bar = verdicts[0]["bar"] if verdicts else float("nan")
        if not (overall["balanced_accuracy_lo"] >= bar).any():
            intro += f" No judge at hand passes the bar {bar:.2f} (lower end of the interval)."
    write_table_page(table.round(3), page_out, "CommonWhy judge check", intro)
