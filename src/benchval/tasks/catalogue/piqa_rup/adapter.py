"""The adapter ``piqa_rup``: RUPBench's perturbed PIQA, its perturbation choice and the repair of the
solutions the CSV lost (README.md beside this file)."""

from __future__ import annotations

from pathlib import Path

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.base import source as source_ref
from benchval.tasks.commonsense import (
    PIQA_PROMPT,
    PIQA_RUP_COLUMNS,
    PIQA_RUP_COMBINE,
    PIQA_RUP_PARAPHRASE_LIKE,
    SPREADSHEET_ERROR,
    ZERO_BASED_TWO,
    answer_text,
)
from benchval.tasks.options import check_options, choice, option
from benchval.tasks.rawfiles import Row, parse_label, read_csv, read_jsonl
from benchval.tasks.seeding import task_rng


def unquote(text: str) -> str:
    """Remove one pair of matching surrounding quotes (the red-herring column wraps most goals)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1].strip()
    return text


def goal_problem(goal: str) -> str | None:
    """Why a perturbed goal cannot be used (it cannot be repaired: the perturbation's text is lost)."""
    if goal.strip() == SPREADSHEET_ERROR:
        return "perturbed goal corrupted in the CSV ('#NAME?')"
    if not goal.strip():
        return "perturbed goal empty"
    return None


def piqa_rup_options(source: AdapterInput) -> tuple[list[str], str]:
    """The checked ``perturbations`` and ``combine`` options of a PIQA-RUP task (``changed_goals_only``
    is read by :func:`piqa_rup`)."""
    check_options(source, ["perturbations", "combine", "changed_goals_only"])
    columns = list(option(source, "perturbations", None) or PIQA_RUP_PARAPHRASE_LIKE)
    unknown = sorted(set(columns) - set(PIQA_RUP_COLUMNS))
    if unknown or len(set(columns)) != len(columns):
        raise ValueError(f"task {source.task!r}: options.perturbations {columns}: each once, among {PIQA_RUP_COLUMNS}")
    return columns, choice(source, "combine", PIQA_RUP_COMBINE, "random_per_item")


def repair_solutions(rows: list[Row], rup_path: Path, piqa_path: Path) -> list[tuple[int, str]]:
    """Replace solutions corrupted to '#NAME?' by those of the row-aligned PIQA valid.jsonl (in place);
    return (line, what) of every repaired row.

    RUPBench did not perturb the solutions, so PIQA's are the original text. The two files must be
    row-aligned: the same number of rows and, on every row, the same goal (else TaskDataError).
    """
    piqa_rows = read_jsonl(piqa_path)
    if len(piqa_rows) != len(rows):
        raise TaskDataError(
            piqa_path, None, f"{len(piqa_rows)} rows but {rup_path.name} has {len(rows)}: not row-aligned"
        )
    repaired = []
    for row, piqa_row in zip(rows, piqa_rows):
        goal, sol1, sol2 = piqa_row.strings("goal", "sol1", "sol2")
        if row.data["goal"].strip() != goal.strip():
            raise TaskDataError(
                rup_path,
                row.line,
                f"goal {row.data['goal']!r} differs from {piqa_path.name} line "
                f"{piqa_row.line} ({goal!r}): the files are not row-aligned",
            )
        corrupted = [key for key in ("sol1", "sol2") if row.data[key].strip() == SPREADSHEET_ERROR]
        for key in corrupted:
            row.data[key] = {"sol1": sol1, "sol2": sol2}[key]
        if corrupted:
            repaired.append(
                (row.line, f"{', '.join(corrupted)} '#NAME?' taken from {piqa_path.name} line {piqa_row.line}")
            )
    return repaired


def unused_corrupt_goals(rows: list[Row], used: set[tuple[int, str]]) -> list[tuple[int, str]]:
    """(line, what) of the unusable perturbed goals that no item of this task uses (``used``: (line, column))."""
    return [
        (row.line, f"{column}: {goal_problem(row.data[column])}")
        for row in rows
        for column in PIQA_RUP_COLUMNS
        if (row.line, column) not in used and goal_problem(row.data[column])
    ]


@register("piqa_rup")
def piqa_rup(source: AdapterInput, report: FilterReport) -> list[Item]:
    """PIQA-RUP (``data`` = PIQA_RUP.csv, ``piqa`` = PIQA's valid.jsonl): PIQA validation with perturbed goals.

    Options: ``perturbations`` (goal_* columns; default :data:`PIQA_RUP_PARAPHRASE_LIKE`) and
    ``combine`` (``random_per_item``: each row uses one of them, drawn with the seed; ``stack``: one
    item per row and column). Solutions corrupted to '#NAME?' are repaired from ``piqa`` (step
    ``repaired_solutions``, which counts items, so ``n_raw`` is the number of items built); items whose perturbed goal
    is '#NAME?' or empty are dropped (step
    ``corrupted_rows``). docs/tasks.md states the rules.
    """
    columns, combine = piqa_rup_options(source)
    path = source.file("data")
    rows = read_csv(path, ["goal", "sol1", "sol2", "answer", *PIQA_RUP_COLUMNS])
    repaired = repair_solutions(rows, path, source.file("piqa"))
    # a variant <task>__<value> draws as its task does, so that it holds the same rewrite per row
    rng = task_rng(source.seed, source.task.partition("__")[0], "perturbation")
    items, problems, lines, used, unchanged, same_goal = [], {}, {}, set(), 0, {}
    for row_number, row in enumerate(rows, start=1):
        cells, line = row.data, row.line
        label = parse_label(cells["answer"], ZERO_BASED_TWO, path, line)
        chosen = columns if combine == "stack" else [columns[int(rng.integers(len(columns)))]]
        for column in chosen:
            goal = unquote(cells[column])
            item = Item(
                f"{source.task}-{row_number:05d}-{column}",
                PIQA_PROMPT.format(goal=goal),
                [answer_text(cells["sol1"]), answer_text(cells["sol2"])],
                label,
                row_number,
            )
            items.append(item)
            problems[item.id], lines[item.id] = goal_problem(cells[column]), line
            same_goal[item.id] = goal == unquote(cells["goal"])
            used.add((line, column))
            unchanged += same_goal[item.id]
    report.record("repaired_solutions", len(items), len(items), {}, changed=_repairs(path, repaired))
    report.note(
        f"perturbations {columns}, combined by {combine}; surrounding quotes removed from perturbed goals; "
        f"{unchanged} of {len(items)} perturbed goals are identical to the PIQA goal"
    )
    kept = report.apply(
        "corrupted_rows",
        items,
        lambda item: problems[item.id],
        source_of=lambda item: source_ref(path, lines[item.id], item.id),
    )
    if option(source, "changed_goals_only", False):
        # the revision as a revision: only the rows whose perturbed goal differs from PIQA's
        kept = report.apply(
            "unchanged_goals",
            kept,
            lambda item: "perturbed goal identical to the PIQA goal" if same_goal[item.id] else None,
            source_of=lambda item: source_ref(path, lines[item.id], item.id),
        )
    _note_unused_corrupt_goals(report, unused_corrupt_goals(rows, used), path)
    return kept


def _repairs(path, repaired) -> list[tuple[str, str]]:
    """(source reference, what was repaired) of each repaired solution: a repair removes nothing."""
    return [(source_ref(path, line), what) for line, what in repaired]


def _note_unused_corrupt_goals(report: FilterReport, unused: list, path) -> None:
    """Note the corrupted goal cells that no item of this task used (so nothing was removed for them)."""
    if unused:
        shown = "; ".join(f"line {line} ({what})" for line, what in unused)
        report.note(
            f"corrupted_rows (cells no item of this task uses): did not need to remove {len(unused)} "
            f"row(s) of {path.name}: {shown}"
        )
