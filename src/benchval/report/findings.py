"""The findings page of a run (``results/findings.md`` and ``.html``, first in the report): per study,
the few conclusions that survive their controls, FDR and the specification grid, each in one sentence
whose every number is read from the study's tables (docs/report.md, "Findings").

A candidate conclusion is stated only when it passes every gate that applies to its kind:

* ``benchmark ~ task`` (``correlations_cs_downstream``, commonsense rows): BH-adjusted (``reject``) and
  its bootstrap interval excludes 0; its partial correlation given log size, family and the control
  composite (``partial_spearman``) BH-adjusted too, with the same sign and an interval that excludes 0
  (the controls); each of the two in at least ``min_share_agree`` of its specifications
  (``specification_robustness``, the multiverse).
* ``delta_rho`` and the revision groups (OO - RR, OO - OR): BH-adjusted, the interval excludes 0, and
  the multiverse share.
* ``lofo_gain`` (descriptive, no p-value): the interval excludes 0 and the multiverse share.

Every other candidate is listed as rejected with the first gate it failed (the strongest
``max_rejected`` by |estimate|, the rest counted). A study with fewer models than ``min_models`` gets
one line that says so. The atlas (``results/atlas/human_preference.csv``) and the CommonWhy evaluation
are read only if their tables exist ("not run" otherwise): the atlas has no specification grid, so its
rows are listed as checked against FDR and log size only, never as surviving the multiverse.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.report import small_study
from benchval.report.safe_text import markdown_text

#: the analysis tables of a study the page reads (benchval.analysis.outputs names)
ANALYSIS_INPUTS = (
    "study_summary",
    "correlations_cs_downstream",
    "partial_spearman",
    "delta_rho",
    "revision_groups",
    "lofo_scores",
)
#: every study table the page reads: the analysis tables and the robustness table
STUDY_INPUTS = (*ANALYSIS_INPUTS, "specification_robustness")
#: a scored study's tables, read where the study has them (what a study with too few models can state)
SCORED_INPUTS = ("scoreboard", "paired_comparisons")
ATLAS_COLUMNS = (
    "criterion",
    "predictor",
    "rank",
    "n_models",
    "rho",
    "rho_beyond_g",
    "rho_beyond_g_ci_low",
    "rho_beyond_g_ci_high",
    "n_beyond_g",
    "q_beyond_g",
)


@dataclass(frozen=True)
class Criteria:
    """What a conclusion must pass: BH at ``alpha``, ``min_share_agree`` of its specifications."""

    alpha: float
    min_share_agree: float
    max_stated: int = 5
    max_rejected: int = 8


@dataclass
class Conclusion:
    kind: str
    metric: str
    subject: str
    estimate: float
    sentence: str
    failed: str = ""  # the first gate it failed ("" = stated)
    figure: str = ""  # the figure (stem) that shows it
    display: str = ""  # the subject in labels (Markdown-escaped); ``subject`` holds the ids
    table: str = ""  # the study table its row is in

    @property
    def gate(self) -> str:
        """The gate it failed in one word (FDR, interval, controls, multiverse), '' when stated."""
        return self.failed.split(":", 1)[0] if self.failed else ""


@dataclass
class StudyFindings:
    study: str
    n_models: int
    stated: list[Conclusion] = field(default_factory=list)
    rejected: list[Conclusion] = field(default_factory=list)
    n_rejected_more: int = 0
    notes: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)  # lines after the stated conclusions
    too_few_models: bool = False
    n_candidates: int = 0
    gate_counts: dict[str, int] = field(default_factory=dict)  # rejected conclusions per failed gate
    small_study: list[str] = field(default_factory=list)  # what a study with too few models can state
    key_figure: str = ""  # the figure (stem) embedded under the study's summary

    def summary(self) -> str:
        """The study in one line."""
        if self.too_few_models:
            return (
                f"{self.n_models} model{'s' if self.n_models != 1 else ''}: too few for conclusions across models; "
                "what the scores themselves show is below."
            )
        if not self.n_candidates:
            return "No statistic across models is defined."
        n_stated = self.n_candidates - sum(self.gate_counts.values())
        failed = ", ".join(f"{gate} {n}" for gate, n in self.gate_counts.items())
        return f"{n_stated} of {self.n_candidates} candidate conclusions survive every gate" + (
            f"; the others failed (first gate): {failed}." if failed else "."
        )


# ---------------------------------------------------------------------------- numbers as text


def digits_for(*values) -> int:
    """2, or 3 where two decimals would print a nonzero value as 0.00 (a lower bound of 0.004 under
    "improves" would read as "[0.00, ...]", which contradicts the direction stated beside it)."""
    finite = [float(v) for v in values if v is not None and not pd.isna(v)]
    return 3 if any(v != 0 and round(v, 2) == 0 for v in finite) else 2


def number(value: float, digits: int = 2) -> str:
    return "n/a" if value is None or pd.isna(value) else f"{float(value):.{digits}f}"


def estimate_text(value: float, low: float, high: float) -> str:
    """``value [low, high]`` with the digits :func:`digits_for` picks for the three together."""
    digits = digits_for(value, low, high)
    return f"{number(value, digits)} {interval_text(low, high, digits)}"


def p_text(value: float) -> str:
    if pd.isna(value):
        return "n/a"
    return f"{value:.2g}" if value >= 0.001 else f"{value:.1e}"


def interval_text(low: float, high: float, digits: int | None = None) -> str:
    digits = digits_for(low, high) if digits is None else digits
    return f"[{number(low, digits)}, {number(high, digits)}]"


def share_text(row) -> str:
    if row is None:
        return "specification grid not run"
    return f"{int(row['n_agree'])} of {int(row['n_specifications'])} specifications agree"


# ---------------------------------------------------------------------------- gates


def _spec_row(spec: pd.DataFrame | None, metric: str, kind: str, subject: str):
    if spec is None or spec.empty:
        return None
    rows = spec[(spec["metric"] == metric) & (spec["kind"] == kind) & (spec["subject"] == subject)]
    return None if rows.empty else rows.iloc[0]


def _multiverse_gate(rows: list, criteria: Criteria) -> str:
    """'' when every row agrees in at least min_share_agree of its specifications, else why not."""
    for row in rows:
        if row is None:
            return "multiverse: not in the specification grid"
        if pd.isna(row["share_agree"]) or row["share_agree"] < criteria.min_share_agree:
            share = "undefined" if pd.isna(row["share_agree"]) else f"{row['share_agree']:.0%}"
            flipped = (
                f", flipped by {row['flipped_by']}" if isinstance(row["flipped_by"], str) and row["flipped_by"] else ""
            )
            return (
                f"multiverse: {row['kind']} agrees in {share} of {int(row['n_specifications'])} specifications "
                f"(< {criteria.min_share_agree:.0%}{flipped})"
            )
    return ""


def _rejected(value) -> bool:
    return bool(value) if value is not None and not pd.isna(value) else False


def _excludes_zero(low: float, high: float) -> bool:
    return bool(np.isfinite([low, high]).all() and (low > 0 or high < 0))


# ---------------------------------------------------------------------------- conclusions per kind

#: how the rejected table names each kind of conclusion, in words
KIND_NAMES = {
    "benchmark ~ task": "Spearman ρ",
    "delta_rho": "Δρ (original − reworked)",
    "revision_group": "revision groups",
    "lofo_gain": "LOFO ΔR²",
}
#: the interval every study statistic carries (docs/analysis.md, "Bootstrap")
STUDY_INTERVAL = "percentile bootstrap over models"


def _label(labels: dict, key: str) -> str:
    """The display label of a task (Markdown-escaped); the id where the study gives none."""
    return markdown_text(labels.get(key, key))


def _controls_failure(part, rho: float, controls: str, criteria: Criteria) -> str:
    """'' when the partial correlation passes the controls, else which part of the gate failed, in words
    that agree with the numbers printed beside them."""
    if part is None or pd.isna(part["rho_partial"]):
        return "controls: partial correlation undefined" + (
            f" ({markdown_text(part['note'])})" if part is not None else ""
        )
    shown = (
        f"controls: given {controls}, partial ρ = {estimate_text(part['rho_partial'], part['ci_low'], part['ci_high'])}"
        f", BH-adjusted p = {p_text(part['p_fdr'])}"
    )
    if not _rejected(part["reject"]):
        return f"{shown}: not significant after FDR (≥ {criteria.alpha})"
    if np.sign(part["rho_partial"]) != np.sign(rho):
        return f"{shown}: the sign flips given the controls"
    if not _excludes_zero(part["ci_low"], part["ci_high"]):
        return (
            f"{shown}: significant after FDR, but its bootstrap interval includes 0 "
            "(both must hold; the p-value's test and the bootstrap disagree here)"
        )
    return ""


def correlation_conclusions(tables: dict, labels: dict, criteria: Criteria, controls: str) -> list[Conclusion]:
    cs_ds, partial, spec = tables["correlations_cs_downstream"], tables["partial_spearman"], tables["spec"]
    out = []
    for row in cs_ds[(cs_ds["role"] != "control") & cs_ds["rho"].notna()].itertuples(index=False):
        subject = f"{row.benchmark} ~ {row.downstream}"
        match = partial[
            (partial["metric"] == row.metric)
            & (partial["benchmark"] == row.benchmark)
            & (partial["downstream"] == row.downstream)
        ]
        part = match.iloc[0] if len(match) else None
        b, t = _label(labels, row.benchmark), _label(labels, row.downstream)
        relation = "rank the models alike" if row.rho > 0 else "rank the models in opposite orders"
        sentence = (
            f"{b} and {t} {relation} ({markdown_text(row.metric)}): "
            f"Spearman ρ = {estimate_text(row.rho, row.ci_low, row.ci_high)}"
            f", n = {int(row.n_models)} models, BH-adjusted p = {p_text(row.p_fdr)}"
        )
        if part is not None and pd.notna(part["rho_partial"]):
            sentence += (
                f"; given {controls}, partial ρ = {estimate_text(part['rho_partial'], part['ci_low'], part['ci_high'])}"
                f" (n = {int(part['n_models'])}, df = {int(part['df'])}, BH-adjusted p = {p_text(part['p_fdr'])})"
            )
        rows = [
            _spec_row(spec, row.metric, "cs_downstream_spearman", subject),
            _spec_row(spec, row.metric, "partial_spearman", subject),
        ]
        if not _rejected(row.reject):
            failed = f"FDR: BH-adjusted p = {p_text(row.p_fdr)} ≥ {criteria.alpha}"
        elif not _excludes_zero(row.ci_low, row.ci_high):
            failed = (
                f"interval: ρ's interval {interval_text(row.ci_low, row.ci_high)} includes 0, although its BH-adjusted "
                f"p = {p_text(row.p_fdr)} < {criteria.alpha} (both must hold)"
            )
        else:
            failed = _controls_failure(part, row.rho, controls, criteria) or _multiverse_gate(rows, criteria)
        if not failed:
            sentence += (
                f"; {share_text(rows[0])} on ρ and {share_text(rows[1]).split(' specifications')[0]} on the partial ρ"
            )
        display = f"{b} ~ {t}"
        out.append(
            Conclusion(
                "benchmark ~ task",
                row.metric,
                subject,
                float(row.rho),
                sentence + ".",
                failed,
                "fig2_cs_downstream",
                display,
                "correlations_cs_downstream",
            )
        )
    return out


def delta_conclusions(tables: dict, labels: dict, criteria: Criteria) -> list[Conclusion]:
    delta, spec = tables["delta_rho"], tables["spec"]
    out = []
    for row in delta[delta["estimate"].notna()].itertuples(index=False):
        subject = f"{row.original} vs {row.reworked} ~ {row.downstream}"
        o, r, t = (_label(labels, x) for x in (row.original, row.reworked, row.downstream))
        better, worse = (o, r) if row.estimate > 0 else (r, o)
        sentence = (
            f"{better} predicts {t} better than {worse} does ({markdown_text(row.metric)}): Δρ = ρ({o}) − ρ({r}) = "
            f"{estimate_text(row.estimate, row.ci_low, row.ci_high)}, n = {int(row.n_models)} models, "
            f"BH-adjusted bootstrap p = {p_text(row.p_fdr)}"
        )
        spec_row = _spec_row(spec, row.metric, "delta_rho", subject)
        failed = _interval_gates(row.reject, row.p_fdr, row.ci_low, row.ci_high, [spec_row], criteria)
        if not failed:
            sentence += f"; {share_text(spec_row)}"
        out.append(
            Conclusion(
                "delta_rho",
                row.metric,
                subject,
                float(row.estimate),
                sentence + ".",
                failed,
                "",
                f"{o} vs {r} ~ {t}",
                "delta_rho",
            )
        )
    return out


GROUP_SENTENCES = {
    "diff_OO_minus_RR": ("original benchmarks agree with each other", "reworked ones agree with each other"),
    "diff_OO_minus_OR": ("original benchmarks agree with each other", "with their reworked versions"),
}
GROUP_NAMES = {
    "diff_OO_minus_RR": "originals with each other − reworked with each other",
    "diff_OO_minus_OR": "originals with each other − originals with reworked",
}


def group_conclusions(tables: dict, criteria: Criteria) -> list[Conclusion]:
    groups, spec = tables["revision_groups"], tables["spec"]
    chosen = groups[
        (groups["left_out_family"] == "(none)")
        & groups["statistic"].isin(list(GROUP_SENTENCES))
        & groups["estimate"].notna()
    ]
    out = []
    for row in chosen.itertuples(index=False):
        first, second = GROUP_SENTENCES[row.statistic]
        direction = "more" if row.estimate > 0 else "less"
        sentence = (
            f"The {first} {direction} than {second} ({markdown_text(row.metric)}): difference of mean Fisher z = "
            f"{estimate_text(row.estimate, row.ci_low, row.ci_high)}, n = {int(row.n_models)} models, "
            f"BH-adjusted bootstrap p = {p_text(row.p_fdr)}"
        )
        spec_row = _spec_row(spec, row.metric, "revision_group", row.statistic)
        failed = _interval_gates(row.reject, row.p_fdr, row.ci_low, row.ci_high, [spec_row], criteria)
        if not failed:
            sentence += f"; {share_text(spec_row)}"
        out.append(
            Conclusion(
                "revision_group",
                row.metric,
                row.statistic,
                float(row.estimate),
                sentence + ".",
                failed,
                "",
                GROUP_NAMES[row.statistic],
                "revision_groups",
            )
        )
    return out


LOFO_ADDED = {
    "controls+original": "the original commonsense composite",
    "controls+reworked": "the reworked commonsense composite",
    "controls+both": "both commonsense composites",
}


def lofo_conclusions(tables: dict, labels: dict, criteria: Criteria, baseline: str) -> list[Conclusion]:
    scores, spec = tables["lofo_scores"], tables["spec"]
    chosen = scores[scores["predictor_set"].isin(list(LOFO_ADDED)) & scores["delta_r2"].notna()]
    out = []
    for row in chosen.itertuples(index=False):
        subject = f"{row.downstream}: {row.predictor_set}"
        t = _label(labels, row.downstream)
        verb = "improves" if row.delta_r2 > 0 else "worsens"
        interval = interval_text(
            row.delta_r2_ci_low,
            row.delta_r2_ci_high,
            digits_for(row.delta_r2, row.delta_r2_ci_low, row.delta_r2_ci_high),
        )
        sentence = (
            f"Adding {LOFO_ADDED[row.predictor_set]} to {baseline} {verb} the out-of-family prediction of {t} "
            f"({markdown_text(row.metric)}): "
            f"ΔR² = {estimate_text(row.delta_r2, row.delta_r2_ci_low, row.delta_r2_ci_high)}, "
            f"n = {int(row.n_models)} models in {int(row.n_families)} families (descriptive: no p-value)"
        )
        spec_row = _spec_row(spec, row.metric, "lofo_gain", subject)
        if not _excludes_zero(row.delta_r2_ci_low, row.delta_r2_ci_high):
            failed = f"interval: ΔR²'s interval {interval} includes 0"
        else:
            failed = _multiverse_gate([spec_row], criteria)
        if not failed:
            sentence += f"; {share_text(spec_row)}"
        out.append(
            Conclusion(
                "lofo_gain",
                row.metric,
                subject,
                float(row.delta_r2),
                sentence + ".",
                failed,
                "fig3_lofo_delta_r2",
                f"{t}: + {LOFO_ADDED[row.predictor_set]}",
                "lofo_scores",
            )
        )
    return out


def _interval_gates(reject, p_fdr, low, high, spec_rows, criteria: Criteria) -> str:
    if not _rejected(reject):
        return f"FDR: BH-adjusted p = {p_text(p_fdr)} ≥ {criteria.alpha}"
    if not _excludes_zero(low, high):
        return (
            f"interval: {interval_text(low, high)} includes 0, although its BH-adjusted p = {p_text(p_fdr)} < "
            f"{criteria.alpha} (both must hold)"
        )
    return _multiverse_gate(spec_rows, criteria)


# ---------------------------------------------------------------------------- one study


def controls_phrase(partial: pd.DataFrame) -> str:
    """What the partial correlations controlled for, read from their notes."""
    notes = " ".join(partial["note"].dropna().astype(str)) if "note" in partial else ""
    return (
        "log size and family" if "control composite omitted" in notes else "log size, family and the control composite"
    )


def lofo_baseline(scores: pd.DataFrame) -> str:
    notes = " ".join(scores["note"].dropna().astype(str)) if "note" in scores else ""
    return "log size" if "control composite omitted" in notes else "log size and the control composite"


def study_findings(
    study: str, tables: dict[str, pd.DataFrame | None], labels: dict, min_models: int, criteria: Criteria
) -> StudyFindings:
    """The stated and rejected conclusions of one study from its tables (``spec``, ``scoreboard`` and
    ``paired_comparisons`` may be None)."""
    summary = tables["study_summary"]
    n_models = int(summary["n_models_total"].max()) if len(summary) else 0
    findings = StudyFindings(study, n_models)
    if n_models < min_models:
        findings.notes.append(
            f"This study has {n_models} model{'s' if n_models != 1 else ''}; conclusions across models need at "
            f"least {min_models} (analysis.min_models), so it draws none."
        )
        findings.too_few_models = True
        findings.small_study = small_study.lines(
            tables.get("scoreboard"), tables.get("paired_comparisons"), labels, criteria.alpha
        )
        findings.key_figure = "scoreboard" if tables.get("scoreboard") is not None else ""
        return findings
    if tables.get("spec") is None:
        findings.notes.append(
            "The specification grid was not run for this study: no conclusion can pass the multiverse."
        )
    candidates = (
        correlation_conclusions(tables, labels, criteria, controls_phrase(tables["partial_spearman"]))
        + delta_conclusions(tables, labels, criteria)
        + group_conclusions(tables, criteria)
        + lofo_conclusions(tables, labels, criteria, lofo_baseline(tables["lofo_scores"]))
    )
    stated = sorted([c for c in candidates if not c.failed], key=lambda c: -abs(c.estimate))
    rejected = sorted([c for c in candidates if c.failed], key=lambda c: -abs(c.estimate))
    findings.n_candidates = len(candidates)
    for conclusion in rejected:
        findings.gate_counts[conclusion.gate] = findings.gate_counts.get(conclusion.gate, 0) + 1
    findings.stated = stated[: criteria.max_stated]
    findings.key_figure = next((c.figure for c in stated if c.figure), "fig2_cs_downstream")
    if len(stated) > criteria.max_stated:
        findings.after.append(
            f"{len(stated) - criteria.max_stated} more conclusions pass every gate (the largest {criteria.max_stated} "
            "by |estimate| are stated)."
        )
    findings.rejected = rejected[: criteria.max_rejected]
    findings.n_rejected_more = max(0, len(rejected) - criteria.max_rejected)
    if not candidates:
        findings.notes.append("No statistic across models is defined (see the tables' note columns).")
    return findings


def read_study_tables(paths: dict[str, str | Path]) -> dict[str, pd.DataFrame | None]:
    """The study's tables; the specification table may be absent (then None)."""
    tables = {}
    for name in (*STUDY_INPUTS, *SCORED_INPUTS):
        path = paths.get(name)
        key = "spec" if name == "specification_robustness" else name
        tables[key] = pd.read_csv(path, keep_default_na=True) if path and Path(path).exists() else None
    missing = [name for name in STUDY_INPUTS if name != "specification_robustness" and tables[name] is None]
    if missing:
        raise FileNotFoundError(f"findings: the study tables {missing} are missing ({paths})")
    for name in ("correlations_cs_downstream", "partial_spearman", "delta_rho", "revision_groups"):
        for column in ("reject", "p_fdr", "ci_low", "ci_high"):
            if column not in tables[name]:
                tables[name][column] = np.nan
    return tables


