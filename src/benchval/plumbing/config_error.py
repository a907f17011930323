"""The error of a bad configuration: its message names the offending key (docs/configuration.md, "Start-up errors");
and the message of a name no registry holds, with the closest one (:func:`unknown_name`)."""

from __future__ import annotations

import difflib
from typing import Iterable


class ConfigError(ValueError):
    """A configuration problem; the message names the offending key."""


def unknown_name(kind: str, name: object, known: Iterable[object], registry: str) -> str:
    """``unknown <kind> 'name'; did you mean 'closest'? (<registry>: every known name)``: the closest known
    name by :func:`difflib.get_close_matches` (none when nothing is close), and the registry that holds
    the names, so that a misspelt name says where the right one is written."""
    names = sorted(str(each) for each in known)
    close = difflib.get_close_matches(str(name), names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown {kind} {str(name)!r}{hint} ({registry}: {', '.join(names) or 'none'})"
