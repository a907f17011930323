"""What every figure shares: matplotlib (Agg backend), metric labels, saving in every format with the
study's notice (:class:`FigureOutput`), and the panel that says why it is empty."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

METRIC_LABELS = {"accuracy": "Accuracy", "macro_f1": "Macro-F1", "score": "Score (each task's headline metric)"}


def metric_label(metric: str) -> str:
    return METRIC_LABELS.get(metric, metric.replace("_", " "))


def save(figure: plt.Figure, out_dir: Path, stem: str, formats, dpi: int, notice: str | None = None) -> list[Path]:
    """Write ``stem.<fmt>`` for every format and close the figure; a study's ``notice`` (e.g. that its
    weights are random) is printed above everything else, so that no copy of the figure loses it."""
    if notice:
        figure.text(0.5, 1.0, notice, ha="center", va="bottom", color="firebrick", fontsize=10, fontweight="bold")
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in formats:
        path = out_dir / f"{stem}.{fmt}"
        figure.savefig(path, dpi=dpi, bbox_inches="tight", metadata={"Date": None} if fmt == "pdf" else None)
        figure.set_layout_engine("none")  # the layout is settled: later formats reuse it (faster)
        paths.append(path)
    plt.close(figure)
    return paths


@dataclass(frozen=True)
class FigureOutput:
    """Where a study's figures go, in which formats and resolution, and the notice every copy carries."""

    out_dir: Path
    formats: tuple[str, ...] | list[str]
    dpi: int
    study_name: str
    notice: str | None = None

    def save(self, figure: plt.Figure, stem: str) -> list[Path]:
        return save(figure, self.out_dir, stem, self.formats, self.dpi, self.notice)


def empty_panel(ax: plt.Axes, title: str, reason: str) -> None:
    ax.set_axis_off()
    ax.set_title(title)
    ax.text(0.5, 0.5, f"not available:\n{reason}", ha="center", va="center", wrap=True, fontsize=9)