# ---------------------------------------------------------------------------- atlas and CommonWhy


def atlas_lines(path: Path, criteria: Criteria) -> list[str]:
    """Predictors that predict a criterion beyond general capability g (read if present): ranked by the atlas
    (a defined value on at least atlas.min_headline_n models, one per group of siblings), their family-clustered
    interval of rho beyond g excluding 0 and their q beyond g below alpha (docs/atlas.md)."""
    if not path.exists():
        return [f"Atlas: not run (no {path})."]
    table = pd.read_csv(path)
    missing = [c for c in ATLAS_COLUMNS if c not in table]
    if missing:
        return [f"Atlas: {path} lacks the columns {missing}; not summarised here."]
    excludes_zero = (table["rho_beyond_g_ci_low"] > 0) | (table["rho_beyond_g_ci_high"] < 0)
    passing = table[table["rank"].notna() & excludes_zero & (table["q_beyond_g"] < criteria.alpha)]
    if passing.empty:
        return [f"Atlas ({path}): no ranked predictor predicts its criterion beyond general capability g."]
    lines = [
        f"Atlas ({path}; checked against g, family-clustered intervals, FDR and a minimum n; no specification "
        f"grid): {len(passing)} predictor-criterion pairs predict beyond general capability; the strongest:"
    ]
    top = passing.reindex(passing["rho_beyond_g"].abs().sort_values(ascending=False).index).head(criteria.max_stated)
    for row in top.itertuples(index=False):
        lines.append(
            f"{markdown_text(row.predictor)} predicts {markdown_text(row.criterion)} beyond general capability g: "
            f"ρ beyond g = {estimate_text(row.rho_beyond_g, row.rho_beyond_g_ci_low, row.rho_beyond_g_ci_high)} "
            f"(family-clustered bootstrap), n = {int(row.n_beyond_g)} models, q = {p_text(row.q_beyond_g)} "
            f"(raw ρ = {number(row.rho)} on "
            f"{int(row.n_models)} models)."
        )
    return lines


