"""The findings page (benchval.report.findings): sentences read from the tables, and a conclusion that fails
FDR, its controls or the multiverse is not stated but listed as rejected with the gate it failed."""

import re

import numpy as np
import pandas as pd
import pytest

from benchval.report import findings as F

CRITERIA = F.Criteria(alpha=0.05, min_share_agree=0.8, max_stated=5, max_rejected=8)
LABELS = {"hs": "HellaSwag", "wg": "WinoGrande", "gsm": "GSM8K", "arc": "ARC", "tqa": "TruthfulQA", "he": "HumanEval"}


def _cs_ds(rows):
    """rows: (benchmark, downstream, rho, ci_low, ci_high, n, p_fdr, reject)."""
    frame = pd.DataFrame(
        rows, columns=["benchmark", "downstream", "rho", "ci_low", "ci_high", "n_models", "p_fdr", "reject"]
    )
    return frame.assign(metric="score", role="cs_original", p=frame["p_fdr"], note="")


def _partial(rows):
    """rows: (benchmark, downstream, rho_partial, ci_low, ci_high, n, df, p_fdr, reject)."""
    columns = ["benchmark", "downstream", "rho_partial", "ci_low", "ci_high", "n_models", "df", "p_fdr", "reject"]
    return pd.DataFrame(rows, columns=columns).assign(metric="score", note="")


def _spec(rows):
    """rows: (kind, subject, n_agree, n_specifications, flipped_by)."""
    frame = pd.DataFrame(rows, columns=["kind", "subject", "n_agree", "n_specifications", "flipped_by"])
    return frame.assign(metric="score", share_agree=frame["n_agree"] / frame["n_specifications"])


def _empty_tables():
    return {
        "delta_rho": pd.DataFrame(
            columns=[
                "metric",
                "original",
                "reworked",
                "downstream",
                "estimate",
                "ci_low",
                "ci_high",
                "n_models",
                "p_fdr",
                "reject",
            ]
        ),
        "revision_groups": pd.DataFrame(
            columns=[
                "metric",
                "left_out_family",
                "statistic",
                "estimate",
                "ci_low",
                "ci_high",
                "n_models",
                "p_fdr",
                "reject",
            ]
        ),
        "lofo_scores": pd.DataFrame(
            columns=[
                "metric",
                "downstream",
                "predictor_set",
                "delta_r2",
                "delta_r2_ci_low",
                "delta_r2_ci_high",
                "n_models",
                "n_families",
                "note",
            ]
        ),
    }


def _tables(n_models=148):
    tables = _empty_tables()
    tables["study_summary"] = pd.DataFrame({"n_models_total": [n_models]})
    tables["correlations_cs_downstream"] = _cs_ds(
        [
            ("hs", "gsm", 0.62, 0.48, 0.74, 148, 0.0001, True),  # passes everything
            ("wg", "gsm", 0.90, 0.10, 0.95, 148, 0.20, False),  # largest rho, fails FDR
            ("hs", "arc", 0.70, 0.55, 0.80, 148, 0.001, True),  # fails the multiverse
            ("hs", "tqa", 0.50, 0.30, 0.65, 148, 0.002, True),  # fails its controls
        ]
    )
    tables["partial_spearman"] = _partial(
        [
            ("hs", "gsm", 0.35, 0.12, 0.55, 146, 97, 0.01, True),
            ("wg", "gsm", 0.40, 0.10, 0.60, 146, 97, 0.01, True),
            ("hs", "arc", 0.30, 0.10, 0.50, 146, 97, 0.01, True),
            ("hs", "tqa", 0.05, -0.2, 0.30, 146, 97, 0.70, False),
        ]
    )
    tables["spec"] = _spec(
        [
            ("cs_downstream_spearman", "hs ~ gsm", 6, 6, ""),
            ("partial_spearman", "hs ~ gsm", 18, 18, ""),
            ("cs_downstream_spearman", "hs ~ arc", 2, 6, "fdr_family, models"),
            ("partial_spearman", "hs ~ arc", 18, 18, ""),
        ]
    )
    return tables


