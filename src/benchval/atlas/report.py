"""The atlas's report page (results/atlas/report.md; docs/atlas.md): every number read from an output, every
sentence about a benchmark generated from its intervals and n (:func:`verdict`), leading with incremental
validity (what a benchmark predicts beyond general capability)."""

from __future__ import annotations

import pandas as pd

from benchval.analysis.rank_resolution import adjacent_from_intervals
from benchval.atlas.groups import group_pair_labels


def _table(frame: pd.DataFrame, digits: int = 3) -> str:
    """A markdown table (pandas' to_markdown needs tabulate; this keeps the page dependency-free)."""

    def cell(value):
        if isinstance(value, float):
            return "" if pd.isna(value) else f"{value:.{digits}g}"
        return str(value).replace("|", "/")

    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def interval(row, rho: str, low: str, high: str, n: str) -> str:
    """``0.52 [0.35, 0.64] n=117``, or why there is none."""
    if pd.isna(row[rho]):
        return f"undefined (n={int(row[n])})" if pd.notna(row[n]) else "undefined"
    ci = f" [{row[low]:.2f}, {row[high]:.2f}]" if pd.notna(row[low]) else " [no interval]"
    return f"{row[rho]:.2f}{ci} n={int(row[n])}"


def verdict(row, min_n: int) -> str:
    """The claim the intervals allow about a pair (raw rho and rho beyond g, each with its interval and n)."""
    if pd.isna(row["rho_beyond_g"]) or row["n_beyond_g"] < min_n:
        return f"no claim: rho beyond g on {int(row['n_beyond_g'])} models (a claim needs {min_n})"
    if pd.isna(row["rho_beyond_g_ci_low"]):
        return "no claim: no clustered interval beyond g (too few families)"
    if row["rho_beyond_g_ci_low"] > 0:
        return "predicts beyond general capability"
    if row["rho_beyond_g_ci_high"] < 0:
        return "predicts inversely beyond general capability"
    if pd.notna(row["ci_low"]) and row["ci_low"] > 0:
        if row["rho_beyond_g_ci_high"] < row["rho_same_population"]:
            return "explained by general capability (beyond-g interval includes 0, below the raw rho on its models)"
        return "not shown beyond general capability (beyond-g interval includes 0 and the raw rho on its models)"
    return "no association distinguishable from 0"


def distinguishable_from(row, reference) -> str:
    """Whether a predictor's beyond-g interval lies apart from the reference predictor's."""
    if reference is None or row["predictor"] == reference["predictor"] or pd.isna(row["rho_beyond_g_ci_high"]):
        return ""
    if row["rho_beyond_g_ci_high"] < reference["rho_beyond_g_ci_low"]:
        return f"below {reference['predictor']}"
    return f"not distinguishable from {reference['predictor']}"


def rank_groups(ranked: pd.DataFrame) -> pd.Series:
    """Predictor -> the tie group of its rank by rho beyond g ("2-5": adjacent predictors whose clustered
    intervals overlap share one; benchval.analysis.rank_resolution), so the page prints no strict order the
    intervals do not support."""
    if ranked.empty:
        return pd.Series(dtype=str)
    own = ranked.set_index("predictor", drop=False)
    return adjacent_from_intervals(own, "rho_beyond_g", "rho_beyond_g_ci_low", "rho_beyond_g_ci_high")["rank_range"]


PREDICTOR_COLUMNS = [
    "rank",
    "rank_group",
    "predictor",
    "group_a",
    "method_a",
    "method_b",
    "raw",
    "raw_same_models",
    "beyond_g",
    "beyond_g_and_size",
    "q_beyond_g",
    "claim",
    "versus_top",
]