def commonwhy_lines(folder: Path) -> list[str]:
    if not folder.is_dir():
        return [f"CommonWhy evaluation: not run (no {folder}/)."]
    tables = sorted(p.name for p in folder.glob("*.csv"))
    if not tables:
        return [f"CommonWhy evaluation: {folder}/ holds no table yet."]
    return [
        f"CommonWhy evaluation: its tables are in {folder}/ ({', '.join(tables)}); docs/commonwhy-eval.md reads them."
    ]


# ---------------------------------------------------------------------------- the page


FIGURE_NAMES = {
    "fig2_cs_downstream": "Figure 2",
    "fig3_lofo_delta_r2": "Figure 3",
    "scoreboard": "Scoreboard",
}
#: the figures every study's section can embed (a scored study's scoreboard besides)
KEY_FIGURES = ("fig2_cs_downstream", "fig3_lofo_delta_r2")
FIGURE_CAPTIONS = {
    "fig2_cs_downstream": "Figure 2: each commonsense benchmark's Spearman ρ with each downstream task",
    "fig3_lofo_delta_r2": "Figure 3: out-of-family R² gained by adding the commonsense composites",
    "scoreboard": "Scoreboard: each model's accuracy and macro-F1 per task with 95% intervals beside chance",
}


@dataclass(frozen=True)
class Links:
    """How one rendering of the page points to what it cites: ``figure(study, name, stem)`` a link to a
    figure, ``embed(study, stem)`` the figure in view (Markdown image, or '' for none), ``table(study, name)``
    the address of a study table ('' for none)."""

    figure: Callable[[str, str, str], str]
    embed: Callable[[str, str], str]
    table: Callable[[str, str], str]


