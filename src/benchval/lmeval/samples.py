"""One lm-evaluation-harness samples file (``--log_samples``) -> one row per scored request.

A ``multiple_choice`` record (lm-eval 0.4) holds ``doc_id``, ``target`` (the gold option's index, an
int or, from 0.4.5 on, its decimal string), ``arguments`` (per option ``[context, continuation]``,
or from 0.4.5 on ``{"gen_args_<i>": {"arg_0": context, "arg_1": continuation}}``), ``filtered_resps``
(per option ``[logprob_sum, is_greedy]``; strings such as ``"-5.86"`` and ``"False"`` from 0.4.5 on)
and ``doc_hash``. This project's own records (benchval.evaluation.lmeval_format) add a ``benchval``
object with token, character and byte counts and, for calibrated tasks, the N/A prior requests.

lm-eval 0.4.0-0.4.2 wrote the same records as one indented JSON array (in a ``.jsonl`` file); both
forms are read. Every malformed record fails naming the file and line (or record, in an array): a
line that is not JSON (e.g. truncated), a doc id seen twice, a log-likelihood that is not a number
(``"N/A"``, a boolean, null, NaN).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from benchval.lmeval.errors import LmEvalImportError

#: columns of :func:`read_samples`; n_tokens / n_chars / n_bytes are those the record logs (else missing)
SAMPLE_COLUMNS = [
    "doc_id",
    "target",
    "option_index",
    "kind",
    "context",
    "continuation",
    "logprob_sum",
    "is_greedy",
    "n_tokens",
    "n_chars",
    "n_bytes",
    "doc_hash",
    "line",
]


def _number(value, where: str) -> float:
    """A log-likelihood: a JSON number or its decimal string; never a boolean, "N/A", null or NaN."""
    if isinstance(value, bool) or value is None:
        raise LmEvalImportError(f"{where}: log-likelihood {value!r} is not a number")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise LmEvalImportError(f"{where}: log-likelihood {value!r} is not a number") from None
    if math.isnan(number):
        raise LmEvalImportError(f"{where}: log-likelihood is NaN")
    return number


def _flag(value, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("True", "False"):
        return value == "True"
    raise LmEvalImportError(f"{where}: greedy flag {value!r} is not a boolean")


def _arguments(record: dict, where: str) -> list[tuple[str, str]]:
    arguments = record.get("arguments")
    if isinstance(arguments, dict):  # lm-eval >= 0.4.5: {"gen_args_0": {"arg_0": ..., "arg_1": ...}}
        ordered = sorted(arguments.items(), key=lambda kv: int(kv[0].rsplit("_", 1)[-1]))
        arguments = [[value.get("arg_0"), value.get("arg_1")] for _, value in ordered]
    if not isinstance(arguments, list) or not all(
        isinstance(pair, list) and len(pair) >= 2 and all(isinstance(s, str) for s in pair[:2]) for pair in arguments
    ):
        raise LmEvalImportError(f"{where}: 'arguments' is not a list of [context, continuation] pairs")
    return [(pair[0], pair[1]) for pair in arguments]


def _responses(record: dict, n_options: int, where: str) -> list[tuple[float, bool]]:
    responses = record.get("filtered_resps", record.get("resps"))
    if not isinstance(responses, list) or len(responses) != n_options:
        raise LmEvalImportError(f"{where}: {n_options} arguments but responses {responses!r:.80}")
    pairs = []
    for index, response in enumerate(responses):
        if isinstance(response, list) and len(response) == 1 and isinstance(response[0], list):
            response = response[0]  # "resps" nests each response once more
        if not isinstance(response, list) or len(response) != 2:
            raise LmEvalImportError(f"{where}: response {index} {response!r} is not [loglikelihood, is_greedy]")
        pairs.append((_number(response[0], f"{where}: option {index}"), _flag(response[1], f"{where}: option {index}")))
    return pairs


def _target(record: dict, continuations: list[str], where: str) -> int:
    target = record.get("target")
    if isinstance(target, bool):
        raise LmEvalImportError(f"{where}: target {target!r} is not an option index")
    if isinstance(target, str) and target.strip().lstrip("-").isdigit():
        target = int(target)
    elif isinstance(target, str):
        stripped = [c.strip() for c in continuations]
        if target.strip() not in stripped:
            raise LmEvalImportError(f"{where}: target {target!r} is neither an option index nor an option")
        target = stripped.index(target.strip())
    if not isinstance(target, int) or not 0 <= target < len(continuations):
        raise LmEvalImportError(f"{where}: target {target!r} is not an option index (0..{len(continuations) - 1})")
    return target


def _lengths(extra: dict, n_options: int, where: str) -> dict[str, list]:
    lengths = {}
    for column in ("n_tokens", "n_chars", "n_bytes"):
        values = extra.get(column)
        if values is None:
            lengths[column] = [math.nan] * n_options
        elif not isinstance(values, list) or len(values) != n_options or any(isinstance(v, bool) for v in values):
            raise LmEvalImportError(f"{where}: benchval.{column} is not one count per option")
        else:
            lengths[column] = [int(v) for v in values]
    return lengths


def _rows(record: dict, where: str) -> list[dict]:
    arguments = _arguments(record, where)
    responses = _responses(record, len(arguments), where)
    target = _target(record, [c for _, c in arguments], where)
    extra = record.get("benchval") or {}
    requests = [("option", arguments, responses, _lengths(extra, len(arguments), where))]
    prior = extra.get("prior")
    if prior:
        prior_where = f"{where}: benchval.prior"
        prior_arguments = _arguments(prior, prior_where)
        requests.append(
            (
                "prior",
                prior_arguments,
                _responses(prior, len(arguments), prior_where),
                _lengths(prior, len(arguments), prior_where),
            )
        )
    rows = []
    for kind, pairs, scored, lengths in requests:
        for index, ((context, continuation), (logprob, greedy)) in enumerate(zip(pairs, scored)):
            rows.append(
                {
                    "doc_id": record["doc_id"],
                    "target": target,
                    "option_index": index,
                    "kind": kind,
                    "context": context,
                    "continuation": continuation,
                    "logprob_sum": logprob,
                    "is_greedy": greedy,
                    **{column: lengths[column][index] for column in lengths},
                    "doc_hash": record.get("doc_hash"),
                }
            )
    return rows


def _records(path: Path):
    """(where, record or JSON error) of each record: JSON Lines (0.4.3 on, this project) or, as
    lm-eval 0.4.0-0.4.2 wrote its ``.jsonl`` files, one indented JSON array of records."""
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as error:
            raise LmEvalImportError(f"{path}: line {error.lineno}: not valid JSON, truncated? ({error.msg})") from error
        for index, record in enumerate(records):
            yield f"{path}: record {index + 1}", record
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        try:
            yield where, json.loads(line)
        except json.JSONDecodeError as error:
            raise LmEvalImportError(f"{where}: not valid JSON, truncated? ({error.msg})") from error


def read_samples(path: str | Path) -> pd.DataFrame:
    """The rows (:data:`SAMPLE_COLUMNS`) of one samples file, in file order (``line``: the record's
    line in a JSON Lines file, its position in an early-0.4 JSON array)."""
    path = Path(path)
    rows: list[dict] = []
    seen: dict[object, str] = {}
    for where, record in _records(path):
        if not isinstance(record, dict) or "doc_id" not in record:
            raise LmEvalImportError(f"{where}: not a samples record (no 'doc_id')")
        doc_id = record["doc_id"]
        if isinstance(doc_id, bool) or not isinstance(doc_id, (int, str)):
            raise LmEvalImportError(f"{where}: doc_id {doc_id!r} is not an id")
        if record.get("filter", "none") != "none":
            raise LmEvalImportError(
                f"{where}: filter {record['filter']!r}: only multiple_choice records (filter 'none') are read"
            )
        if doc_id in seen:
            raise LmEvalImportError(f"{where}: doc_id {doc_id!r} seen twice (first at {seen[doc_id]})")
        seen[doc_id] = where.rsplit(": ", 1)[-1]
        line = int(where.rsplit(" ", 1)[-1])
        rows.extend({**row, "line": line} for row in _rows(record, where))
    if not rows:
        raise LmEvalImportError(f"{path}: no samples records")
    return pd.DataFrame.from_records(rows, columns=SAMPLE_COLUMNS)


#: columns of :func:`read_generations`
GENERATION_COLUMNS = ["doc_id", "target", "response", "logged", "doc_hash", "line"]


def read_generations(path: str | Path, filter_name: str, metric: str) -> pd.DataFrame:
    """The records of one ``generate_until`` samples file under the filter ``filter_name`` (:data:`GENERATION_COLUMNS`).

    A generative record holds ``target`` (the gold text), ``filtered_resps`` (the filtered answer:
    a list of one text), ``filter`` (one record per document and filter: ``none``, ``strict-match``,
    ...) and the item's value of each metric (``logged``: that of ``metric``). A record that is not
    of this form fails naming the file and line; a doc id seen twice under one filter too."""
    path = Path(path)
    rows: list[dict] = []
    seen: dict[object, str] = {}
    filters: set[str] = set()
    for where, record in _records(path):
        if not isinstance(record, dict) or "doc_id" not in record:
            raise LmEvalImportError(f"{where}: not a samples record (no 'doc_id')")
        filters.add(record.get("filter", "none"))
        if record.get("filter", "none") != filter_name:
            continue
        doc_id, target, response = record["doc_id"], record.get("target"), record.get("filtered_resps")
        if isinstance(response, list) and len(response) == 1:
            response = response[0]
        if not isinstance(target, str) or not isinstance(response, str):
            raise LmEvalImportError(
                f"{where}: target {target!r:.60} and filtered answer {response!r:.60} are not one text each "
                "(only single-answer generative tasks are read)"
            )
        logged = record.get(metric)
        if isinstance(logged, bool) or not isinstance(logged, (int, float)):
            raise LmEvalImportError(f"{where}: {metric} {logged!r} is not a number")
        if doc_id in seen:
            raise LmEvalImportError(f"{where}: doc_id {doc_id!r} seen twice (first at {seen[doc_id]})")
        seen[doc_id] = where.rsplit(": ", 1)[-1]
        rows.append(
            {
                "doc_id": doc_id,
                "target": target,
                "response": response,
                "logged": float(logged),
                "doc_hash": record.get("doc_hash"),
                "line": int(where.rsplit(" ", 1)[-1]),
            }
        )
    if not rows:
        raise LmEvalImportError(f"{path}: no records under filter {filter_name!r} (filters found: {sorted(filters)})")
    return pd.DataFrame.from_records(rows, columns=GENERATION_COLUMNS)
