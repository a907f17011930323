"""Self-contained HTML pages for `snakemake --report`: tables, the models, the config used.

Snakemake's HTML report shows images and HTML pages inline but offers CSV files only as
downloads, so every table that should be readable in the report is rendered here into one
small HTML page (inline CSS, no scripts, no external files). See docs/report.md.
"""

from __future__ import annotations

import html
import json
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

PAGE_CSS = """
body { font-family: system-ui, sans-serif; margin: 1rem; color: #111; }
h1 { font-size: 1.2rem; margin: 0 0 .4rem 0; }
p.intro { max-width: 60rem; font-size: .9rem; color: #333; }
table { border-collapse: collapse; font-size: .8rem; }
th, td { border: 1px solid #ccc; padding: .2rem .4rem; text-align: left; vertical-align: top; max-width: 40rem; }
th { background: #eee; position: sticky; top: 0; }
tr:nth-child(even) td { background: #fafafa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td:first-child { white-space: nowrap; }
pre { font-size: .8rem; background: #f6f6f6; padding: .6rem; overflow-x: auto; }
"""

# Manifest keys shown in the models table, in this order (benchval.models.manifest).
MODEL_COLUMNS = (
    "model",
    "family",
    "size_b",
    "n_parameters",
    "dtype",
    "device",
    "source",
    "source_sha256",
    "weights_sha256",
    "architecture",
    "vocab_size",
    "transformers_version",
    "prepared_at",
)


def _page(title: str, intro: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{PAGE_CSS}</style></head>\n<body>\n"
        f'<h1>{html.escape(title)}</h1>\n<p class="intro">{html.escape(intro)}</p>\n{body}\n</body></html>\n'
    )