def _cited(conclusion: Conclusion, study: str, links: Links) -> str:
    """The conclusion's label, linked to its table with its ids as the link's tooltip."""
    title = markdown_text(conclusion.subject).replace('"', "&quot;")
    target = links.table(study, conclusion.table) or "#"
    shown = conclusion.display or markdown_text(conclusion.subject)
    return f'[{shown}]({target} "{markdown_text(conclusion.metric)}: {title}")'


def _rejected_table(findings: StudyFindings, links: Links) -> list[str]:
    lines = [
        "Not stated (rejected), with the first gate each failed:",
        "",
        "| conclusion | statistic | estimate | why not stated |",
        "|---|---|---|---|",
    ]
    for conclusion in findings.rejected:
        lines.append(
            f"| {_cited(conclusion, findings.study, links)} | "
            f"{KIND_NAMES[conclusion.kind]} ({markdown_text(conclusion.metric)}) "
            f"| {number(conclusion.estimate, digits_for(conclusion.estimate))} | {conclusion.failed} |"
        )
    if findings.n_rejected_more:
        lines.append(f"| and {findings.n_rejected_more} more (the study's tables) | | | |")
    return lines + [""]


def study_section(findings: StudyFindings, links: Links) -> list[str]:
    """One study's section: its summary line, its key figure, its conclusions and its rejected ones."""
    lines = [f"## {markdown_text(findings.study)} ({findings.n_models} models)", ""]
    lines += [f"**In one line:** {findings.summary()}", ""]
    embedded = links.embed(findings.study, findings.key_figure) if findings.key_figure else ""
    lines += [embedded, ""] if embedded else []
    lines += [f"{note}" for note in findings.notes] + ([""] if findings.notes else [])
    lines += [f"- {line}" for line in findings.small_study] + ([""] if findings.small_study else [])
    if findings.stated:
        for conclusion in findings.stated:
            name = FIGURE_NAMES.get(conclusion.figure)
            link = f" ({links.figure(findings.study, name, conclusion.figure)})" if name else ""
            lines.append(f"- {conclusion.sentence}{link}")
        lines.append("")
        lines += [line for line in findings.after] + ([""] if findings.after else [])
    elif not findings.too_few_models:
        lines += ["No conclusion survives every gate.", ""]
    return lines + (_rejected_table(findings, links) if findings.rejected else [])


