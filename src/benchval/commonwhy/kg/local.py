"""A KG source backed by a pyoxigraph store on disk (e.g. LitWD1K converted by :mod:`..rdf_convert`)."""

from __future__ import annotations

import re
from pathlib import Path

import pyoxigraph as ox

from benchval.commonwhy.kg.source import KGSource, QuerySyntaxError, Term
from benchval.commonwhy.wdqs_dialect import to_standard_sparql

RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"


def to_term(node) -> Term:
    """pyoxigraph term -> :class:`Term`."""
    if isinstance(node, ox.NamedNode):
        return Term(node.value, "iri")
    if isinstance(node, ox.BlankNode):
        return Term(node.value, "bnode")
    if isinstance(node, ox.Literal):
        if node.language:
            return Term(node.value, "literal", None, node.language)
        datatype = node.datatype.value if node.datatype is not None else None
        return Term(node.value, "literal", None if datatype == RDF_LANG_STRING else datatype, None)
    raise TypeError(f"unsupported RDF term {node!r}")


def _with_offending_line(message: str, text: str) -> str:
    """Add the offending line to pyoxigraph's 'error at LINE:COL' (lines count added PREFIX lines)."""
    found = re.search(r"at (\d+):(\d+)", message)
    lines = text.splitlines()
    if found and 0 < int(found.group(1)) <= len(lines):
        return f"{message} (in {lines[int(found.group(1)) - 1].strip()[:80]!r})"
    return message


class LocalSource(KGSource):
    """Queries run on a pyoxigraph :class:`~pyoxigraph.Store`; WDQS text is translated first."""

    def __init__(self, store: ox.Store, name: str = "local", language: str = "en"):
        self.store, self.name, self.language = store, name, language

    @classmethod
    def open(cls, path: Path | str, name: str | None = None, language: str = "en") -> "LocalSource":
        """Open a store directory read-only (several readers may share it)."""
        path = Path(path)
        if not path.is_dir():
            raise FileNotFoundError(f"no pyoxigraph store at {path} (build it with the kg_store rule)")
        return cls(ox.Store.read_only(str(path)), name or path.stem, language)

    def _run(self, sparql: str):
        text = to_standard_sparql(sparql, self.language)
        try:
            return self.store.query(text)
        except SyntaxError as error:
            raise QuerySyntaxError(_with_offending_line(str(error), text)) from error

    def _select(self, sparql: str) -> list[dict[str, Term]]:
        solutions = self._run(sparql)
        if not isinstance(solutions, ox.QuerySolutions):
            raise QuerySyntaxError("not a SELECT query")
        names = [variable.value for variable in solutions.variables]
        rows = []
        for solution in solutions:
            row = {}
            for name in names:
                node = solution[name]
                if node is not None:
                    row[name] = to_term(node)
            rows.append(row)
        return rows

    def _ask(self, sparql: str) -> bool:
        answer = self._run(sparql)
        if not isinstance(answer, ox.QueryBoolean):
            raise QuerySyntaxError("not an ASK query")
        return bool(answer)
