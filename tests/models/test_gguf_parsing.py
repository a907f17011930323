"""benchval.models.gguf.parse_each_gguf_once: one parse per file while transformers loads it."""

from __future__ import annotations

import gguf
import numpy as np

from benchval.models.gguf import parse_each_gguf_once


def write_tiny_gguf(path) -> None:
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_block_count(1)
    writer.add_tensor("token_embd.weight", np.arange(12, dtype=np.float32).reshape(3, 4))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def test_the_same_file_is_parsed_once_and_the_originals_come_back(tmp_path):
    path = tmp_path / "tiny.gguf"
    write_tiny_gguf(path)
    reader_class, name_map = gguf.GGUFReader, gguf.get_tensor_name_map

    with parse_each_gguf_once():
        first, second = gguf.GGUFReader(str(path)), gguf.GGUFReader(str(path))
        assert first is second
        assert gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 1) is gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 1)
        np.testing.assert_array_equal(first.tensors[0].data, np.arange(12, dtype=np.float32).reshape(3, 4))

    assert gguf.GGUFReader is reader_class and gguf.get_tensor_name_map is name_map
    assert gguf.GGUFReader(str(path)) is not gguf.GGUFReader(str(path))