def markdown_page(studies: list[StudyFindings], criteria: Criteria, extra: list[str] | None, links: Links) -> str:
    """The page in Markdown, pointing to figures and tables through ``links``."""
    lines = [
        "# Findings",
        "",
        f"Per study, the conclusions that survive their controls, Benjamini-Hochberg at {criteria.alpha} and the "
        f"specification grid (at least {criteria.min_share_agree:.0%} of the specifications agree), each with its "
        "interval and n; every number is read from the study's tables. Below each study: the strongest "
        "conclusions that did not survive, with the first gate they failed.",
        "",
        f"How to read the gates: a conclusion is stated only when its BH-adjusted p is below {criteria.alpha} *and* "
        f"its interval excludes 0. The p-value (a test) and the interval ({STUDY_INTERVAL}) are computed "
        "differently and can disagree near the threshold; a row with a small p can therefore still be rejected "
        "for its interval, as its row says. Every interval on a study's lines is a 95% "
        f"{STUDY_INTERVAL}; the atlas's lines (and results/atlas/report.md) use a bootstrap clustered by model "
        "family, so the same pair of benchmarks can show a wider atlas interval: each is named where it is printed.",
        "",
    ]
    for findings in studies:
        lines += study_section(findings, links)
    if extra is not None:  # None: one study's own page (study_page_links), without the run's atlas and CommonWhy
        lines += ["## Atlas and CommonWhy", ""] + [f"- {line}" for line in extra] + [""]
    return "\n".join(lines)


