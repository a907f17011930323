"""The analysis as a chain of steps (benchval.analysis.chain): the same tables as one run_analysis call,
each step limited to its own settings, and the one-line figure of a study with too few models."""

from __future__ import annotations

import pandas as pd
import pytest

from benchval.analysis import chain, fdr
from benchval.analysis.figures import fig1_cs_correlations, figure_step
from benchval.analysis.outputs import (
    FIGURE_INPUTS,
    FIGURE_SETTINGS,
    FIGURE_STEMS,
    STEP_SETTINGS,
    STEP_TABLES,
    TABLE_NAMES,
)
from benchval.testing.analysis_in_one_process import FIGURE_MODULES, STEP_MODULES, run_analysis
from benchval.testing.synthetic_study import write_synthetic_study

SECTION = {"seed": 7, "n_bootstrap": 200, "figures": {"formats": ["png"], "dpi": 50}}


def _part(keys):
    return {key: SECTION[key] for key in keys if key in SECTION}


def test_the_chain_writes_the_tables_of_one_run(tmp_path):
    table_csv, tasks_csv = write_synthetic_study(tmp_path / "input", seed=3)
    run_analysis(table_csv, tasks_csv, SECTION, tmp_path / "whole", make_figures=False)
    out = tmp_path / "chain"
    for step, module in STEP_MODULES.items():
        chain.run_step(step, module.step_tables, table_csv, tasks_csv, _part(STEP_SETTINGS[step]), out)
    unadjusted = {name: out / "unadjusted" / f"{name}.csv" for name in fdr_tables()}
    fdr.run_fdr_step(unadjusted, _part(STEP_SETTINGS["fdr"]), out)
    for name in TABLE_NAMES:
        whole = pd.read_csv(tmp_path / "whole" / "tables" / f"{name}.csv")
        pd.testing.assert_frame_equal(pd.read_csv(out / "tables" / f"{name}.csv"), whole, check_dtype=False, obj=name)
    for figure in FIGURE_MODULES:
        stem = figure.STEM
        tables = {name: out / "tables" / f"{name}.csv" for name in FIGURE_INPUTS[stem]}
        paths = figure_step.run_figure_step(
            figure, table_csv, tasks_csv, tables, _part(FIGURE_SETTINGS[stem]), out, "syn"
        )
        assert [p.name for p in paths] == [f"{stem}.png"] and paths[0].stat().st_size > 0


def test_every_figure_has_its_module_and_script():
    """One module and one rule script per figure (benchval.analysis.figures): editing one redraws only it."""
    from benchval.plumbing.folders import REPO_ROOT

    assert [figure.STEM for figure in FIGURE_MODULES] == list(FIGURE_STEMS)
    for stem in FIGURE_STEMS:
        script = (REPO_ROOT / "workflow/scripts" / f"analysis_figure_{stem}.py").read_text()
        assert f"from benchval.analysis.figures import {stem}\n" in script


def fdr_tables():
    from benchval.analysis.outputs import TESTED_TABLES

    return TESTED_TABLES


def test_every_table_belongs_to_one_step():
    names = [name for tables in STEP_TABLES.values() for name in tables] + ["fdr"]
    assert sorted(names) == sorted(TABLE_NAMES)


def test_a_step_reading_a_setting_its_rule_does_not_pass_fails(tmp_path):
    settings = chain.step_settings({"ridge_alpha": 2.0}, ("ridge_alpha",), "lofo")
    assert settings.ridge_alpha == 2.0
    with pytest.raises(AttributeError, match="analysis step 'lofo' reads settings.top_k"):
        _ = settings.top_k
    with pytest.raises(ValueError, match="does not declare"):
        chain.step_settings({"top_k": 3}, ("ridge_alpha",), "lofo")


def test_a_correlation_figure_below_min_models_says_so(tmp_path):
    table_csv, tasks_csv = write_synthetic_study(tmp_path / "input", seed=3)
    out = tmp_path / "out"
    chain.run_step(
        "correlations", STEP_MODULES["correlations"].step_tables, table_csv, tasks_csv, {"min_models": 500}, out
    )
    stem = fig1_cs_correlations.STEM
    section = {"min_models": 500, "figures": {"formats": ["png"], "dpi": 50}}
    drawn = []
    original = figure_step.figure_too_few_models

    def spy(*args, **kwargs):
        drawn.append(args[:1] + args[2:4])
        return original(*args, **kwargs)

    figure_step.figure_too_few_models = spy
    try:
        figure_step.run_figure_step(
            fig1_cs_correlations,
            table_csv,
            tasks_csv,
            {"correlations_cs_cs": out / "unadjusted" / "correlations_cs_cs.csv"},
            section,
            out,
            "syn",
        )
    finally:
        figure_step.figure_too_few_models = original
    n_models = pd.read_csv(table_csv)["model"].nunique()
    assert drawn == [(stem, n_models, 500)]
    assert (out / "figures" / f"{stem}.png").stat().st_size > 0


@pytest.mark.parametrize("final", [True, False])
def test_tables_round_trip_exactly(tmp_path, final):
    """Final tables are written so that every float reads back as itself (``%.10g`` cut them to 10
    significant digits: rho = 0.12345678901234 came back as 0.123456789)."""
    import numpy as np

    values = [0.1 + 0.2, 1 / 3, 0.12345678901234567, 1e-17, -2.5e300, np.nextafter(1.0, 2.0), float("nan")]
    frame = pd.DataFrame({"task": [f"t{i}" for i in range(len(values))], "rho": values})
    path = chain.write_table(frame, tmp_path, "correlations_cs_cs", final=final)
    assert path.parent.name == ("tables" if final else "unadjusted")
    back = pd.read_csv(path)["rho"].to_numpy()
    assert np.array_equal(back, np.array(values), equal_nan=True)