def shown_predictors(ranked: pd.DataFrame, min_n: int, top: int) -> pd.DataFrame:
    """The ``top`` ranked predictors of one criterion as the page shows them: intervals as text, the
    claim each supports and whether it is distinguishable from the first."""
    reference = ranked.iloc[0] if len(ranked) else None
    groups = rank_groups(ranked)
    return ranked.head(top).assign(
        rank_group=lambda f: f["predictor"].map(groups),
        raw=lambda f: [interval(r, "rho", "ci_low", "ci_high", "n_models") for _, r in f.iterrows()],
        raw_same_models=lambda f: [
            f"{r['rho_same_population']:.2f} n={int(r['n_beyond_g'])}" if pd.notna(r["rho_same_population"]) else ""
            for _, r in f.iterrows()
        ],
        beyond_g=lambda f: [
            interval(r, "rho_beyond_g", "rho_beyond_g_ci_low", "rho_beyond_g_ci_high", "n_beyond_g")
            for _, r in f.iterrows()
        ],
        beyond_g_and_size=lambda f: [
            interval(r, "rho_beyond_g_size", "rho_beyond_g_size_ci_low", "rho_beyond_g_size_ci_high", "n_beyond_g_size")
            for _, r in f.iterrows()
        ],
        claim=lambda f: [verdict(r, min_n) for _, r in f.iterrows()],
        versus_top=lambda f: [distinguishable_from(r, reference) for _, r in f.iterrows()],
    )[PREDICTOR_COLUMNS]


def predictor_sections(ranked_all: pd.DataFrame, criterion: str, settings: dict) -> list:
    table = ranked_all[ranked_all["criterion"] == criterion]
    min_n, top = settings["min_headline_n"], settings["top"]
    ranked = table[table["rank"].notna()].sort_values("rank")
    shown = shown_predictors(ranked, min_n, top)
    unranked = table[table["rank"].isna()]
    reasons = unranked["rank_note"].str.split(":").str[0].str.replace(r"on \d+ models.*", "too few models", regex=True)
    same_method = int((table["rank_note"].fillna("").str.startswith("same method")).sum())
    counted_elsewhere = int((table["rank_note"].fillna("").str.contains("is counted once, under")).sum())
    claims = pd.Series([verdict(r, min_n) for _, r in ranked.iterrows()], dtype=str)
    beyond = int(claims.str.startswith("predicts beyond").sum())
    explained = int(claims.str.startswith("explained").sum())
    not_shown = int(claims.str.startswith("not shown").sum())
    return [
        f"## Incremental validity: what predicts {criterion} beyond general capability (human_preference.csv)",
        f"{len(table)} predictors share at least atlas.min_models models with {criterion}; {same_method} of them "
        f"share its method (column same_method; atlas.methods) and are not ranked, since a shared method "
        "(one LLM judge scoring both) is no evidence that one measures what the other claims"
        + (
            f", and {counted_elsewhere} pairs of two criteria are counted under the other criterion"
            if counted_elsewhere
            else ""
        )
        + f". Ranked, cross-method only: {len(ranked)} "
        f"groups of sibling predictors (one rank per group), by rho beyond g on at least {min_n} models; "
        "rank_group is the tie group of a rank (adjacent predictors whose intervals overlap share one). Of them, "
        f"{beyond} predict beyond general capability (clustered interval of rho beyond g above 0), {explained} "
        "are explained by general capability (raw interval above 0; the beyond-g interval includes 0 and lies "
        f"below the raw rho on the same models) and {not_shown} are not shown beyond it (the beyond-g interval "
        "includes 0 but is too wide to exclude the raw rho).",
        "Populations: raw rho on every shared model; raw_same_models on exactly the models of the partial beyond g "
        "(a model needs a g: at least atlas.general_factor.min_columns loaded columns outside the pair's groups); "
        "beyond g and size also needs a known size (open-weights models). Intervals: family-clustered bootstrap.",
        shown,
        f"Not ranked ({len(unranked)}), listed apart with the reason: "
        + "; ".join(f"{count} {reason.strip()}" for reason, count in reasons.value_counts().items())
        + ". Every one is in human_preference.csv with its rank_note.",
    ]


G_LABELS = {
    "study_pc": "study g (first principal component)",
    "study_factor": "study g (one-factor model)",
    "atlas": "atlas g (other leaderboards)",
}


def _beyond(row) -> str:
    return interval(row, "rho_beyond_g", "rho_beyond_g_ci_low", "rho_beyond_g_ci_high", "n_beyond_g")


