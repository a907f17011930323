"""Fixtures of the scoring tests (helpers live in scoring_fixtures.py, a uniquely named module)."""

import pytest
from scoring_fixtures import load, make_gemma, make_llama, make_tokenizer, save_model


@pytest.fixture(scope="session")
def model_dirs(tmp_path_factory) -> dict:
    """Folders with save_pretrained model + tokenizer, by name."""
    root = tmp_path_factory.mktemp("models")
    nobos, bos = make_tokenizer(False), make_tokenizer(True)
    return {
        "llama_nobos": save_model(make_llama(len(nobos)), nobos, root / "llama_nobos"),
        "llama_bos": save_model(make_llama(len(bos)), bos, root / "llama_bos"),
        "gemma_sliding": save_model(make_gemma(len(bos)), bos, root / "gemma_sliding"),
    }


@pytest.fixture(scope="session")
def loaded(model_dirs) -> dict:
    return {name: load(path) for name, path in model_dirs.items()}
