"""Can a person read a figure at the size it is saved? Text extents from matplotlib's renderer.

:func:`layout_problems` draws the figure at the resolution it will be saved with and returns, in words,
every text that is too small (below :data:`MIN_POINTS` points, i.e. under about 2 mm tall at the saved
size: hard to read on paper and on a screen showing the whole figure; a figure larger than
:data:`PAGE_INCHES` counts as shrunk to fit, so a 50-inch-tall figure of 6 pt type fails) and every two texts whose
rendered boxes overlap by more than :data:`OVERLAP_PX` pixels in both directions, and every text that
reaches beyond the figure's edge (cut off when saved). Only texts that are
drawn count: visible, non-empty, and for tick labels only those of ticks inside the view limits.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.text import Text

MIN_POINTS = 6.0
OVERLAP_PX = 1.0
#: how far (pixels) a text may reach beyond the canvas before it counts as cut off: a glyph's descent box
#: (a tick label of a small figure's default margins reaches 1.6 px below it and reads whole)
CLIP_PX = 3.0
#: the largest figure (inches) read whole without shrinking: a page or a screen. A larger figure is shown
#: shrunk to fit, and its type with it; the check applies :data:`MIN_POINTS` to the type as then shown.
PAGE_INCHES = (20.0, 16.0)  # width, height: a wide screen or a landscape poster page


def _tick_texts(figure: Figure) -> tuple[list[Text], set[int]]:
    """The tick labels that are drawn, and the ids of every tick label (drawn or not)."""
    drawn, every = [], set()
    for axes in figure.get_axes():
        for axis in (axes.xaxis, axes.yaxis):
            low, high = sorted(axis.get_view_interval())
            shown = axes.axison and axis.get_visible() and axes.get_visible()
            for tick in [*axis.get_major_ticks(), *axis.get_minor_ticks()]:
                labels = (tick.label1, tick.label2)
                every.update(id(label) for label in labels)
                inside = low - 1e-9 <= tick.get_loc() <= high + 1e-9
                drawn += [label for label in labels if shown and inside and tick.get_visible()]
    return drawn, every


def drawn_texts(figure: Figure) -> list[Text]:
    """Every text artist of ``figure`` that is drawn (visible, non-empty, tick inside the view)."""
    ticks, tick_ids = _tick_texts(figure)
    others = [t for t in figure.findobj(Text) if id(t) not in tick_ids]
    return [t for t in [*others, *ticks] if t.get_visible() and t.get_text().strip() and _shown(t)]


def _shown(text: Text) -> bool:
    """False for a text whose parents are hidden (e.g. the labels of an axes switched off)."""
    axes = text.axes
    return axes is None or axes.axison or text not in [axes.xaxis.label, axes.yaxis.label]


def layout_problems(
    figure: Figure, dpi: float | None = None, min_points: float = MIN_POINTS, bbox_inches: str | None = None
) -> list[str]:
    """Too-small, overlapping and (unless saved with ``bbox_inches="tight"``, which grows the canvas to
    its texts) cut-off texts of ``figure`` drawn at ``dpi`` (default: the figure's own)."""
    if dpi is not None:
        figure.set_dpi(dpi)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    texts = drawn_texts(figure)
    width, height = figure.get_size_inches()
    shrink = min(1.0, PAGE_INCHES[0] / width, PAGE_INCHES[1] / height)
    shrunk = f" shown whole ({width:.0f} x {height:.0f} in shrunk to fit {PAGE_INCHES})" if shrink < 1 else ""
    problems = [
        f"text {t.get_text()[:40]!r} is {t.get_fontsize() * shrink:.1f} pt{shrunk} (< {min_points} pt)"
        for t in texts
        if t.get_fontsize() * shrink < min_points
    ]
    boxes = np.array([t.get_window_extent(renderer).extents for t in texts]).reshape(-1, 4)
    if bbox_inches != "tight":
        problems += _clipped(texts, boxes, figure.bbox.extents)
    if len(boxes) < 2:
        return problems
    width = np.minimum(boxes[:, None, 2], boxes[None, :, 2]) - np.maximum(boxes[:, None, 0], boxes[None, :, 0])
    height = np.minimum(boxes[:, None, 3], boxes[None, :, 3]) - np.maximum(boxes[:, None, 1], boxes[None, :, 1])
    overlapping = np.triu((width > OVERLAP_PX) & (height > OVERLAP_PX), k=1)
    for i, j in zip(*np.nonzero(overlapping)):
        if _rotated_overlap(texts[i], texts[j], renderer):
            problems.append(f"texts {texts[i].get_text()[:40]!r} and {texts[j].get_text()[:40]!r} overlap")
    return problems


def _clipped(texts: list[Text], boxes: np.ndarray, canvas: np.ndarray) -> list[str]:
    """The texts whose boxes reach beyond the figure's canvas by more than :data:`CLIP_PX`."""
    outside = (boxes[:, 0] < canvas[0] - CLIP_PX) | (boxes[:, 1] < canvas[1] - CLIP_PX)
    outside |= (boxes[:, 2] > canvas[2] + CLIP_PX) | (boxes[:, 3] > canvas[3] + CLIP_PX)
    return [f"text {texts[i].get_text()[:40]!r} is clipped at the figure's edge" for i in np.nonzero(outside)[0]]


def _corners(text: Text, renderer) -> np.ndarray:
    """The four corners (pixels) of a text's rotated box: the unrotated box's size, turned about the centre
    of the rotated box's bounding box (a rectangle's bounding box shares its centre)."""
    box = text.get_window_extent(renderer)
    angle = text.get_rotation()
    text.set_rotation(0)
    flat = text.get_window_extent(renderer)
    text.set_rotation(angle)
    theta = np.deg2rad(angle)
    turn = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [flat.width / 2, flat.height / 2]
    return np.array([box.x0 + box.width / 2, box.y0 + box.height / 2]) + half @ turn.T


def _rotated_overlap(first: Text, second: Text, renderer) -> bool:
    """Whether two texts' rotated boxes overlap by more than :data:`OVERLAP_PX` (separating axis test)."""
    if first.get_rotation() % 180 == 0 and second.get_rotation() % 180 == 0:
        return True  # the bounding boxes are the boxes: already found overlapping
    one, two = _corners(first, renderer), _corners(second, renderer)
    for polygon in (one, two):
        for k in range(4):
            edge = polygon[(k + 1) % 4] - polygon[k]
            normal = np.array([-edge[1], edge[0]]) / np.hypot(*edge)
            a, b = one @ normal, two @ normal
            if min(a.max(), b.max()) - max(a.min(), b.min()) <= OVERLAP_PX:
                return False
    return True