def g_choice_rows(choice: pd.DataFrame, a: str, b: str) -> dict:
    """The headline (chosen g) of the pair (a, b) of g_choice.csv beside its specification and sensitivity
    rows, each with its coverage and its correlation with the headline g; {} when the pair is missing."""
    rows = choice[(choice["column_a"] == a) & (choice["column_b"] == b)].set_index("g")
    if rows.empty or not rows["chosen"].any():
        return {}
    head_name = rows.index[rows["chosen"]][0]
    head = rows.loc[head_name]
    out = {
        "raw, study population": interval(head, "rho", "ci_low", "ci_high", "n_models"),
        "headline g": G_LABELS.get(head_name, head_name),
        "why this g": head["why"],
        "beyond headline g": _beyond(head),
        "claim (headline)": verdict(head, 0),
    }
    for name, row in rows.drop(index=head_name).iterrows():
        with_head = row.get(f"spearman_with_{head_name}")
        agreement = f"; rho with headline g {with_head:.2f}" if pd.notna(with_head) else ""
        out[f"{row['role']}: beyond {G_LABELS.get(name, name)}"] = (
            f"{_beyond(row)} (g for {int(row['coverage'])} of {int(row['n_pair'])}{agreement})"
        )
        if row["role"] == "specification":
            same = verdict(row, 0) == out["claim (headline)"]
            out["claim under the specification"] = "same" if same else verdict(row, 0)
    return out


def study_section(read: dict, settings: dict) -> list:
    pairs, choice, models = read["pairs"], read["g_choice"], read["study_models"]
    columns = settings["study_columns"]  # task -> column
    rows = []
    for task in settings["study_predictors"]:
        for target in settings["study_criteria"]:
            a, b = columns[task], columns[target]
            hit = pairs[
                ((pairs["column_a"] == a) & (pairs["column_b"] == b))
                | ((pairs["column_a"] == b) & (pairs["column_b"] == a))
            ]
            headline = g_choice_rows(choice, a, b)
            if hit.empty and not headline:
                continue
            record = {"benchmark": task, "criterion": target, **headline}
            if len(hit):
                r = hit.iloc[0]
                record["raw, all shared models"] = interval(r, "rho", "ci_low", "ci_high", "n_models")
                record["all shared models: beyond log size"] = interval(
                    r, "rho_beyond_size", "rho_beyond_size_ci_low", "rho_beyond_size_ci_high", "n_beyond_size"
                )
            rows.append(record)
    steps = models.set_index("step")["n_models"]
    left_out = models.iloc[1]["left_out"] if len(models) > 1 else ""
    n_left = len(str(left_out).split("; ")) if isinstance(left_out, str) and left_out else 0
    return [
        "## open_llm: commonsense benchmarks and MMLU against MuSR and BBH (g_choice.csv, pairs.csv)",
        f"Study population: the {int(steps.iloc[1])} models in both Open LLM v1 and v2 with a family, of "
        f"{int(steps.iloc[0])} in both ({n_left} left out without a family: study_models/open_llm.csv). "
        "Each pair is controlled for one general factor g, chosen by a stated rule that never reads the pair's own "
        "correlation (benchval.atlas.g_choice): the candidate covering the most of the pair's models, then the one "
        "agreeing best with the other source's g, then the one whose factor explains the most variance. "
        "Candidates: the study g as the first principal component or as a one-factor model of the study's other "
        "columns (the pair's two left out; one is the headline, the other the specification row), and the atlas g "
        "from the models' other leaderboards (without the pair's leaderboards and without every column measuring "
        "the pair's benchmarks elsewhere; the sensitivity row). The claim reads the headline only. Intervals: "
        "family-clustered bootstrap.",
        pd.DataFrame(rows),
    ]