NUMBERS = re.compile(r"ρ = (-?[\d.]+) \[(-?[\d.]+), (-?[\d.]+)\], n = (\d+) models")


def test_a_stated_sentence_carries_the_tables_numbers_and_changes_with_them():
    tables = _tables()
    found = F.study_findings("obs", tables, LABELS, 5, CRITERIA)
    assert [c.subject for c in found.stated] == ["hs ~ gsm"]
    sentence = found.stated[0].sentence
    assert NUMBERS.search(sentence).groups() == ("0.62", "0.48", "0.74", "148")
    assert "partial ρ = 0.35 [0.12, 0.55] (n = 146, df = 97" in sentence
    assert "6 of 6 specifications agree on ρ and 18 of 18 on the partial ρ" in sentence
    # the same row with other numbers: the sentence follows the table, nothing is written in
    tables["correlations_cs_downstream"].loc[0, ["rho", "ci_low", "ci_high", "n_models"]] = [0.71, 0.6, 0.8, 120]
    changed = F.study_findings("obs", tables, LABELS, 5, CRITERIA).stated[0].sentence
    assert NUMBERS.search(changed).groups() == ("0.71", "0.60", "0.80", "120")


def test_fdr_controls_and_multiverse_failures_are_not_stated_but_listed_with_their_gate():
    found = F.study_findings("obs", _tables(), LABELS, 5, CRITERIA)
    rejected = {c.subject: c.failed for c in found.rejected}
    assert rejected["wg ~ gsm"].startswith("FDR: BH-adjusted p = 0.2")
    assert rejected["hs ~ arc"].startswith("multiverse: cs_downstream_spearman agrees in 33% of 6")
    assert "flipped by fdr_family, models" in rejected["hs ~ arc"]
    assert rejected["hs ~ tqa"].startswith("controls:")
    page = F.markdown_page([found], CRITERIA, [], F.page_links({}, published=True))
    stated_part, rejected_part = page.split("Not stated (rejected)")
    assert "WinoGrande" not in stated_part.split("## obs")[1]
    # the label in words, the ids only in the link's title (a tooltip), the link to the table with the row
    assert (
        '| [WinoGrande ~ GSM8K](tables/obs/correlations_cs_downstream.csv "score: wg \\~ gsm") '
        "| Spearman ρ (score) | 0.90 | FDR" in rejected_part
    )
    # the escaped ids read as written in the HTML (benchval.report.safe_text.markdown_text)
    assert 'title="score: wg ~ gsm"' in F.html_page(page)
    assert "([Figure 2](figures/obs/fig2_cs_downstream.png))" in stated_part


def test_the_multiverse_threshold_is_the_configured_one():
    """Lowered to 1/3 the 'hs ~ arc' conclusion (2 of 6) is stated: the gate reads the share."""
    loose = F.Criteria(alpha=0.05, min_share_agree=1 / 3)
    assert {c.subject for c in F.study_findings("obs", _tables(), LABELS, 5, loose).stated} == {"hs ~ gsm", "hs ~ arc"}


def test_a_conclusion_missing_from_the_grid_or_without_a_grid_is_not_stated():
    tables = _tables()
    tables["spec"] = None
    found = F.study_findings("obs", tables, LABELS, 5, CRITERIA)
    assert not found.stated and "not run" in found.notes[0]
    assert all("not in the specification grid" in c.failed for c in found.rejected if c.subject == "hs ~ gsm")


