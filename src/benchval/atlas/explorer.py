"""The explorer: one self-contained HTML page per run (``results/explorer/index.html``; docs/atlas.md,
"Explorer") that opens from the file system and works offline.

Built with Plotly (plotly.js included in the page by ``include_plotlyjs=True``: no CDN, no server; all
interaction is Plotly's own menus and sliders, no hand-written JavaScript):

* **predictors of a criterion**: a dropdown chooses the criterion; its predictors are ranked by raw rho
  with their bootstrap intervals (and rho beyond general capability beside them where the table has it);
  a slider sets the minimum n (models shared): it re-filters every criterion's rows at once, so the
  dropdown and the slider do not undo each other;
* **the models behind a pair**: a dropdown chooses a pair (each criterion with its ``top_k`` predictors,
  as the forest plots draw them); a scatter of the models both columns score, coloured by family (the
  registry's; "unknown" where no rule decided), the model's name on hover, and the population (n, which
  leaderboard files) in the title;
* **links to the tables** the page is drawn from (relative links beside the page).
"""

from __future__ import annotations

import html
import os
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative

MIN_N_STEPS = (10, 20, 30, 50, 80)
PALETTE = qualitative.Dark24
#: the title just above the plot, left; the menu above the title (they would overlap otherwise)
TITLE_PLACE = {"x": 0, "xanchor": "left", "xref": "paper", "y": 1.0, "yanchor": "bottom", "yref": "paper"}


def _forest_arrays(rows: pd.DataFrame, value: str, low: str, high: str) -> dict:
    return {
        "x": rows[value].tolist(),
        "y": rows["predictor"].tolist(),
        "error_x": {
            "type": "data",
            "symmetric": False,
            "array": (rows[high] - rows[value]).fillna(0).tolist(),
            "arrayminus": (rows[value] - rows[low]).fillna(0).tolist(),
        },
        "customdata": rows[["n_models"]].to_numpy().tolist(),
    }