def factor_section(read: dict) -> list:
    scree, loadings, check = read["scree"], read["loadings"], read["g_check"].iloc[0]
    first = scree.iloc[0]
    return [
        "## Factor structure of the open_llm block (factor_structure/; figures/factor_structure.png)",
        f"{int(first['n_models'])} models x {int(first['n_columns'])} columns: the models scoring every column, of "
        f"{int(first.get('n_models_with_any_column', first['n_models']))} with a score in any of them (the others "
        "lack one; a complete block is what a factor analysis needs). Rankits, principal-axis factoring "
        f"by statsmodels: the first factor explains {first['variance_explained']:.0%} of the variance, the "
        f"second {scree.iloc[1]['variance_explained']:.0%}. Uniqueness is what no common factor explains.",
        scree.head(4)[["factor", "eigenvalue", "variance_explained", "cumulative"]],
        loadings,
        f"g method check on this block: the atlas's g (one factor on pairwise correlations, Bartlett scores) "
        "against the complete-case first principal component: Spearman "
        f"{check['spearman_g_vs_complete_case_pc1']:.3f}, "
        f"largest rank difference {check['max_abs_rank_difference']:.0f} of {int(check['n_models'])} "
        f"(median {check['median_abs_rank_difference']:.0f}) (factor_structure/g_method_check.csv).",
    ]


def testing_section(pairs: pd.DataFrame, alpha: float) -> list:
    leads = pairs[pairs["lead_of_group_pair"]]
    labels = group_pair_labels(pairs["group_a"], pairs["group_b"])  # order-free: the units the FDR tests
    return [
        "## One measure, one vote (pairs.csv)",
        f"{len(pairs)} pairs in {labels.nunique()} group pairs; {int((pairs['group_a'] == pairs['group_b']).sum())} "
        "pairs lie within one group (one leaderboard, or one benchmark in several files). Multiple testing is "
        "hierarchical: Benjamini-Hochberg over the group pairs' Simes p-values, then within each group pair. "
        f"Discoveries counted once per group pair (its lead): {int((leads['p_fdr'] < alpha).sum())} raw, "
        f"{int((leads['q_beyond_g'] < alpha).sum())} beyond g (q < {alpha}).",
    ]


def _with_interval(summary: pd.DataFrame) -> pd.DataFrame:
    return summary.assign(
        interval=lambda f: [
            f"{v:.3f} [{lo:.3f}, {hi:.3f}]" for v, lo, hi in zip(f["value"], f["ci_low"], f["ci_high"])
        ],
        counts=lambda f: [f"{a}/{b}" for a, b in zip(f["numerator"], f["denominator"])],
    ).set_index("measure")


def mtmm_section(read: dict) -> list:
    """Campbell and Fiske's blocks (mtmm_blocks.csv; figures/mtmm.png)."""
    summary = read["mtmm_blocks"].set_index("block")
    hetero_mono = summary.at["heterotrait-monomethod", "median_rho"]
    hetero_hetero = summary.at["heterotrait-heteromethod", "median_rho"]
    return [
        "## Method apart from trait (mtmm_blocks.csv, mtmm.csv; figures/mtmm.png)",
        "Every pair of pairs.csv by whether its columns measure one benchmark (trait) and share a method "
        "(config/atlas/column_methods.csv, reviewed, with evidence). Median rho of two different benchmarks "
        f"sharing a method: {hetero_mono:.2f}; of two benchmarks by different methods: {hetero_hetero:.2f}.",
        read["mtmm_blocks"],
    ]


def identity_section(read: dict) -> list:
    resolved, blind = _with_interval(read["identity"]), _with_interval(read["identity_blind"])
    table = pd.DataFrame(
        {
            "resolved labels": resolved["interval"],
            "n (resolved)": resolved["counts"],
            "blind labels alone": blind["interval"],
            "n (blind)": blind["counts"],
            "what": resolved["what"],
        }
    ).reset_index()
    agreement = read["identity_agreement"].assign(value=lambda f: f["value"].map(lambda v: f"{v:.3f}"))
    return [
        "## Model identity against hand labels (registry/identity_check.csv, identity_check_blind.csv)",
        f"A sample of {int(resolved['n_names'].iloc[0])} raw names drawn with a seed, labelled twice by hand with "
        "evidence: first with the registry's joins in view (config/atlas/identity_sample.csv), then blind "
        "(identity_sample_blind.csv); every difference is resolved in writing (identity_sample_disagreements.csv) "
        "into the labels the check reads (identity_sample_resolved.csv). The blind column is the estimate made "
        "without sight of the registry. Intervals: percentile bootstrap over the sampled names.",
        table,
        "Agreement of the two labellings (registry/identity_agreement.csv):",
        agreement[["measure", "value", "count", "of", "what"]],
        "Where identities hide (registry/identity_targeted.csv): recall on a seeded sample of high-risk name groups "
        "(equal name parts after dropping punctuation, dates and hf), precision there and on a seeded random "
        "sample of the registry's rule joins, each labelled blind from the names and files. Intervals: Wilson over "
        "pairs, and a percentile bootstrap over groups (or models).",
        read["identity_targeted"],
        "Models two leaderboards share (registry/overlaps.csv); issue 33 reported 25 (Arena x v2) and 14 "
        "(Arena x v1) before this registry, and 37 and 26 with BenchBench's name standardiser:",
        read["overlaps"],
    ]


