"""The atlas's report page (results/atlas/report.md; docs/atlas.md): every number read from an output."""

from __future__ import annotations

import pandas as pd


def _table(frame: pd.DataFrame, digits: int = 3) -> str:
    """A markdown table (pandas' to_markdown needs tabulate; this keeps the page dependency-free)."""

    def cell(value):
        if isinstance(value, float):
            return "" if pd.isna(value) else f"{value:.{digits}g}"
        return str(value).replace("|", "/")

    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def report_page(inputs: dict, criterion: str, study_criterion: str) -> str:
    """The page's markdown from the atlas outputs (``inputs``: name -> csv path)."""
    read = {name: pd.read_csv(path) for name, path in inputs.items()}
    counts = read["counts"]
    intervals = read["intervals"]
    musr = intervals[intervals["downstream"] == study_criterion][
        ["benchmark", "downstream", "rho", "ci_low", "ci_high", "n_models"]
    ]
    ranked = read["human_preference"]
    ranked = ranked[ranked["criterion"] == criterion][
        [
            "rank",
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
    sections = [
        "# Validity atlas: which benchmarks predict which criteria",
        "Real leaderboard tables of the raw-data mirror (benchbench/, obsscaling/), one model registry across "
        "them (docs/atlas.md). Every number on this page is read from the CSV named beside it.",
        "## Counts (counts.csv)",
        _table(counts[["count", "value", "what"]]),
        "## Registry against ObsScaling's curated labels (obsscaling/agreement.csv, obsscaling/disagreements.csv)",
        _table(read["obs_agreement"]),
        "Every disagreement, with the rule that decided the registry's value:",
        _table(read["obs_disagreements"][["model", "field", "obsscaling", "registry", "registry_rule", "why"]]),
        f"Merges of raw names: {len(read['merges'])} models absorbed more than one raw name (registry/merges.csv); "
        f"unresolved fields: {len(read['unresolved'])} (registry/unresolved.csv).",
        f"## open_llm: commonsense benchmarks and MMLU against {study_criterion} (intervals/open_llm.csv)",
        "The study's figures and Table 4: results/figures/open_llm/ (analysis chain).",
        _table(musr),
        "## open_llm against ObsScaling's own runs, same models (open_llm_crosscheck.csv)",
        _table(read["crosscheck"]),
        f"## Predictors of {criterion}, ranked beyond size (human_preference.csv)",
        "rho: Spearman on the shared models; rho_partial_log_size: partial Spearman on log size on the shared "
        "models with a known size (open-weights models); FDR across the study.",
        _table(ranked),
        f"## Agreement versus validity for {criterion} (agreement_validity.csv)",
        _table(agreement.drop(columns=["criterion"])),
        f"Benchmarks moving more than the configured number of places: {', '.join(moved['benchmark']) or 'none'}.",
    ]
    return "\n\n".join(sections) + "\n"