def test_delta_rho_failing_fdr_or_including_zero_is_not_stated():
    tables = _tables()
    tables["delta_rho"] = pd.DataFrame(
        [
            ("score", "wg", "ww", "gsm", 0.53, 0.20, 0.80, 23, 0.01, True),
            ("score", "hs", "gs", "gsm", 0.60, 0.10, 0.90, 23, 0.30, False),
        ],
        columns=[
            "metric",
            "original",
            "reworked",
            "downstream",
            "estimate",
            "ci_low",
            "ci_high",
            "n_models",
            "p_fdr",
            "reject",
        ],
    )
    tables["spec"] = pd.concat(
        [tables["spec"], _spec([("delta_rho", "wg vs ww ~ gsm", 5, 6, ""), ("delta_rho", "hs vs gs ~ gsm", 6, 6, "")])]
    )
    found = F.study_findings("obs", tables, LABELS, 5, CRITERIA)
    stated = {c.subject: c.sentence for c in found.stated}
    assert "Δρ = ρ(WinoGrande) − ρ(ww) = 0.53 [0.20, 0.80], n = 23 models" in stated["wg vs ww ~ gsm"]
    assert "hs vs gs ~ gsm" not in stated
    assert any(c.subject == "hs vs gs ~ gsm" and c.failed.startswith("FDR") for c in found.rejected)


def test_a_study_with_too_few_models_says_so_and_states_nothing():
    found = F.study_findings("default", _tables(n_models=3), LABELS, 5, CRITERIA)
    assert not found.stated and not found.rejected and found.too_few_models
    assert found.notes == [
        "This study has 3 models; conclusions across models need at least 5 (analysis.min_models), so it draws none."
    ]
    page = F.markdown_page([found], CRITERIA, [], F.page_links({}, published=False))
    assert "No conclusion survives" not in page  # the reason is the number of models, said once


def test_atlas_and_commonwhy_are_read_only_if_present(tmp_path):
    assert F.atlas_lines(tmp_path / "human_preference.csv", CRITERIA) == [
        f"Atlas: not run (no {tmp_path / 'human_preference.csv'})."
    ]
    assert "not run" in F.commonwhy_lines(tmp_path / "commonwhy_eval")[0]
    pd.DataFrame({"criterion": ["elo"], "rho": [0.5]}).to_csv(tmp_path / "h.csv", index=False)
    assert "lacks the columns" in F.atlas_lines(tmp_path / "h.csv", CRITERIA)[0]
    atlas = pd.DataFrame(
        {
            "criterion": ["arena_elo"] * 4,
            "predictor": ["mmlu", "bbh", "ifeval", "tiny"],
            "rank": [1.0, 2.0, 3.0, None],  # tiny: unranked (too few models), though its interval excludes 0
            "n_models": [60, 60, 60, 12],
            "rho": [0.8, 0.7, 0.6, 0.9],
            "rho_beyond_g": [0.4, 0.1, 0.35, 0.8],
            "rho_beyond_g_ci_low": [0.2, -0.1, 0.05, 0.5],
            "rho_beyond_g_ci_high": [0.6, 0.3, 0.6, 0.95],
            "n_beyond_g": [40, 40, 40, 12],
            "q_beyond_g": [0.001, 0.4, 0.2, 0.001],  # ifeval: its interval excludes 0 but it fails FDR
        }
    )
    atlas.to_csv(tmp_path / "hp.csv", index=False)
    lines = F.atlas_lines(tmp_path / "hp.csv", CRITERIA)
    assert "1 predictor-criterion pairs predict beyond general capability" in lines[0] and len(lines) == 2
    assert lines[1].startswith(
        "mmlu predicts arena\\_elo beyond general capability g: ρ beyond g = 0.40 [0.20, 0.60] (family-clustered"
    )
    assert "n = 40 models" in lines[1] and "raw ρ = 0.80 on 60 models" in lines[1]


def test_the_page_is_written_as_markdown_and_html(tmp_path):
    paths = {}
    study = tmp_path / "obs"
    study.mkdir()
    tables = _tables()
    for name in F.STUDY_INPUTS:
        frame = tables["spec" if name == "specification_robustness" else name]
        frame.to_csv(study / f"{name}.csv", index=False)
        paths[name] = str(study / f"{name}.csv")
    pd.DataFrame({"task": list(LABELS), "label": list(LABELS.values())}).to_csv(study / "tasks.csv", index=False)
    paths["tasks"] = str(study / "tasks.csv")
    outputs = {k: tmp_path / f"out/{k}" for k in ("markdown", "html", "report")}
    F.write_findings({"obs": paths}, 5, CRITERIA, tmp_path / "none.csv", tmp_path / "none", outputs)
    markdown = outputs["markdown"].read_text()
    assert "HellaSwag and GSM8K rank the models alike (score): Spearman ρ = 0.62 [0.48, 0.74]" in markdown
    html = outputs["html"].read_text()
    assert "<table>" in html and '<a href="figures/obs/fig2_cs_downstream.png">Figure 2</a>' in html
    assert "Figure 2: Figures › obs" in outputs["report"].read_text()


