"""Knowledge-graph sources with one interface: a local pyoxigraph store or a remote SPARQL endpoint."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from benchval.commonwhy.kg.local import LocalSource
from benchval.commonwhy.kg.remote import RemoteSource
from benchval.commonwhy.kg.source import (EndpointError, KGQueryError, KGSource, Qualifier, QuerySyntaxError,
                                           QueryTimeoutError, Term, Triple)


def open_source(kg_config: Mapping, store_path: Path | str | None = None, language: str = "en") -> KGSource:
    """Build the source named by the ``commonwhy.kg`` config block (``source: local | remote``)."""
    kind = kg_config.get("source", "local")
    if kind == "local":
        return LocalSource.open(store_path or kg_config["store"], language=language)
    if kind == "remote":
        remote = dict(kg_config.get("remote", {}))
        endpoint = remote.pop("endpoint")
        return RemoteSource(endpoint, language=language, **remote)
    raise ValueError(f"commonwhy.kg.source: unknown source {kind!r} (local or remote)")


__all__ = ["KGSource", "LocalSource", "RemoteSource", "Term", "Triple", "Qualifier", "KGQueryError",
           "QuerySyntaxError", "QueryTimeoutError", "EndpointError", "open_source"]