def html_page(page_markdown: str) -> str:
    """The Markdown page rendered (markdown-it-py, tables on, raw HTML off), self-contained."""
    from markdown_it import MarkdownIt

    from benchval.report.pages import PAGE_CSS

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(page_markdown)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape('Findings')}</title><style>{PAGE_CSS} li {{ margin: .3rem 0; max-width: 70rem; }}"
        " img { max-width: min(100%, 60rem); height: auto; display: block; }"
        f"</style></head>\n<body>\n{body}</body></html>\n"
    )


def task_labels(tasks_csv: str | Path) -> dict[str, str]:
    """task -> label from a study's tasks.csv (the task's own name where the label is empty)."""
    tasks = pd.read_csv(tasks_csv, dtype=str, keep_default_na=False)
    return {row.task: row.label or row.task for row in tasks.itertuples(index=False)}


def _data_uri(path: str | Path | None) -> str:
    """A PNG as a data URI (the page stays one self-contained file), '' when there is no such file."""
    if not path or not Path(path).exists():
        return ""
    return "data:image/png;base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


def page_links(figures: dict[str, dict[str, str]], published: bool) -> Links:
    """``published``: the page beside results/figures/ and results/tables/ (relative links); else the report's
    copy (figures under Figures › study). Embedded figures are data URIs of ``figures[study][stem]``."""

    def embed(study: str, stem: str) -> str:
        source = _data_uri(figures.get(study, {}).get(stem)) or (f"figures/{study}/{stem}.png" if published else "")
        return f"![{FIGURE_CAPTIONS[stem]}]({source})" if source else ""

    if published:
        return Links(
            figure=lambda study, name, stem: f"[{name}](figures/{study}/{stem}.png)",
            embed=embed,
            table=lambda study, name: f"tables/{study}/{name}.csv",
        )
    return Links(figure=lambda study, name, stem: f"{name}: Figures › {study}", embed=embed, table=lambda s, n: "")