def predictor_figure(table: pd.DataFrame, criteria: list[str], level: float) -> go.Figure:
    """Criterion dropdown -> its predictors ranked with intervals; min-n slider."""
    beyond = "rho_beyond_g" in table.columns
    figure = go.Figure()
    traces_per = 2 if beyond else 1
    per_criterion = {c: table[table["criterion"] == c].sort_values("rho") for c in criteria}
    for index, criterion in enumerate(criteria):
        rows = per_criterion[criterion]
        figure.add_trace(
            go.Scatter(
                mode="markers",
                name=f"raw rho [{int(round(level * 100))}% CI]",
                visible=index == 0,
                marker={"color": PALETTE[0], "size": 8},
                hovertemplate="%{y}: rho %{x:.2f}, n=%{customdata[0]}<extra></extra>",
                **_forest_arrays(rows, "rho", "ci_low", "ci_high"),
            )
        )
        if beyond:
            figure.add_trace(
                go.Scatter(
                    mode="markers",
                    name="rho beyond general capability",
                    visible=index == 0,
                    marker={"color": PALETTE[1], "size": 8, "symbol": "diamond"},
                    hovertemplate="%{y}: beyond g %{x:.2f}<extra></extra>",
                    **_forest_arrays(rows, "rho_beyond_g", "rho_beyond_g_ci_low", "rho_beyond_g_ci_high"),
                )
            )
    n_traces = traces_per * len(criteria)
    buttons = [
        {
            "label": criterion,
            "method": "update",
            "args": [
                {"visible": [i // traces_per == index for i in range(n_traces)]},
                {"title.text": _predictor_title(criterion, beyond)},
            ],
        }
        for index, criterion in enumerate(criteria)
    ]
    steps = [_min_n_step(min_n, per_criterion, criteria, beyond) for min_n in MIN_N_STEPS]
    figure.update_layout(
        title={"text": _predictor_title(criteria[0], beyond), **TITLE_PLACE},
        updatemenus=[
            {"buttons": buttons, "x": 0.0, "y": 1.0, "xanchor": "left", "yanchor": "bottom", "pad": {"b": 35}}
        ],
        sliders=[{"steps": steps, "currentvalue": {"prefix": "minimum n (models shared): "}, "pad": {"t": 40}}],
        xaxis={"title": {"text": "Spearman rho"}, "range": [-1.05, 1.05], "zeroline": True},
        yaxis={"type": "category", "automargin": True, "dtick": 1, "tickfont": {"size": 10}},  # every name
        height=max(600, 14 * int(max(len(r) for r in per_criterion.values()) or 1) + 250),
        margin={"t": 130},
        legend={"orientation": "h", "y": 1.02, "x": 1, "xanchor": "right", "yanchor": "bottom"},
    )
    return figure


def _min_n_step(min_n: int, per_criterion: dict, criteria: list[str], beyond: bool) -> dict:
    """The slider step that keeps the predictors sharing at least ``min_n`` models with their criterion."""
    arrays = []
    for criterion in criteria:
        rows = per_criterion[criterion]
        rows = rows[rows["n_models"] >= min_n]
        arrays.append(_forest_arrays(rows, "rho", "ci_low", "ci_high"))
        if beyond:
            arrays.append(_forest_arrays(rows, "rho_beyond_g", "rho_beyond_g_ci_low", "rho_beyond_g_ci_high"))
    restyle = {key: [a[key] for a in arrays] for key in ("x", "y", "error_x", "customdata")}
    return {"label": str(min_n), "method": "restyle", "args": [restyle]}


def _predictor_title(criterion: str, beyond: bool) -> str:
    extra = "" if beyond else " (rho beyond general capability: not computed)"
    return f"Predictors of {criterion}, ranked by raw rho{extra}"


def pair_frame(cells: pd.DataFrame, models: pd.DataFrame, criterion: str, predictor: str) -> pd.DataFrame:
    """The models both columns score: canonical id, family, the two values and their files."""
    wide = cells[cells["column"].isin([criterion, predictor])].drop_duplicates(["canonical_id", "column"])
    values = wide.pivot(index="canonical_id", columns="column", values="value").dropna()
    sources = wide.groupby("column")["source"].agg(lambda s: sorted(set(s)))
    family = models.set_index("canonical_id")["family"].reindex(values.index).fillna("unknown")
    frame = pd.DataFrame(
        {"model": values.index, "family": family.to_numpy(), "x": values[predictor], "y": values[criterion]}
    )
    frame.attrs["sources"] = {c: sources.get(c, []) for c in (criterion, predictor)}
    return frame.reset_index(drop=True)


def pair_figure(cells: pd.DataFrame, models: pd.DataFrame, pairs: list[tuple[str, str]]) -> go.Figure:
    """Pair dropdown -> scatter of the pair's models, one colour per family, names on hover."""
    frames = [pair_frame(cells, models, criterion, predictor) for criterion, predictor in pairs]
    families = pd.concat([f["family"] for f in frames]).value_counts().index if frames else []
    colour = {family: PALETTE[i % len(PALETTE)] for i, family in enumerate(families)}
    figure = go.Figure()
    titles = []
    for index, ((criterion, predictor), frame) in enumerate(zip(pairs, frames)):
        figure.add_trace(
            go.Scatter(
                x=frame["x"],
                y=frame["y"],
                mode="markers",
                visible=index == 0,
                showlegend=False,
                marker={"color": [colour[f] for f in frame["family"]], "size": 9, "line": {"width": 0.5}},
                text=frame["model"],
                customdata=frame[["family"]].to_numpy(),
                hovertemplate="%{text} (%{customdata[0]})<br>x %{x}<br>y %{y}<extra></extra>",
                name=f"{criterion} ~ {predictor}",
            )
        )
        files = "; ".join(", ".join(s) for s in frame.attrs["sources"].values())
        titles.append(f"{criterion} against {predictor}: n = {len(frame)} models scored by both ({files})")
    for family in list(families)[:20]:  # a colour key of the commonest families
        figure.add_trace(
            go.Scatter(x=[None], y=[None], mode="markers", name=family, marker={"color": colour[family], "size": 9})
        )
    n_pairs = len(pairs)
    buttons = [
        {
            "label": f"{criterion} ~ {predictor}",
            "method": "update",
            "args": [
                {"visible": [i == index for i in range(n_pairs)] + [True] * min(len(families), 20)},
                {"title.text": titles[index], "xaxis.title.text": predictor, "yaxis.title.text": criterion},
            ],
        }
        for index, (criterion, predictor) in enumerate(pairs)
    ]
    first = pairs[0] if pairs else ("", "")
    figure.update_layout(
        title={"text": titles[0] if titles else "no pair", "font": {"size": 13}, **TITLE_PLACE},
        updatemenus=[
            {"buttons": buttons, "x": 0.0, "y": 1.0, "xanchor": "left", "yanchor": "bottom", "pad": {"b": 35}}
        ],
        xaxis={"title": {"text": first[1]}},
        yaxis={"title": {"text": first[0]}},
        height=650,
        margin={"t": 140},
    )
    return figure


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body {{ font-family: system-ui, sans-serif; margin: 1rem; }} p, li {{ max-width: 60rem; }}</style></head>
<body>
<h1>{title}</h1>
<p>{intro}</p>
<h2>Which benchmarks predict a criterion?</h2>
<div id="predictors-section">{predictors}</div>
<h2>The models behind one pair</h2>
<div id="pairs-section">{pairs}</div>
<h2>Tables</h2>
<ul>{links}</ul>
</body></html>
"""


def write_explorer(
    table: pd.DataFrame,
    cells: pd.DataFrame,
    models: pd.DataFrame,
    criteria: list[str],
    top_k: int,
    level: float,
    links: dict[str, str],
    path: str | Path,
    title: str = "benchval explorer: the validity atlas",
    pairs: list[tuple[str, str]] | None = None,
    no_predictors: str = "",
) -> Path:
    """Write the page (see the module docstring); ``links``: {label: path relative to the page}. ``pairs``
    (criterion, predictor) default to each criterion's ``top_k`` predictors; ``no_predictors``: the reason
    shown instead of the predictor figure where no criterion has a predictor (else that is an error)."""
    criteria = [c for c in criteria if (table["criterion"] == c).any()]
    if not criteria and not no_predictors:
        raise ValueError("explorer: no criterion of atlas.human_preference.criteria has a predictor in the table")
    if pairs is None:
        pairs = []
        for criterion in criteria:
            own = table[table["criterion"] == criterion].sort_values("ci_low", ascending=False)
            pairs += [(criterion, p) for p in own["predictor"].head(top_k)]
    config = {"displaylogo": False, "responsive": True}
    scatter = pair_figure(cells, models, pairs).to_html(
        full_html=False, include_plotlyjs=not criteria, div_id="pairs", config=config
    )
    if criteria:
        predictors = predictor_figure(table, criteria, level).to_html(
            full_html=False, include_plotlyjs=True, div_id="predictors", config=config
        )
    else:
        predictors = f"<p>{html.escape(no_predictors)}</p>"
    page = PAGE.format(
        title=html.escape(title),
        intro=html.escape(
            f"Choose a criterion to see its predictors ranked by Spearman rho with {int(round(level * 100))}% "
            "bootstrap intervals; the slider hides predictors sharing fewer models with it. Choose a pair to "
            f"see the models behind it (the {top_k} predictors per criterion the forest plots draw; all are "
            "in the tables). Hover a point for its name. This page needs no network."
        ),
        predictors=predictors,
        pairs=scatter,
        links="".join(
            f'<li><a href="{html.escape(href)}">{html.escape(label)}</a></li>' for label, href in links.items()
        ),
    )
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path


def relative_links(page: str | Path, tables: dict[str, str]) -> dict[str, str]:
    """{label: path of the table relative to the page's folder}."""
    base = Path(page).resolve().parent
    return {label: Path(os.path.relpath(Path(p).resolve(), base)).as_posix() for label, p in tables.items()}
