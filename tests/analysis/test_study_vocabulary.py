"""A study declares its own roles and axes (studies.<study>.roles / .axes; benchval.analysis.study_vocabulary),
and the figures describe only what was computed: no '+ control' where there is no control task, no legend
entry for a series never drawn, the study's axes in Figure 4."""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pytest
import yaml
from jsonschema import Draft202012Validator

from benchval.analysis.figures import fig3_lofo_delta_r2, fig4_axis_tests
from benchval.analysis.figures.drawing import FigureOutput
from benchval.lmeval.steps.import_score_table import import_study
from benchval.analysis.study_import import StudyImportError
from benchval.analysis.study_table import load_study
from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.analysis_in_one_process import compute_tables
from benchval.analysis.settings import settings_from_config

FAMILIES = {"a": [1, 3, 7, 14], "b": [1, 2, 8, 70], "c": [2, 9, 27], "d": [1.5, 7, 72]}

OWN_STUDY = {
    "source": "csv",
    "path": "{mirror}/scores.csv",
    "columns": {"model": "Model", "family": "Fam", "size_b": "Size"},
    "roles": {"reasoning": "cs_original", "criterion": "downstream"},
    "axes": ["math", "code"],
    "tasks": {
        "gsm": {"column": "GSM", "role": "reasoning", "axes": ["math"], "label": "GSM-like"},
        "mbpp": {"column": "MBPP", "role": "reasoning", "axes": ["code"], "label": "MBPP-like"},
        "mathx": {"column": "MATHX", "role": "criterion", "axes": ["math"], "label": "Math criterion"},
        "codex": {"column": "CODEX", "role": "criterion", "axes": ["code"], "label": "Code criterion"},
    },
}


def _write_scores(folder, with_control=False):
    rng = np.random.default_rng(4)
    rows = [(f"{f}-{s}b", f, s) for f, sizes in FAMILIES.items() for s in sizes]
    ability = np.array([np.log(s) for _, _, s in rows])
    frame = pd.DataFrame({"Model": [r[0] for r in rows], "Fam": [r[1] for r in rows], "Size": [r[2] for r in rows]})
    for column in ("GSM", "MBPP", "MATHX", "CODEX", "CTRL"):
        frame[column] = 1 / (1 + np.exp(-(0.4 * ability + rng.normal(0, 0.5, len(rows)))))
    if not with_control:
        frame = frame.drop(columns="CTRL")
    frame.to_csv(folder / "scores.csv", index=False)


def _import(tmp_path, study):
    import_study("mine", study, tmp_path, tmp_path / "out/score_table.csv", tmp_path / "out/tasks.csv")
    return load_study(tmp_path / "out/score_table.csv", tmp_path / "out/tasks.csv")


def test_the_schema_takes_a_studys_own_roles_and_axes():
    schema = yaml.safe_load((REPO_ROOT / "workflow/schemas/studies.schema.yaml").read_text())
    validator = Draft202012Validator(schema)
    assert not list(validator.iter_errors({"mine": OWN_STUDY}))
    wrong = {"mine": {**OWN_STUDY, "roles": {"reasoning": "predictor"}}}  # not an analysis role
    assert list(validator.iter_errors(wrong))


def test_a_studys_roles_map_to_the_analysis_roles_and_keep_their_names(tmp_path):
    _write_scores(tmp_path)
    study = _import(tmp_path, OWN_STUDY)
    assert study.tasks["role"].to_dict() == {
        "gsm": "cs_original",
        "mbpp": "cs_original",
        "mathx": "downstream",
        "codex": "downstream",
    }
    assert study.role_name("gsm") == "reasoning" and study.role_name("codex") == "criterion"
    assert study.axes == ("math", "code")


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda s: s["tasks"]["gsm"].update(role="predictor"), "studies.mine.tasks.gsm.role: 'predictor' is neither"),
        (lambda s: s["tasks"]["gsm"].update(axes=["social"]), "studies.mine.tasks.gsm.axes: ['social'] not among"),
        (lambda s: s["roles"].update(control="downstream"), "studies.mine.roles: ['control'] are the analysis's own"),
    ],
)
def test_an_undeclared_role_or_axis_is_an_error_naming_its_key(tmp_path, edit, message):
    _write_scores(tmp_path)
    study = yaml.safe_load(yaml.safe_dump(OWN_STUDY))
    edit(study)
    with pytest.raises(StudyImportError, match=message.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        _import(tmp_path, study)


@dataclass(frozen=True)
class Capture(FigureOutput):
    """A FigureOutput that keeps the figure instead of writing it."""

    figures: list = field(default_factory=list)

    def save(self, figure, stem):
        self.figures.append(figure)
        return []


def _figures(study):
    settings = settings_from_config({"seed": 3, "n_bootstrap": 200, "axes_for_every_cs": []})
    tables = compute_tables(study, study.metrics, settings)
    out = Capture(out_dir=None, formats=("png",), dpi=50, study_name="mine")
    fig3_lofo_delta_r2.figure_lofo(tables["lofo_scores"], study, study.metrics, out, 0.95)
    fig4_axis_tests.figure_axis_tests(tables["axis_tests"], study.metrics, out, 0.95)
    return tables, out.figures


def test_without_a_control_task_figure_3_says_log_size_only_and_names_only_drawn_series(tmp_path):
    _write_scores(tmp_path)
    tables, (fig3, fig4) = _figures(_import(tmp_path, OWN_STUDY))
    ax = fig3.axes[0]
    assert ax.get_ylabel() == "Δ out-of-family R²\n(vs log size)"
    assert "control" not in ax.get_ylabel()
    # no reworked benchmark: only the original composite's bars exist, and only they are in the legend
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["+ reasoning composite"]  # the study's word
    drawn = tables["lofo_scores"].dropna(subset=["delta_r2"])["predictor_set"].unique().tolist()
    assert drawn == ["controls+original"]
    # Figure 4 tests the study's own axes
    assert [t.get_text() for t in fig4.axes[0].get_yticklabels()] == ["Math", "Code"]
    assert set(tables["axis_tests"]["axis"]) == {"math", "code", "all"}


def test_with_a_control_task_figure_3_names_the_control_composite(tmp_path):
    """The same study with a control task: the caption says so (the check above can fail)."""
    _write_scores(tmp_path, with_control=True)
    study = yaml.safe_load(yaml.safe_dump(OWN_STUDY))
    study["roles"]["covariate"] = "control"
    study["tasks"]["ctrl"] = {"column": "CTRL", "role": "covariate", "label": "General"}
    _, (fig3, _) = _figures(_import(tmp_path, study))
    assert fig3.axes[0].get_ylabel() == "Δ out-of-family R²\n(vs log size + control composite)"
