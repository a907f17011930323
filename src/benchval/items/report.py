"""The item studies' report page, results/items/report.md (rule items_report; docs/items.md).

Every sentence is generated from the tables: whether a subset keeps the benchmark's validity, and
whether criterion-chosen items beat the full benchmark out of family, is read from the interval of the
difference rho(subset) - rho(full) (families and draws resampled together): wholly below 0 -> lower,
wholly above 0 -> higher, else not distinguishable at this number of models (which is not the same as
equal: the width is said); and from the permutation null (the curve's ``verdict``, benchval.items.curve):
a subset keeps or gains validity only where the interval and the permutation p both say so.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd


def _ci(low: float, high: float) -> str:
    return f"[{low:.2f}, {high:.2f}]"


def difference_verdict(low: float, high: float) -> str:
    if not (np.isfinite(low) and np.isfinite(high)):
        return "undefined"
    if high < 0:
        return "lower"
    if low > 0:
        return "higher"
    return "not distinguishable"


def _k_sentence(method: str, row: pd.Series, full_rho: float) -> str:
    verdict = difference_verdict(row["diff_ci_low"], row["diff_ci_high"])
    what = {
        "random": "A random 100-item subset gives",
        "irt": "The 100 IRT maximum-information items give",
        "anchor": "The IRT estimate of the full score from 100 anchor points (tinyBenchmarks-style) gives",
        "criterion": "The 100 criterion-chosen items (chosen on the training families, scored out of family) give",
    }[method]
    interval = "median of draws; families and draws resampled" if method == "random" else "families resampled"
    head = f"{what} rho = {row['rho']:.2f} {_ci(row['ci_low'], row['ci_high'])} ({interval})"
    difference = (
        f"difference to the full benchmark {row['diff_vs_full']:+.2f} {_ci(row['diff_ci_low'], row['diff_ci_high'])}"
    )
    if verdict == "lower":
        tail = f"it does not keep the validity: {difference}"
    elif verdict == "higher":
        tail = f"it beats the full benchmark's rho of {full_rho:.2f}: {difference}"
    elif verdict == "not distinguishable":
        width = row["diff_ci_high"] - row["diff_ci_low"]
        tail = (
            f"not distinguishable from the full benchmark's {full_rho:.2f} at this number of models: {difference}, "
            f"an interval {width:.2f} wide, so a loss or gain of that size is not excluded"
        )
    else:
        tail = "the difference is undefined"
    recovered = (
        f"Its score recovers the full mean to {100 * row['mae_vs_full']:.1f} accuracy points (mean absolute error)."
    )
    null = ""
    if "p_perm_rho" in row and np.isfinite(row["p_perm_rho"]):
        null = (
            f" Against the same method on {int(row['n_permutations'])} permuted criteria: p = {row['p_perm_rho']:.3f} "
            f"for its rho, p = {row['p_perm_gain']:.3f} for its difference; verdict: **{row['verdict']}**."
        )
    return f"{head}; {tail}.{null} {recovered}"


def pair_paragraph(summary: pd.Series, curve: pd.DataFrame) -> str:
    full = curve[curve["method"] == "full"].iloc[0]
    lines = [
        f"**{summary['benchmark']} -> {summary['criterion']}.** Over {int(summary['n_models'])} models "
        f"({int(summary['n_families'])} held-out families), the full benchmark ({int(summary['n_items'])} items) "
        f"correlates with the criterion at rho = {full['rho']:.2f} {_ci(full['ci_low'], full['ci_high'])} "
        f"(families resampled, 95%).",
        f"{int(summary['n_items_fdr_significant'])} of its {int(summary['n_items_defined'])} items with a defined "
        f"correlation have an FDR-significant item-criterion correlation (Benjamini-Hochberg over the benchmark's "
        f"items, alpha {summary['fdr_alpha']}); the item contributions sum to the Pearson r of "
        f"{summary['contribution_sum']:.3f}: the top 10% of items carry {summary['top10pct_contribution_share']:.0%} "
        f"of it, and {int(summary['n_items_negative_contribution'])} items work against the transfer "
        f"(their contributions sum to {summary['negative_contribution_sum']:.3f}; item_validity.csv lists them).",
    ]
    for method in ("random", "irt", "anchor", "criterion"):
        row = curve[(curve["method"] == method) & (curve["k"] == "100")]
        if row.empty or not np.isfinite(row.iloc[0].get("rho", np.nan)):
            lines.append(f"The benchmark has 100 items or fewer: no {method} 100-item subset.")
        else:
            lines.append(_k_sentence(method, row.iloc[0], full["rho"]))
    return " ".join(lines)


def _k100_cell(s: pd.Series, method: str) -> str:
    if not np.isfinite(s.get(f"k100_{method}_rho", np.nan)):
        return "n/a"
    cell = f"{s[f'k100_{method}_rho']:.2f}; diff {s[f'k100_{method}_diff_vs_full']:+.2f} "
    cell += _ci(s[f"k100_{method}_diff_ci_low"], s[f"k100_{method}_diff_ci_high"])
    if np.isfinite(s.get(f"k100_{method}_p_perm_rho", np.nan)):
        key = f"k100_{method}"
        cell += f", p {s[f'{key}_p_perm_rho']:.3f} / {s[f'{key}_p_perm_gain']:.3f}, {s[f'{key}_verdict']}"
    return cell


def summary_table(summaries: pd.DataFrame) -> str:
    header = (
        "| benchmark | criterion | n models (families) | full rho [95% CI] | FDR-sig. items | k=100 random | "
        "k=100 IRT max-information | k=100 anchor points (IRT estimate) | k=100 criterion (out of family) |\n"
        "|---|---|---|---|---|---|---|---|---|"
    )
    rows = [header]
    for _, s in summaries.iterrows():
        cells = [_k100_cell(s, m) for m in ("random", "irt", "anchor", "criterion")]
        rows.append(
            f"| {s['benchmark']} | {s['criterion']} | {int(s['n_models'])} ({int(s['n_families'])}) | "
            f"{s['full_rho']:.2f} "
            f"{_ci(s['full_ci_low'], s['full_ci_high'])} | {int(s['n_items_fdr_significant'])}/{int(s['n_items'])} | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(rows)


def _bound_cell(choice: pd.Series, model: str) -> str:
    if f"{model}_at_bound" not in choice or not np.isfinite(choice[f"{model}_at_bound"]):
        return "n/a"
    return f"{int(choice[f'{model}_at_bound'])} ({int(choice[f'{model}_top100_at_bound'])})"


def irt_choice_section(choice: pd.DataFrame) -> str:
    lines = [
        "IRT model per benchmark (least BIC, or the configured one) and its items at a bound of the fit "
        "(a = 5 or |b| = 6), in all and among the fit's 100 most informative items (what a selection that "
        "allowed bounds would have taken; before issue 44 the 2PL chose). Items at a bound are never selected now.",
        "",
        "| benchmark | chosen | 1PL at bound (top 100) | 2PL at bound (top 100) | selectable items "
        "| selectable at bound |",
        "|---|---|---|---|---|---|",
    ]
    for _, c in choice.iterrows():
        lines.append(
            f"| {c['benchmark']} | {c['chosen_model']} | {_bound_cell(c, '1PL')} | {_bound_cell(c, '2PL')} | "
            f"{c['selectable_items']} | {c['selectable_at_bound']} |"
        )
    return "\n".join(lines)


def _number(value, digits: int = 2) -> str:
    return f"{value:.{digits}f}" if np.isfinite(value) else "n/a"


def snr_section(folder: Path) -> str:
    snr = pd.read_csv(folder / "snr.csv")
    lines = [
        "Signal (sd of model scores), noise by source, SNR (signal / root sum of the measured noise variances), "
        "split-half reliability and decision accuracy (share of model pairs the `_10` checkpoint orders as `_best`):",
        "",
        "| task | role | signal | noise item | noise seed | noise checkpoint | SNR | reliability "
        "| decision acc. (_10) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for _, r in snr.iterrows():
        lines.append(
            f"| {r['task']} | {r['role']} | {_number(r['signal'], 4)} | {_number(r['noise_item'], 4)} | "
            f"{_number(r['noise_seed'], 4)} | {_number(r['noise_checkpoint'], 4)} | {_number(r['snr'])} | "
            f"{_number(r['reliability'], 3)} | {_number(r['decision_accuracy_10'], 3)} |"
        )
    relation = pd.read_csv(folder / "snr_relation.csv")
    for _, r in relation.iterrows():
        lines += [
            "",
            f"{r['relation']} across {int(r['n_benchmarks'])} benchmarks: Spearman rho "
            f"{_number(r['spearman_rho'])} [{_number(r['ci_low'])}, {_number(r['ci_high'])}] ({r['interval']}).",
        ]
    return "\n".join(lines)


def _text_cell(value) -> str:
    """Untrusted text (leaderboard headers, file names) as one Markdown table cell."""
    return " ".join(str(value).split()).replace("\\", "\\\\").replace("|", "\\|")


def reevaluation_section(table: pd.DataFrame) -> str:
    """The open_llm re-evaluation noise table (benchval.items.reevaluation), beside the item studies' SNR."""
    lines = [
        "## Re-evaluation noise (open_llm leaderboards)",
        "",
        "Signal: sd across the main table's models (atlas cells, percent points); noise: pooled within-model sd "
        "of the models listed two or more times under one raw name (atlas leaderboards/duplicates.csv; models "
        "whose listings carry several raw names left out); SNR = signal / noise, interval from resampled models:",
        "",
        "| leaderboard | benchmark | models | signal | re-evaluated models (evaluations) | noise | SNR | "
        "left out | source |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for _, r in table.iterrows():
        lines.append(
            f"| {_text_cell(r['leaderboard'])} | {_text_cell(r['benchmark'])} | {int(r['n_models'])} | "
            f"{_number(r['signal'])} | "
            f"{int(r['n_models_reevaluated'])} ({int(r['n_evaluations'])}) | {_number(r['noise_reevaluation'])} | "
            f"{_number(r['snr_reevaluation'], 1)} [{_number(r['snr_ci_low'], 1)}, {_number(r['snr_ci_high'], 1)}] | "
            f"{int(r['n_excluded'])} | {_text_cell(r['source'])} |"
        )
    return "\n".join(lines)


def recovery_section(recovery: pd.DataFrame) -> str:
    lines = [
        "## IRT recovery check",
        "",
        "Responses simulated from known parameters, fitted back with the same code before any real data is "
        "(Pearson r of true and estimated values; a gated design below its thresholds stops the workflow):",
        "",
        "| design | gate | model | respondents | items | r difficulty | r discrimination | r ability |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for _, r in recovery.iterrows():
        disc = f"{r['r_discrimination']:.3f}" if np.isfinite(r["r_discrimination"]) else "(fixed)"
        lines.append(
            f"| {r['design']} | {bool(r['gate'])} | {r['model']} | {r['n_respondents']} | {r['n_items']} | "
            f"{r['r_difficulty']:.3f} | {disc} | {r['r_theta']:.3f} |"
        )
    return "\n".join(lines)


def fit_section(fits: pd.DataFrame) -> str:
    lines = [
        "## IRT fits",
        "",
        "| source | task | model | respondents | items | log-lik | AIC | BIC | items with infit outside 0.7-1.3 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for _, f in fits.iterrows():
        lines.append(
            f"| {f['source']} | {f['task']} | {f['model']} | {f['n_respondents']} | {f['n_items']} | "
            f"{f['log_likelihood']:.0f} | {f['aic']:.0f} | {f['bic']:.0f} | {f['infit_outside_0.7_1.3']} |"
        )
    return "\n".join(lines)


def write_report(
    studies: dict, headlines: dict, recovery_csv: str, fits: list, output: str, reevaluation_csv: str | None = None
) -> None:
    """``studies``: study -> its folder; ``headlines``: study -> {benchmark, criterion} to spell out
    (criterion ``best_supported``: read from criteria_support.csv); ``fits``: [source, task, fit.csv];
    ``reevaluation_csv``: the open_llm re-evaluation noise table (benchval.items.reevaluation), if any."""
    from benchval.items.criteria import headline_criterion

    parts = [
        "# Item-level validity",
        "",
        "Which items of a benchmark carry its correlation with a downstream criterion, and does a small subset "
        "keep it (docs/items.md). Intervals are 95%, from resamples of families (models clustered by lineage) "
        "and, for random subsets, a fresh draw per resample; p: rho / difference against the same method on "
        "permuted criteria (the criterion selection repeated on each); verdict: keeps / gains only where the "
        "interval and the permutation p both say so.",
    ]
    for study, folder in studies.items():
        summaries = pd.read_csv(Path(folder) / "summary.csv")
        curve = pd.read_csv(Path(folder) / "validity_curve.csv", dtype={"k": str})
        benchmark, criterion = headlines[study]["benchmark"], headline_criterion(folder, headlines[study])
        parts += ["", f"## Study `{study}`", ""]
        chosen = summaries[(summaries["benchmark"] == benchmark) & (summaries["criterion"] == criterion)]
        if chosen.empty:
            parts.append(f"The headline pair {benchmark} -> {criterion} was not analysed (no criterion scores).")
        else:
            pair_curve = curve[(curve["benchmark"] == benchmark) & (curve["criterion"] == criterion)]
            parts.append(pair_paragraph(chosen.iloc[0], pair_curve))
        parts += ["", "Every pair (k = 100; rho with its interval):", "", summary_table(summaries)]
        parts += ["", irt_choice_section(pd.read_csv(Path(folder) / "irt_choice.csv"))]
        parts += ["", snr_section(Path(folder))]
        parts += [
            "",
            f"Figures: `{study}/figures/validity_curve.png`, `{study}/figures/item_map.png`, "
            f"`{study}/figures/snr_validity.png`.",
        ]
    if reevaluation_csv is not None:
        parts += ["", reevaluation_section(pd.read_csv(reevaluation_csv))]
    tables = [pd.read_csv(path).assign(source=source, task=task) for source, task, path in fits]
    parts += ["", recovery_section(pd.read_csv(recovery_csv)), "", fit_section(pd.concat(tables, ignore_index=True))]
    Path(output).write_text("\n".join(parts) + "\n", encoding="utf-8")
