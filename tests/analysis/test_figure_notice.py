"""A study's `notice` (config/rehearsal.yaml: random weights) is printed on every figure it has."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from benchval.analysis.figures.drawing import save  # noqa: E402
from benchval.testing.rehearsal import FIGURE_NOTICE, rehearsal_config  # noqa: E402


def test_save_prints_the_notice_above_the_figure(tmp_path):
    figure, _ = plt.subplots()
    paths = save(figure, tmp_path, "fig", ["png"], 50, notice="RANDOM WEIGHTS")
    assert [path.name for path in paths] == ["fig.png"] and paths[0].stat().st_size > 0
    texts = [text for text in figure.texts if text.get_text() == "RANDOM WEIGHTS"]
    assert len(texts) == 1 and texts[0].get_position()[1] >= 1.0


def test_save_without_a_notice_adds_no_text(tmp_path):
    figure, _ = plt.subplots()
    save(figure, tmp_path, "fig", ["png"], 50)
    assert figure.texts == []


def test_the_rehearsal_study_carries_the_random_weights_notice():
    assert rehearsal_config()["studies"]["default"]["notice"] == FIGURE_NOTICE
    assert "random" in FIGURE_NOTICE.lower()
