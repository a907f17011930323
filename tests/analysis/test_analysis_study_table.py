import numpy as np
import pandas as pd
import pytest

from benchval.analysis.study_table import TableError, load_study, read_score_table, read_tasks


def write(tmp_path, name, frame):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return path


def test_wide_matrix_has_every_model_and_only_tasks_with_the_metric(study):
    accuracy, macro_f1 = study.wide("accuracy"), study.wide("macro_f1")
    assert accuracy.shape == (23, 19)
    assert "timedial" in accuracy.columns and "timedial" not in macro_f1.columns
    assert list(accuracy.columns) == list(study.tasks.index)
    assert study.metrics == ["accuracy", "macro_f1"]
    row = study.scores.iloc[0]
    assert study.wide(row.metric).at[row.model, row.task] == row.value


def test_duplicate_score_row_is_rejected_with_line(tmp_path, synthetic_frames):
    scores, _ = synthetic_frames
    scores = pd.concat([scores, scores.iloc[[5]]], ignore_index=True)
    with pytest.raises(TableError, match=rf"line {len(scores) + 1}: duplicate"):
        read_score_table(write(tmp_path, "s.csv", scores))


def test_model_with_two_sizes_is_rejected(tmp_path, synthetic_frames):
    scores, _ = synthetic_frames
    scores.loc[0, "size_b"] = 999.0
    with pytest.raises(TableError, match="more than one size_b"):
        read_score_table(write(tmp_path, "s.csv", scores))


def test_non_numeric_value_names_line(tmp_path, synthetic_frames):
    scores, _ = synthetic_frames
    scores["value"] = scores["value"].astype(object)
    scores.loc[3, "value"] = "abc"
    with pytest.raises(TableError, match="line 5: 'value' is not a number"):
        read_score_table(write(tmp_path, "s.csv", scores))


@pytest.mark.parametrize(
    "column,value,message",
    [
        ("role", "bogus", "role 'bogus'"),
        # any axis name is a study's own (checked against its declaration on import); a non-name is not
        ("axes", "social;cosmic ray", "is not a name"),
        ("pairs_with", "cei", "has role 'downstream', not cs_original"),
    ],
)
def test_task_table_errors(tmp_path, synthetic_frames, column, value, message):
    _, tasks = synthetic_frames
    tasks.loc[tasks.task == "winowhat", column] = value
    with pytest.raises(TableError, match=message):
        read_tasks(write(tmp_path, "t.csv", tasks))


def test_axes_are_parsed_and_unavailable_column_is_accepted(tmp_path, synthetic_frames):
    _, tasks = synthetic_frames
    tasks.loc[tasks.task == "cei", "axes"] = "social;pragmatic"
    tasks["unavailable"] = ""
    read = read_tasks(write(tmp_path, "t.csv", tasks))
    assert read.at["cei", "axes"] == ("social", "pragmatic")
    assert read.at["blimp", "axes"] == ()


def test_scored_task_missing_from_task_table(tmp_path, synthetic_frames):
    scores, tasks = synthetic_frames
    with pytest.raises(TableError, match=r"\['cei'\] are not listed"):
        load_study(write(tmp_path, "s.csv", scores), write(tmp_path, "t.csv", tasks[tasks.task != "cei"]))


def test_missing_value_is_nan_in_wide(tmp_path, synthetic_frames):
    scores, tasks = synthetic_frames
    scores = scores.drop(index=scores.index[(scores.task == "cei") & (scores.model == "OPT-66b")])
    study = load_study(write(tmp_path, "s.csv", scores), write(tmp_path, "t.csv", tasks))
    assert np.isnan(study.wide("accuracy").at["OPT-66b", "cei"])


def test_reworked_without_its_original_gives_missing_pair(tmp_path, synthetic_frames, settings):
    from benchval.analysis.revisions import pair_correlations

    scores, tasks = synthetic_frames
    tasks, scores = tasks[tasks.task != "hellaswag"], scores[scores.task != "hellaswag"]
    study = load_study(write(tmp_path, "s.csv", scores), write(tmp_path, "t.csv", tasks))
    pairs = pair_correlations(study, "accuracy", study.wide("accuracy"), settings).set_index("reworked")
    assert (
        np.isnan(pairs.at["goldenswag", "rho"])
        and "hellaswag has no 'accuracy' scores" in pairs.at["goldenswag", "note"]
    )
    assert np.isfinite(pairs.at["winowhat", "rho"])