def study_page_links(figures: dict[str, str]) -> Links:
    """The links of one study's page (results/studies/<study>/findings.md), which sits beside the study's own
    figures/ and tables/ (all built by its study target); ``figures``: stem -> PNG embedded as a data URI."""

    def embed(study: str, stem: str) -> str:
        return f"![{FIGURE_CAPTIONS[stem]}]({_data_uri(figures.get(stem)) or f'figures/{stem}.png'})"

    return Links(
        figure=lambda study, name, stem: f"[{name}](figures/{stem}.png)",
        embed=embed,
        table=lambda study, name: f"tables/{name}.csv",
    )


def write_findings(
    study_paths: dict[str, dict[str, str]],
    min_models: int,
    criteria: Criteria,
    atlas_table: str | Path,
    commonwhy_dir: str | Path,
    outputs: dict[str, str | Path],
) -> list[StudyFindings]:
    """Write ``outputs['markdown']``, ``outputs['html']`` and the report's copy ``outputs['report']``;
    ``study_paths[study]``: the study's tables by name (STUDY_INPUTS, SCORED_INPUTS where it has them), its
    ``tasks`` (tasks.csv) and its figures as ``figure/<stem>`` (PNG, embedded in the HTML pages)."""
    studies = [
        study_findings(study, read_study_tables(paths), task_labels(paths["tasks"]), min_models, criteria)
        for study, paths in study_paths.items()
    ]
    figures = {
        study: {name.split("/", 1)[1]: path for name, path in paths.items() if name.startswith("figure/")}
        for study, paths in study_paths.items()
    }
    extra = atlas_lines(Path(atlas_table), criteria) + commonwhy_lines(Path(commonwhy_dir))
    # results/findings.md sits beside results/figures/{study}/ and results/tables/{study}/ (published)
    page = markdown_page(studies, criteria, extra, page_links({}, published=True))
    Path(outputs["markdown"]).parent.mkdir(parents=True, exist_ok=True)
    Path(outputs["markdown"]).write_text(page, encoding="utf-8")
    html_markdown = markdown_page(studies, criteria, extra, page_links(figures, published=True))
    Path(outputs["html"]).write_text(html_page(html_markdown), encoding="utf-8")
    report_page = markdown_page(studies, criteria, extra, page_links(figures, published=False))
    Path(outputs["report"]).parent.mkdir(parents=True, exist_ok=True)
    Path(outputs["report"]).write_text(html_page(report_page), encoding="utf-8")
    return studies