@pytest.mark.parametrize("sign", [1, -1])
def test_a_partial_correlation_of_the_other_sign_fails_the_controls(sign):
    tables = _tables()
    tables["partial_spearman"].loc[0, "rho_partial"] = sign * 0.35
    stated = {c.subject for c in F.study_findings("obs", tables, LABELS, 5, CRITERIA).stated}
    assert ("hs ~ gsm" in stated) == (sign == 1)
    assert np.sign(tables["partial_spearman"].loc[0, "rho_partial"]) == sign


def test_a_partial_correlation_whose_interval_includes_zero_fails_the_controls():
    """BH-significant by its t-test but the bootstrap interval straddles 0 (obsscaling's WinoGrande ~ GSM8K
    had partial 0.24 [-0.11, 0.48], p_FDR 0.018): not stated."""
    tables = _tables()
    tables["partial_spearman"].loc[0, ["ci_low", "ci_high"]] = [-0.11, 0.48]
    found = F.study_findings("obs", tables, LABELS, 5, CRITERIA)
    assert not found.stated
    assert next(c.failed for c in found.rejected if c.subject == "hs ~ gsm").startswith(
        "controls: given log size, family and the control composite, partial ρ = 0.35 [-0.11, 0.48]"
    )


def test_a_correlation_whose_interval_includes_zero_is_not_stated():
    tables = _tables()
    tables["correlations_cs_downstream"].loc[0, "ci_low"] = -0.05
    found = F.study_findings("obs", tables, LABELS, 5, CRITERIA)
    assert not found.stated and any(c.failed.startswith("interval: ρ's interval") for c in found.rejected)


def test_a_directional_claim_never_prints_a_bound_of_zero():
    """ΔR² 'improves' with a lower bound of 0.004: two decimals would print [0.00, ...]; three are used."""
    tables = _tables()
    tables["lofo_scores"] = pd.DataFrame(
        [("score", "gsm", "controls+original", 0.031, 0.004, 0.061, 148, 40, "")],
        columns=list(_empty_tables()["lofo_scores"].columns),
    )
    found = F.study_findings("obs", tables, LABELS, 5, CRITERIA)
    sentence = next(c.sentence for c in found.rejected + found.stated if c.kind == "lofo_gain")
    assert "improves" in sentence and "ΔR² = 0.031 [0.004, 0.061]" in sentence
    assert F.estimate_text(0.62, 0.48, 0.74) == "0.62 [0.48, 0.74]"  # two decimals where they suffice
    assert F.interval_text(-0.004, 0.2) == "[-0.004, 0.200]"


def test_a_rejection_for_the_interval_says_so_beside_a_small_p():
    """A partial correlation with BH-adjusted p < alpha but an interval that includes 0: the reason says the
    interval failed, not the p-value, so the row does not contradict its numbers."""
    tables = _tables()
    tables["partial_spearman"].loc[0, ["ci_low", "ci_high", "p_fdr"]] = [-0.11, 0.48, 0.0035]
    failed = next(
        c.failed for c in F.study_findings("obs", tables, LABELS, 5, CRITERIA).rejected if c.subject == "hs ~ gsm"
    )
    assert "BH-adjusted p = 0.0035: significant after FDR, but its bootstrap interval includes 0" in failed
    tables["partial_spearman"].loc[0, "reject"] = False
    failed = next(
        c.failed for c in F.study_findings("obs", tables, LABELS, 5, CRITERIA).rejected if c.subject == "hs ~ gsm"
    )
    assert failed.endswith("not significant after FDR (≥ 0.05)")


