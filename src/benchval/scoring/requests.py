"""Items -> scoring requests, one table row per (context, continuation) to score.

The scoring modes are those of docs/data-contract.md, section 1:

- ``mc``: (context, options[i]), or (context, options[i] + target) where the item has a ``target``:
  a shared suffix (e.g. the rest of the sentence after a TimeDial mask) scored with each option in place;
- ``partial``: (context + options[i], target): the shared ending after the substituted option is scored;
- ``minimal_pair``: ("", options[i]); the scorer conditions an empty context on BOS (else EOS);
- ``calibrated``: (context, options[i]) plus, once per distinct option text over the whole task, a
  prior request (prior_context, option) with ``item_id = ""`` and ``option_index = -1``.
"""

from __future__ import annotations

import pandas as pd

from benchval.tasks.base import SCORING_MODES  # tasks.schema.yaml's enum
from benchval.plumbing.config_error import unknown_name

REQUEST_COLUMNS = ["request_id", "item_id", "option_index", "kind", "context", "continuation"]
ITEM_COLUMNS = ("id", "context", "options", "label")


class RequestError(ValueError):
    """An item that cannot be turned into requests; the message names the item and its source row."""


def _where(item) -> str:
    row = getattr(item, "source_row", None)
    return f"item {item.id!r}" + (f" (source_row {row})" if row is not None and not pd.isna(row) else "")


def _check_item(item, scoring_mode: str) -> list[str]:
    options = list(item.options) if item.options is not None else []
    if not options:
        raise RequestError(f"{_where(item)}: no options")
    for i, option in enumerate(options):
        if not isinstance(option, str) or option == "":
            raise RequestError(f"{_where(item)}: option {i} is empty or not a string: {option!r}")
    if not isinstance(item.context, str):
        raise RequestError(f"{_where(item)}: context is not a string: {item.context!r}")
    if item.context != item.context.rstrip():
        raise RequestError(f"{_where(item)}: context ends in whitespace (the space belongs to the option)")
    if scoring_mode == "minimal_pair" and item.context != "":
        raise RequestError(f"{_where(item)}: minimal_pair items need an empty context, got {item.context[:40]!r}")
    if scoring_mode == "partial":
        target = getattr(item, "target", None)
        if not isinstance(target, str) or target == "":
            raise RequestError(f"{_where(item)}: partial mode needs a non-empty target, got {target!r}")
    return options


def _suffix(item) -> str:
    """An ``mc`` item's shared suffix: its ``target`` when that is text, else ""."""
    target = getattr(item, "target", None)
    return target if isinstance(target, str) else ""


def _option_rows(item, scoring_mode: str, options: list[str]) -> list[dict]:
    rows = []
    for i, option in enumerate(options):
        if scoring_mode == "partial":
            context, continuation = item.context + option, item.target
        elif scoring_mode == "minimal_pair":
            context, continuation = "", option
        elif scoring_mode == "mc":
            context, continuation = item.context, option + _suffix(item)
        else:
            context, continuation = item.context, option
        rows.append(
            {
                "request_id": f"{item.id}#{i}",
                "item_id": str(item.id),
                "option_index": i,
                "kind": "option",
                "context": context,
                "continuation": continuation,
            }
        )
    return rows


def _prior_rows(option_texts: list[str], prior_context: str) -> list[dict]:
    distinct = list(dict.fromkeys(option_texts))  # first-appearance order
    return [
        {
            "request_id": f"prior#{k}",
            "item_id": "",
            "option_index": -1,
            "kind": "prior",
            "context": prior_context,
            "continuation": text,
        }
        for k, text in enumerate(distinct)
    ]


def build_requests(items: pd.DataFrame, scoring_mode: str, prior_context: str = "N/A") -> pd.DataFrame:
    """One row per (context, continuation) to score, in item order then option order (priors last).

    Columns: request_id (``"{item_id}#{i}"`` or ``"prior#{k}"``), item_id, option_index, kind
    (``option`` | ``prior``), context, continuation.
    """
    if scoring_mode not in SCORING_MODES:
        raise RequestError(unknown_name("scoring mode", scoring_mode, SCORING_MODES, "tasks.schema.yaml scoring_mode"))
    missing = [c for c in ITEM_COLUMNS if c not in items.columns]
    if missing:
        raise RequestError(f"items table lacks columns {missing} (has {list(items.columns)})")
    if items["id"].duplicated().any():
        dup = items.loc[items["id"].duplicated(), "id"].iloc[0]
        raise RequestError(f"items table: duplicate item id {dup!r}")
    if prior_context != prior_context.rstrip():
        raise RequestError(f"prior_context {prior_context!r} ends in whitespace")

    rows: list[dict] = []
    option_texts: list[str] = []
    for item in items.itertuples(index=False):
        options = _check_item(item, scoring_mode)
        rows.extend(_option_rows(item, scoring_mode, options))
        option_texts.extend(options)
    if scoring_mode == "calibrated":
        rows.extend(_prior_rows(option_texts, prior_context))
    out = pd.DataFrame(rows, columns=REQUEST_COLUMNS)
    return out.astype({"request_id": str, "item_id": str, "option_index": "int64", "kind": str})
