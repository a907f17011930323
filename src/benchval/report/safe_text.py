"""User-controlled text (model, family, task, study, criterion and column names, labels) made safe to show.

Every page and figure the workflow writes shows such text through these functions:

* :func:`markdown_text` for text interpolated into Markdown that is later rendered to HTML: Markdown's
  special characters are backslash-escaped and ``<``, ``>``, ``&`` become entities, so a label can neither
  open a tag nor form a link, emphasis or table cell.
* :func:`html_text` for text interpolated into HTML directly (``html.escape`` with quotes).
* :func:`shorten_label` for text drawn in a figure: at most ``width`` characters, the cut marked with an
  ellipsis (the full text stays in the tables).
* :func:`script_safe_json` for a value that ends up inside a ``<script>`` block of a page someone else
  writes (Snakemake's report embeds every reported job's params as JSON in one): JSON whose ``<``, ``>``
  and ``&`` are ``\\u`` escapes, so no ``</script>`` or ``<!--`` can appear in it, however Snakemake encodes
  it again; :func:`from_script_safe_json` reads it back.
"""

from __future__ import annotations

import html
import json
import re

#: characters with a meaning in CommonMark (inline and block) or in a GFM table
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")
#: the width of a label drawn in a figure, in characters
LABEL_WIDTH = 40


def html_text(text: object) -> str:
    """``text`` as HTML character data or an attribute value: ``& < > " '`` escaped."""
    return html.escape(str(text), quote=True)


def markdown_text(text: object) -> str:
    """``text`` as literal Markdown: special characters backslash-escaped, HTML's ``& < >`` as entities,
    line breaks as spaces (a label never starts a new block)."""
    flat = " ".join(str(text).split())
    entities = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", entities)


def shorten_label(text: object, width: int = LABEL_WIDTH) -> str:
    """``text`` on one line, at most ``width`` characters: longer text keeps its first ``width - 1`` and
    ends with an ellipsis."""
    if width < 2:
        raise ValueError(f"a label width must be at least 2 characters, not {width}")
    flat = " ".join(str(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}


def script_safe_json(value: object) -> str:
    """``value`` as JSON text with ``< > &`` written as ``\\u`` escapes (still JSON, same value when read)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    for char, escape in _SCRIPT_ESCAPES.items():
        text = text.replace(char, escape)
    return text


def from_script_safe_json(text: str) -> object:
    """The value :func:`script_safe_json` wrote."""
    return json.loads(text)
