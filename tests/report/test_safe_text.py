"""benchval.report.safe_text: user text shown in pages and figures."""

import json

import pytest
from markdown_it import MarkdownIt

from benchval.report.safe_text import from_script_safe_json, html_text, markdown_text, script_safe_json, shorten_label

PAYLOADS = [
    "<img src=x onerror=alert(1)>",
    "</script><script>alert(1)</script>",
    "[click](javascript:alert(1))",
    "**bold** | cell | `code`",
    "line\nbreak # heading",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_markdown_text_renders_as_the_literal_text(payload):
    rendered = MarkdownIt("commonmark", {"html": True}).render(markdown_text(payload))
    assert "<img" not in rendered and "<script" not in rendered and "href" not in rendered
    assert "<strong>" not in rendered and "<code>" not in rendered and "<h1>" not in rendered
    # a browser shows exactly the text (line breaks folded to spaces)
    shown = rendered.removeprefix("<p>").removesuffix("</p>\n")
    assert html_unescape(shown) == " ".join(payload.split())


def html_unescape(text):
    import html

    return html.unescape(text)


def test_html_text_escapes_quotes_and_tags():
    assert html_text('"><script>') == "&quot;&gt;&lt;script&gt;"


def test_shorten_label():
    assert shorten_label("short") == "short"
    assert shorten_label("x" * 10_000, width=40) == "x" * 39 + "…"
    assert len(shorten_label("a\nb " * 100, width=12)) == 12
    with pytest.raises(ValueError, match="at least 2"):
        shorten_label("abc", width=1)


def test_script_safe_json_reads_back_and_cannot_end_a_script_block():
    value = {"columns": {"</script><script>alert(1)</script>": "<!-- & -->"}, "n": [1, 2.5, None]}
    text = script_safe_json(value)
    assert from_script_safe_json(text) == value
    embedded = json.dumps({"params": {"config": text}})  # what Snakemake's report writes into <script>
    assert not any(char in embedded for char in "<>&")
