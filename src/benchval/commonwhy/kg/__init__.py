"""Knowledge-graph sources with one interface: a local pyoxigraph store or a remote SPARQL endpoint."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from benchval.commonwhy.kg.local import LocalSource
from benchval.commonwhy.kg.remote import RemoteSource
from benchval.commonwhy.kg.source import (
    EndpointError,
    EndpointUnreachable,
    KGQueryError,
    KGSource,
    Qualifier,
    QuerySyntaxError,
    QueryTimeoutError,
    Term,
    Triple,
)
from benchval.plumbing.config import section_defaults
from benchval.plumbing.folders import REPO_ROOT
from benchval.plumbing.config_error import unknown_name

SCHEMA_PATH = REPO_ROOT / "workflow" / "schemas" / "commonwhy.schema.yaml"


def _with_defaults(kg_config: Mapping) -> dict:
    """The ``commonwhy.kg`` block with its schema defaults (a remote block too, when given)."""
    return section_defaults("commonwhy", {"kg": kg_config})["kg"]


def remote_defaults() -> dict:
    """Defaults of ``commonwhy.kg.remote`` from its JSON schema (the one place they are written)."""
    return _with_defaults({"remote": {}})["remote"]


def open_source(kg_config: Mapping, store_path: Path | str | None = None, language: str = "en") -> KGSource:
    """Build the source named by the ``commonwhy.kg`` config block (``source: local | remote``)."""
    kg = _with_defaults(kg_config)
    if kg["source"] == "local":
        return LocalSource.open(store_path or kg["store"], language=language)
    if kg["source"] == "remote":
        remote = dict(kg.get("remote") or remote_defaults())
        endpoint = remote.pop("endpoint")
        return RemoteSource(endpoint, language=language, **remote)
    raise ValueError(
        "commonwhy.kg.source: "
        + unknown_name("source", kg["source"], ["local", "remote"], "workflow/schemas/commonwhy.schema.yaml")
    )


__all__ = [
    "KGSource",
    "LocalSource",
    "RemoteSource",
    "Term",
    "Triple",
    "Qualifier",
    "KGQueryError",
    "QuerySyntaxError",
    "QueryTimeoutError",
    "EndpointError",
    "EndpointUnreachable",
    "open_source",
    "remote_defaults",
]