def registry_sentence(merges: pd.DataFrame, unresolved: pd.DataFrame) -> str:
    return (
        f"Merges of raw names: {len(merges)} models absorbed more than one raw name (registry/merges.csv); "
        f"unresolved fields: {len(unresolved)} (registry/unresolved.csv)."
    )


def moved_sentence(ranked_agreement: pd.DataFrame, n_unranked: int, min_n: int) -> str:
    moved = ranked_agreement[ranked_agreement["moved"] == True]  # noqa: E712 (read from csv)
    return (
        "A benchmark moved only where the bootstrap interval of its rank difference excludes 0: "
        f"{', '.join(moved['benchmark']) or 'none'} ({len(moved)} of {len(ranked_agreement)} ranked). "
        f"Not ranked: {n_unranked} benchmarks with validity on fewer than {min_n} "
        "models (listed in agreement_validity.csv with rank_note). Each validity is on the models the benchmark "
        "shares with the criterion, so two benchmarks' validities may rest on different model sets."
    )


def report_sections(inputs: dict, settings: dict) -> list:
    """The page's parts, in order: headings and text (str) and tables (DataFrame), from the atlas outputs."""
    read = {name: pd.read_csv(path, keep_default_na=True) for name, path in inputs.items()}
    criterion = settings["criterion"]
    agreement = read["agreement"]
    unranked = (
        agreement["rank_note"].fillna("").astype(str).str.len() > 0
        if "rank_note" in agreement
        else agreement["moved"] & False
    )
    ranked_agreement = agreement[~unranked]
    return [
        "# Validity atlas: which benchmarks predict which criteria, beyond general capability",
        "Real leaderboard tables of the raw-data mirror (benchbench/, obsscaling/), one model registry across "
        "them (docs/atlas.md). Every number on this page is read from the CSV named beside it; every sentence "
        f"about a benchmark is generated from its intervals, and no claim is made on fewer than "
        f"{settings['min_headline_n']} models (atlas.min_headline_n).",
        *predictor_sections(read["human_preference"], criterion, settings),
        *study_section(read, settings),
        *factor_section(read),
        *testing_section(read["pairs"], settings["alpha"]),
        *mtmm_section(read),
        *identity_section(read),
        "## Registry against ObsScaling's curated labels (obsscaling/agreement.csv, obsscaling/disagreements.csv)",
        read["obs_agreement"],
        registry_sentence(read["merges"], read["unresolved"]),
        "## open_llm against ObsScaling's own runs, same models (open_llm_crosscheck.csv)",
        read["crosscheck"],
        f"## Agreement versus validity for {criterion} (agreement_validity.csv)",
        "Agreement: Kendall tau with the mean win rate over BenchBench's holistic aggregates "
        "(atlas.agreement_reference), each benchmark's own siblings and the criterion left out. "
        + moved_sentence(ranked_agreement, int(unranked.sum()), settings["min_headline_n"]),
        ranked_agreement.drop(columns=["criterion", "reference", "rank_note"], errors="ignore"),
        "## Counts (counts.csv)",
        read["counts"][["count", "value", "what"]],
    ]


def report_page(inputs: dict, settings: dict) -> str:
    """The page as markdown (results/atlas/report.md)."""
    parts = report_sections(inputs, settings)
    return "\n\n".join(_table(p) if isinstance(p, pd.DataFrame) else p for p in parts) + "\n"


def report_html(inputs: dict, settings: dict) -> str:
    """The same page as self-contained HTML (no scripts), for Snakemake's report."""
    from html import escape

    body = []
    for part in report_sections(inputs, settings):
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