def test_each_study_has_a_one_line_summary_counting_its_gates():
    found = F.study_findings("obs", _tables(), LABELS, 5, CRITERIA)
    assert found.summary() == (
        "1 of 4 candidate conclusions survive every gate; the others failed (first gate): "
        "FDR 1, multiverse 1, controls 1."
    )
    page = F.markdown_page([found], CRITERIA, [], F.page_links({}, published=True))
    assert f"**In one line:** {found.summary()}" in page
    assert "![Figure 2: each commonsense benchmark" in page  # its key figure embedded (the stated one's)


def _scoreboard():
    rows = []
    for model, values in {
        "m1": [(0.8, 0.7, 0.9), (0.55, 0.45, 0.65)],
        "m2": [(0.6, 0.5, 0.7), (0.5, 0.4, 0.6)],
    }.items():
        for task, (value, low, high) in zip(["hs", "wg"], values):
            rows.append(
                {
                    "model": model,
                    "task": task,
                    "metric": "accuracy",
                    "value": value,
                    "ci_low": low,
                    "ci_high": high,
                    "chance": 0.5,
                    "ci_above_chance": low > 0.5,
                }
            )
    return pd.DataFrame(rows)


def _paired():
    columns = ["task", "model_a", "model_b", "n_items", "difference", "ci_low", "ci_high", "p_mcnemar_exact"]
    return pd.DataFrame(
        [
            ("hs", "m1", "m2", 100, 0.2, 0.1, 0.3, 0.001),
            ("wg", "m1", "m2", 100, 0.05, -0.05, 0.15, 0.4),
            ("(pooled)", "m1", "m2", 200, 0.125, 0.06, 0.19, 0.004),
            ("(pooled)", "m1", "m3", 200, 0.004, -0.03, 0.04, 0.8),
        ],
        columns=columns,
    )


def test_a_study_with_too_few_models_states_its_models_against_chance_and_its_separable_pairs():
    tables = _tables(n_models=3)
    tables["scoreboard"], tables["paired_comparisons"] = _scoreboard(), _paired()
    found = F.study_findings("default", tables, LABELS, 5, CRITERIA)
    assert found.too_few_models and not found.stated and found.key_figure == "scoreboard"
    chance, pairs = found.small_study
    assert "m1: accuracy above chance on 1 of 2 tasks: HellaSwag" in chance
    assert "m2: accuracy above chance on 0 of 2 tasks." in chance
    # BH over the two pooled pairs (reference: statsmodels): 0.004 -> 0.008, 0.8 -> 0.8
    from statsmodels.stats.multitest import multipletests

    adjusted = multipletests([0.004, 0.8], method="fdr_bh")[1]
    assert f"m1 − m2: +0.12 [+0.06, +0.19] on 200 items, BH-adjusted McNemar p = {adjusted[0]:.2g} (separable)" in pairs
    assert "m1 − m3: +0.004 [-0.030, +0.040] on 200 items, BH-adjusted McNemar p = 0.8 (not separable)" in pairs
    assert "1 of 2 separable" in pairs and "Per task, 1 of 2 (pair, task) comparisons are separable" in pairs
    # an interval that excludes 0 is not enough: with McNemar's p above alpha the pair is not separable
    tables["paired_comparisons"].loc[2, "p_mcnemar_exact"] = 0.2
    assert "0 of 2 separable" in F.study_findings("default", tables, LABELS, 5, CRITERIA).small_study[1]


def test_the_html_pages_embed_the_key_figure(tmp_path):
    from PIL import Image

    png = tmp_path / "fig2.png"
    Image.new("RGB", (4, 4), "white").save(png)
    links = F.page_links({"obs": {"fig2_cs_downstream": str(png)}}, published=False)
    assert links.embed("obs", "fig2_cs_downstream").startswith("![Figure 2: ")
    assert "(data:image/png;base64," in links.embed("obs", "fig2_cs_downstream")
    assert links.embed("obs", "fig3_lofo_delta_r2") == ""  # no file, no link in the report's copy
    html = F.html_page(F.markdown_page([F.study_findings("obs", _tables(), LABELS, 5, CRITERIA)], CRITERIA, [], links))
    assert '<img src="data:image/png;base64,' in html