def _table_html(frame: pd.DataFrame, float_digits: int = 4) -> str:
    """The frame as an HTML table; numbers right-aligned, floats rounded, missing values 'n/a'."""
    header = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = []
    for record in frame.itertuples(index=False):
        cells = []
        for value in record:
            if value is None or (isinstance(value, float) and pd.isna(value)):
                cells.append('<td class="num">n/a</td>')
            elif isinstance(value, bool):
                cells.append(f"<td>{value}</td>")
            elif isinstance(value, (int, float)):
                text = f"{value:.{float_digits}g}" if isinstance(value, float) else str(value)
                cells.append(f'<td class="num">{text}</td>')
            else:
                cells.append(f"<td>{html.escape(str(value))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table>\n<thead><tr>{header}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody></table>"


def write_table_page(frame: pd.DataFrame, path: str | Path, title: str, intro: str) -> Path:
    """Write `frame` as a self-contained HTML page at `path`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_page(title, intro, _table_html(frame)), encoding="utf-8")
    return path


def csv_to_page(csv_path: str | Path, path: str | Path, title: str, intro: str) -> Path:
    """Render a CSV table as an HTML page (an empty CSV gives a page saying so)."""
    try:
        frame = pd.read_csv(csv_path, keep_default_na=True)
    except pd.errors.EmptyDataError:
        frame = pd.DataFrame()
    if frame.empty:
        intro = f"{intro} (This table is empty: {Path(csv_path).name} has no rows.)"
    return write_table_page(frame, path, title, intro)


def source_description(source: Mapping[str, Any], load_from: Mapping[str, Any] | None = None) -> str:
    """One line naming where a model came from (HF id and revision, wheels, or local folder).

    For a Hugging Face source, the commit the snapshot resolved to (manifest `load_from`) is shown.
    """
    kind = source.get("type")
    if kind == "hf":
        text = f"hf:{source['id']}@{source.get('revision') or 'main'}"
        resolved = (load_from or {}).get("revision")
        return f"{text} (commit {resolved})" if resolved and resolved != source.get("revision") else text
    if kind == "gguf_wheels":
        return "PyPI wheels " + ", ".join(source["wheels"])
    if kind == "local":
        return f"local folder {source['path']}"
    return json.dumps(dict(source), sort_keys=True)


def models_frame(manifests: Sequence[str | Path]) -> pd.DataFrame:
    """One row per prepared model, from its resources/models/{model}/benchval-model.json."""
    rows = []
    for manifest_path in manifests:
        with open(manifest_path, encoding="utf-8") as handle:
            manifest = json.load(handle)
        source = manifest.get("source") or {}
        rows.append(
            {
                "model": manifest["name"],
                "family": manifest.get("family"),
                "size_b": manifest.get("size_b"),
                "n_parameters": manifest.get("n_parameters"),
                "dtype": manifest.get("dtype"),
                "device": manifest.get("device"),
                "source": source_description(source, manifest.get("load_from")),
                "source_sha256": manifest.get("gguf_sha256") or source.get("sha256"),
                "weights_sha256": manifest.get("weights_sha256"),
                "architecture": manifest.get("architecture"),
                "vocab_size": manifest.get("vocab_size"),
                "transformers_version": manifest.get("transformers_version"),
                "prepared_at": manifest.get("prepared_at"),
            }
        )
    return pd.DataFrame(rows, columns=list(MODEL_COLUMNS))


def write_models_pages(
    manifests: Sequence[str | Path], page: str | Path, table_csv: str | Path, intro: str
) -> pd.DataFrame:
    """The models table (:func:`models_frame`) as CSV and as its report page."""
    frame = models_frame(manifests)
    frame.to_csv(table_csv, index=False)
    write_table_page(frame, page, "Models", intro)
    return frame


def write_config_page(config: Mapping[str, Any], path: str | Path, yaml_path: str | Path | None = None) -> Path:
    """The merged config the run used, as YAML in an HTML page (and optionally a .yaml file)."""
    text = yaml.safe_dump(_plain(config), sort_keys=False, allow_unicode=True, width=100)
    if yaml_path is not None:
        Path(yaml_path).parent.mkdir(parents=True, exist_ok=True)
        Path(yaml_path).write_text(text, encoding="utf-8")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    intro = (
        "The configuration this run used: config/config.yaml merged with config/catalogue/*.yaml and "
        "any --configfile/--config given on the command line, after schema defaults were filled in."
    )
    path.write_text(_page("Configuration", intro, f"<pre>{html.escape(text)}</pre>"), encoding="utf-8")
    return path


def _plain(value: Any) -> Any:
    """Snakemake's config may hold its own Mapping/Sequence types; make plain dicts and lists."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


# Page titles of a study's tables (captions with the reading guide: workflow/report/table_*.rst).
STUDY_TABLE_TITLES = {
    "score_table": "Score table",
    "task_table": "Task table",
    "study_summary": "Study summary",
    "correlations_cs_cs": "Correlations between commonsense benchmarks (Figure 1)",
    "correlations_cs_downstream": "Benchmark-downstream correlations (Figure 2)",
    "revision_pairs": "Original vs reworked benchmark",
    "revision_groups": "Original/reworked correlation structure",
    "delta_rho": "Does the revision transfer better? (delta rho)",
    "revision_sensitivity": "Revision analysis per sensitivity variant (PIQA-RUP perturbations)",
    "partial_spearman": "Partial correlations",
    "axis_tests": "Axis tests (Figure 4)",
    "lofo_scores": "Leave-one-family-out prediction (Figure 3)",
    "lofo_predictions": "Leave-one-family-out predictions",
    "rank_displacement_pairs": "Rank displacement per benchmark-task pair",
    "table4_rank_displacement": "Table 4: ranking correspondence",
    "fdr": "False discovery rate control",
    "scoreboard": "Scoreboard: every model on every task, with CIs and chance levels",
    "specification_robustness": "Specification robustness: the conclusions over the grid of choices",
}


def write_study_table_pages(study: str, csv_paths: Mapping[str, str | Path], pages: Mapping[str, str | Path]) -> None:
    """Render every table of `study` ({table name: csv path}) to its page ({table name: html path})."""
    missing = set(pages) - set(csv_paths)
    if missing:
        raise ValueError(f"study {study}: no CSV given for table(s) {sorted(missing)}")
    for name, page in pages.items():
        title = f"{STUDY_TABLE_TITLES.get(name, name)} - study {study}"
        csv_to_page(csv_paths[name], page, title, f"Rendered from {csv_paths[name]}.")


def write_scoreboard_pages(
    study: str, figure: str | Path, table_csv: str | Path, figure_copy: str | Path, page: str | Path
):
    """The scoreboard of ``study`` for the report: its figure copied, its table rendered to ``page``."""
    shutil.copy2(figure, figure_copy)
    write_study_table_pages(study, {"scoreboard": table_csv}, {"scoreboard": page})
