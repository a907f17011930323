"""Labels drawn in figures are shortened to benchval.report.safe_text.LABEL_WIDTH characters; the tables keep
the full text (issue 42, "Bounded work").

Before: a 10,000-character task label made a 122,115-pixel-wide figure, over Pillow's decompression-bomb
limit."""

from __future__ import annotations

import pandas as pd
from PIL import Image

from benchval.analysis.figures.drawing import FigureOutput
from benchval.analysis.scoreboard_figure import figure_scoreboard
from benchval.analysis.study_table import StudyTable
from benchval.report.safe_text import LABEL_WIDTH

LONG = "a very long label " * 556  # 10,008 characters


def test_a_study_figure_label_is_shortened_and_the_table_label_is_not():
    tasks = pd.DataFrame({"role": ["downstream"], "pairs_with": [None], "axes": [()], "label": [LONG]}, index=["t"])
    study = StudyTable(scores=pd.DataFrame(), tasks=tasks, models=pd.DataFrame())
    assert study.label("t") == LONG
    assert len(study.figure_label("t")) == LABEL_WIDTH and study.figure_label("t").endswith("…")


def test_a_scoreboard_with_a_10000_character_label_and_model_name_stays_small(tmp_path):
    board = pd.DataFrame(
        [
            {"model": model, "task": task, "label": label, "metric": "accuracy", "value": 0.5}
            | {"ci_low": 0.4, "ci_high": 0.6, "chance": 0.25}
            for task, label in (("t1", LONG), ("t2", "short"))
            for model in (LONG, "m2")
        ]
    )
    [png] = figure_scoreboard(board, FigureOutput(tmp_path, ["png"], 100, "s"), 0.95)
    with Image.open(png) as image:
        width, height = image.size
    assert width < 3000 and height < 3000, (width, height)
