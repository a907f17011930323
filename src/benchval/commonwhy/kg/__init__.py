"""Knowledge-graph sources with one interface: a local pyoxigraph store or a remote SPARQL endpoint."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Mapping

import yaml

from benchval.commonwhy.kg.local import LocalSource
from benchval.commonwhy.kg.remote import RemoteSource
from benchval.commonwhy.kg.source import (EndpointError, EndpointUnreachable, KGQueryError, KGSource, Qualifier, QuerySyntaxError,
                                           QueryTimeoutError, Term, Triple)


from benchval.paths import REPO_ROOT

SCHEMA_PATH = REPO_ROOT / "workflow" / "schemas" / "commonwhy.schema.yaml"


@lru_cache(maxsize=1)
def remote_defaults() -> dict:
    """Defaults of ``commonwhy.kg.remote`` from its JSON schema (the one place they are written)."""
    schema = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))
    properties = schema["properties"]["kg"]["properties"]["remote"]["properties"]
    return {name: spec["default"] for name, spec in properties.items() if "default" in spec}


def open_source(kg_config: Mapping, store_path: Path | str | None = None, language: str = "en") -> KGSource:
    """Build the source named by the ``commonwhy.kg`` config block (``source: local | remote``)."""
    kind = kg_config.get("source", "local")
    if kind == "local":
        return LocalSource.open(store_path or kg_config["store"], language=language)
    if kind == "remote":
        remote = {**remote_defaults(), **(kg_config.get("remote") or {})}
        endpoint = remote.pop("endpoint")
        return RemoteSource(endpoint, language=language, **remote)
    raise ValueError(f"commonwhy.kg.source: unknown source {kind!r} (local or remote)")


__all__ = ["KGSource", "LocalSource", "RemoteSource", "Term", "Triple", "Qualifier", "KGQueryError",
           "QuerySyntaxError", "QueryTimeoutError", "EndpointError", "EndpointUnreachable", "open_source",
           "remote_defaults"]
