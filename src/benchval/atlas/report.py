"""The atlas's report page (results/atlas/report.md; docs/atlas.md): every number read from an output."""

from __future__ import annotations

import pandas as pd

from benchval.analysis.rank_resolution import adjacent_from_intervals


def _table(frame: pd.DataFrame, digits: int = 3) -> str:
    """A markdown table (pandas' to_markdown needs tabulate; this keeps the page dependency-free)."""

    def cell(value):
        if isinstance(value, float):
            return "" if pd.isna(value) else f"{value:.{digits}g}"
        return str(value).replace("|", "/")

    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def _ranked_as_groups(table: pd.DataFrame, criterion: str) -> pd.DataFrame:
    """The criterion's predictors by raw rho, best first, with the tie group of each rank."""
    own = table[(table["criterion"] == criterion) & table["rho"].notna()].set_index("predictor", drop=False)
    groups = adjacent_from_intervals(own, "rho", "ci_low", "ci_high")
    return own.loc[groups.index].assign(rank_by_rho=groups["rank_range"]).reset_index(drop=True)


def report_sections(inputs: dict, criterion: str, study_criterion: str) -> list:
    """The page's parts, in order: headings and text (str) and tables (DataFrame), from the atlas outputs."""
    read = {name: pd.read_csv(path) for name, path in inputs.items()}
    counts = read["counts"]
    intervals = read["intervals"]
    musr = intervals[intervals["downstream"] == study_criterion][
        ["benchmark", "downstream", "rho", "ci_low", "ci_high", "n_models"]
    ]
    ranked = _ranked_as_groups(read["human_preference"], criterion)[
        [
            "rank_by_rho",
            "predictor",
            "n_models",
            "rho",
            "ci_low",
            "ci_high",
            "p_fdr",
            "n_models_sized",
            "rho_partial_log_size",
            "p_partial_fdr",
        ]
    ]
    agreement = read["agreement"]
    moved = agreement[agreement["moved"]]
    return [
        "# Validity atlas: which benchmarks predict which criteria",
        "Real leaderboard tables of the raw-data mirror (benchbench/, obsscaling/), one model registry across "
        "them (docs/atlas.md). Every number on this page is read from the CSV named beside it.",
        "## Counts (counts.csv)",
        counts[["count", "value", "what"]],
        "## Registry against ObsScaling's curated labels (obsscaling/agreement.csv, obsscaling/disagreements.csv)",
        read["obs_agreement"],
        "Every disagreement, with the rule that decided the registry's value:",
        read["obs_disagreements"][["model", "field", "obsscaling", "registry", "registry_rule", "why"]],
        f"Merges of raw names: {len(read['merges'])} models absorbed more than one raw name (registry/merges.csv); "
        f"unresolved fields: {len(read['unresolved'])} (registry/unresolved.csv).",
        f"## open_llm: commonsense benchmarks and MMLU against {study_criterion} (intervals/open_llm.csv)",
        "The study's figures and Table 4: results/figures/open_llm/ (analysis chain).",
        musr,
        "## open_llm against ObsScaling's own runs, same models (open_llm_crosscheck.csv)",
        read["crosscheck"],
        f"## Predictors of {criterion} (human_preference.csv; all of them, with the figure: forest.csv)",
        "rho: Spearman on the shared models; rank_by_rho: the tie group of its rank (adjacent predictors whose "
        "intervals overlap share one; benchval.analysis.rank_resolution), not a strict order; "
        "rho_partial_log_size: partial Spearman on log size on the shared "
        "models with a known size (open-weights models); FDR across the study.",
        ranked,
        f"## Agreement versus validity for {criterion} (agreement_validity.csv)",
        agreement.drop(columns=["criterion"]),
        f"Benchmarks moving more than the configured number of places: {', '.join(moved['benchmark']) or 'none'}.",
    ]


def report_page(inputs: dict, criterion: str, study_criterion: str) -> str:
    """The page as markdown (results/atlas/report.md)."""
    parts = report_sections(inputs, criterion, study_criterion)
    return "\n\n".join(_table(p) if isinstance(p, pd.DataFrame) else p for p in parts) + "\n"


def report_html(inputs: dict, criterion: str, study_criterion: str) -> str:
    """The same page as self-contained HTML (no scripts), for Snakemake's report."""
    from html import escape

    body = []
    for part in report_sections(inputs, criterion, study_criterion):
        if isinstance(part, pd.DataFrame):
            body.append(part.to_html(index=False, float_format=lambda v: f"{v:.3g}", na_rep="n/a", border=0))
        elif part.startswith("# "):
            body.append(f"<h1>{escape(part[2:])}</h1>")
        elif part.startswith("## "):
            body.append(f"<h2>{escape(part[3:])}</h2>")
        else:
            body.append(f"<p>{escape(part)}</p>")
    style = "body{font-family:sans-serif;font-size:13px} td,th{padding:2px 6px;border-bottom:1px solid #ddd}"
    head = f"<head><meta charset='utf-8'><style>{style}</style></head>"
    return f"<!DOCTYPE html><html>{head}<body>{''.join(body)}</body></html>\n"
