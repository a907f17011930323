"""benchval.models.local_files: the files of a local model whose change reprepares it."""

from benchval.models.local_files import local_model_files


def test_a_local_folder_gives_its_config_and_weights(tmp_path):
    for name in ("b.safetensors", "a.safetensors", "old.bin", "config.json"):
        (tmp_path / name).write_text("")
    source = {"type": "local", "path": str(tmp_path)}
    assert local_model_files(source) == [
        tmp_path / "config.json",
        tmp_path / "a.safetensors",
        tmp_path / "b.safetensors",
    ]
    (tmp_path / "a.safetensors").unlink()
    (tmp_path / "b.safetensors").unlink()
    assert local_model_files(source) == [tmp_path / "config.json", tmp_path / "old.bin"]  # .bin without safetensors
    assert local_model_files({"type": "hf", "repo": "x/y"}) == []
