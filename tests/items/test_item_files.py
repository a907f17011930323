"""benchval.items.item_files: the raw files a source's reader reads, and the item studies' final files."""

from __future__ import annotations

from benchval.items.item_files import item_outputs, source_files

CONFIG = {
    "analysis": {"figures": {"formats": ["png"]}},
    "items": {
        "sources": {"nlu": {"reader": "nlu_test_sets"}, "pro": {"reader": "mmlu_pro_outputs"}},
        "studies": {"s": {"source": "nlu"}},
    },
}


def test_each_reader_reads_its_own_files(tmp_path, monkeypatch):
    nlu = {"reader": "nlu_test_sets", "datasets": ["mnli", "anli"]}
    assert source_files(nlu, tmp_path) == [
        str(tmp_path / "mnli_irt_all_coded.csv"),
        str(tmp_path / "anli_irt_all_coded.csv"),
    ]
    for name in ("model_outputs_b_5shots.zip", "model_outputs_a_5shots.zip", "notes.zip"):
        (tmp_path / name).write_text("")
    pro = source_files({"reader": "mmlu_pro_outputs"}, tmp_path)
    assert pro == [str(tmp_path / "model_outputs_a_5shots.zip"), str(tmp_path / "model_outputs_b_5shots.zip")]
    monkeypatch.chdir(tmp_path)  # scores / lm_eval: globs from the working directory
    (tmp_path / "x.csv").write_text("")
    assert source_files({"reader": "scores", "paths": ["*.csv"]}, "ignored") == ["x.csv"]


def test_the_final_files_need_studies_and_a_mirror(tmp_path, capsys):
    files = item_outputs(CONFIG, tmp_path)
    assert files[:2] == ["results/items/report.md", "results/items/reevaluation_snr.csv"]
    assert "results/items/pro/paired_comparisons.csv" in files
    assert "results/items/s/figures/item_map.png" in files and len(files) == 2 + 4 + 3
    assert item_outputs(CONFIG, None) == []
    assert "mirror: null" in capsys.readouterr().err
    assert item_outputs({**CONFIG, "items": {"sources": {}, "studies": {}}}, tmp_path) == []
    assert item_outputs({"analysis": CONFIG["analysis"]}, tmp_path) == []
