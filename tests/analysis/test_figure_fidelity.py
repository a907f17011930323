"""Figure fixes: the too-few-models notice for Figure 3 and Table 4, Figure 3's caption (the level,
wrapped to the figure), Figure 4's n/a marks inside their axes, the reliability dagger of Figures 1-2."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.image  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from benchval.analysis.figures import (  # noqa: E402
    drawing,
    fig2_cs_downstream,
    fig3_lofo_delta_r2,
    fig4_axis_tests,
    figure_step,
    table4_rank_displacement,
)
from benchval.analysis.settings import settings_from_config  # noqa: E402
from benchval.analysis.study_table import StudyTable  # noqa: E402


def _captured(monkeypatch):
    drawn = []
    monkeypatch.setattr(drawing, "save", lambda figure, *args, **kwargs: drawn.append(figure) or [])
    return drawn


def _output(tmp_path):
    return drawing.FigureOutput(tmp_path, ["png"], 40, "syn")


@pytest.mark.parametrize("figure", [fig3_lofo_delta_r2, table4_rank_displacement], ids=lambda f: f.STEM)
def test_too_few_models_gives_the_one_line_notice(figure, study, tmp_path, monkeypatch):
    few = study.models.index[:3]
    small = StudyTable(study.scores[study.scores["model"].isin(few)], study.tasks, study.models.loc[few])
    drawn = _captured(monkeypatch)
    settings = settings_from_config({"figures": {"formats": ["png"], "dpi": 50}})
    figure_step.draw(figure, {}, small, ["accuracy"], settings, tmp_path, "syn")
    texts = " ".join(text.get_text() for text in drawn[0].texts)
    assert "the study has 3 models" in texts and "at least 5" in texts


def _lofo_table(study):
    rows = []
    for task in study.tasks_with_role("downstream"):
        for name in ("controls", *fig3_lofo_delta_r2.PREDICTOR_SET_LABELS):
            rows.append(
                {
                    "metric": "accuracy",
                    "downstream": task,
                    "predictor_set": name,
                    "r2": 0.2,
                    "delta_r2": np.nan if name == "controls" else 0.1,
                    "delta_r2_ci_low": 0.0,
                    "delta_r2_ci_high": 0.2,
                }
            )
    return pd.DataFrame(rows)


def test_figure_3_caption_states_the_level_and_fits_the_figure(study, tmp_path, monkeypatch):
    drawn = _captured(monkeypatch)
    fig3_lofo_delta_r2.figure_lofo(_lofo_table(study), study, ["accuracy"], _output(tmp_path), 0.9)
    caption = next(t.get_text() for t in drawn[0].texts if "whiskers" in t.get_text())
    assert "90% bootstrap interval" in caption and "ci_level" not in caption
    width = drawn[0].get_figwidth()
    assert max(len(line) for line in caption.splitlines()) <= 16 * width


def test_figure_3_is_not_widened_by_its_caption(study, tmp_path):
    fig3_lofo_delta_r2.figure_lofo(_lofo_table(study), study, ["accuracy"], _output(tmp_path), 0.95)
    image = matplotlib.image.imread(tmp_path / "fig3_lofo_delta_r2.png")
    n_tasks = len(study.tasks_with_role("downstream"))
    assert image.shape[1] <= (max(6.0, 1.1 * n_tasks + 2) + 1.0) * 40  # pixels at 40 dpi


def test_figure_4_na_marks_stay_inside_their_axes(tmp_path, monkeypatch):
    table = pd.DataFrame(
        {
            "metric": ["score"] * 2,
            "panel": ["a", "global"],
            "axis": ["social", "all"],
            "estimate": [np.nan, 0.1],
            "ci_low": [np.nan, 0.0],
            "ci_high": [np.nan, 0.2],
        }
    )
    drawn = _captured(monkeypatch)
    fig4_axis_tests.figure_axis_tests(table, ["score"], _output(tmp_path), 0.95)
    marks = [t for ax in drawn[0].axes for t in ax.texts]
    assert marks and all(t.get_text() == "n/a" and t.get_clip_on() for t in marks)


def test_figure_2_marks_pairs_whose_ceiling_is_below_the_bar(study, tmp_path, monkeypatch):
    benchmark, task = study.tasks_with_role("cs_original")[0], study.tasks_with_role("downstream")[0]
    table = pd.DataFrame(
        {
            "metric": ["accuracy"] * 2,
            "benchmark": [benchmark] * 2,
            "role": ["cs_original"] * 2,
            "downstream": [task, study.tasks_with_role("downstream")[1]],
            "rho": [0.5, 0.4],
            "n_models": [23, 23],
            "reject": [True, False],
            "ceiling_below_bar": [True, False],
        }
    )
    drawn = _captured(monkeypatch)
    fig2_cs_downstream.figure_cs_downstream(table, study, ["accuracy"], _output(tmp_path), 0.05)
    cells = [t.get_text() for t in drawn[0].axes[0].texts]
    assert "0.50*†" in cells and "0.40" in cells
    assert "ceiling_bar" in " ".join(t.get_text() for t in drawn[0].texts) + drawn[0]._supxlabel.get_text()


def test_figure_4_with_no_defined_axis_test_says_why_in_one_line(tmp_path, monkeypatch):
    """A grid of n/a alone (e.g. the open_llm study: no downstream task shares an axis with a benchmark)
    gets the one-line notice, naming the reasons the table gives; a figure with one estimate gets none."""
    table = pd.DataFrame(
        {
            "metric": ["score"] * 2,
            "panel": ["a", "global"],
            "axis": ["social", "all"],
            "estimate": [np.nan, np.nan],
            "ci_low": [np.nan, np.nan],
            "ci_high": [np.nan, np.nan],
            "note": ["no benchmark-task pair shares the social axis", "no axis-matched benchmark-task pair"],
        }
    )
    drawn = _captured(monkeypatch)
    fig4_axis_tests.figure_axis_tests(table, ["score"], _output(tmp_path), 0.95)
    texts = [t.get_text() for t in drawn[0].texts]
    assert any("No axis test is defined" in t and "no axis-matched benchmark-task pair" in t for t in texts), texts
    defined = table.assign(estimate=[np.nan, 0.1], ci_low=[np.nan, 0.0], ci_high=[np.nan, 0.2])
    fig4_axis_tests.figure_axis_tests(defined, ["score"], _output(tmp_path), 0.95)
    assert not any("No axis test is defined" in t.get_text() for t in drawn[1].texts)