def _criteria(params: dict) -> Criteria:
    return Criteria(
        alpha=float(params["alpha"]),
        min_share_agree=float(params["criteria"]["min_share_agree"]),
        max_stated=int(params["criteria"]["max_stated"]),
        max_rejected=int(params["criteria"]["max_rejected"]),
    )


def write_study_findings_job(inputs: dict[str, str], params: dict, outputs: dict[str, str]) -> StudyFindings:
    """Rule ``study_findings`` (workflow/rules/report.smk): one study's page, ``outputs['markdown']`` and
    ``outputs['html']``, from its tables and figures (``inputs`` named as rule findings names them, without the
    study); every link points into the study's own folder (:func:`study_page_links`)."""
    criteria = _criteria(params)
    findings = study_findings(
        params["study"], read_study_tables(inputs), task_labels(inputs["tasks"]), int(params["min_models"]), criteria
    )
    figures = {name.split("/", 1)[1]: path for name, path in inputs.items() if name.startswith("figure/")}
    Path(outputs["markdown"]).parent.mkdir(parents=True, exist_ok=True)
    Path(outputs["markdown"]).write_text(
        markdown_page([findings], criteria, None, study_page_links({})), encoding="utf-8"
    )
    page = markdown_page([findings], criteria, None, study_page_links(figures))
    Path(outputs["html"]).write_text(html_page(page), encoding="utf-8")
    return findings


def write_findings_job(inputs: dict[str, str], params: dict, outputs: dict[str, str]) -> list[StudyFindings]:
    """Rule ``findings`` (workflow/rules/report.smk): inputs named ``<study>/<table>``."""
    study_paths = {
        study: {name.split("/", 1)[1]: path for name, path in inputs.items() if name.startswith(f"{study}/")}
        for study in params["studies"]
    }
    criteria = _criteria(params)
    return write_findings(
        study_paths, int(params["min_models"]), criteria, params["atlas_table"], params["commonwhy_dir"], outputs
    )
