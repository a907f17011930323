"""Adapters for the commonsense benchmarks of "Benchmarking the Benchmarks" (Table 1), and what they share.

Each is registered under its task's name by its task folder's adapter.py (src/benchval/tasks/catalogue/<task>/:
winogrande, winowhat, hellaswag, goldenswag, socialiqa, socialiqa_filtered, piqa, piqa_rup), whose README.md
describes its prompt format and filters.
Item ids are ``{task}[-{split}]-{n:05d}`` with ``n`` = ``source_row``: the 1-based line of a
JSON Lines file, or the 1-based data row of a CSV file (header excluded; errors name the physical line).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Mapping, Sequence

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, TaskUnavailable
from benchval.tasks.base import source as source_ref
from benchval.tasks.options import check_options, choice, option
from benchval.tasks.rawfiles import Row, parse_label, read_csv, read_jsonl, read_label_lines
from benchval.tasks.seeding import task_rng

ONE_BASED_TWO = {"1": 0, "2": 1}
ONE_BASED_THREE = {"1": 0, "2": 1, "3": 2}
ZERO_BASED_TWO = {"0": 0, "1": 1}
ZERO_BASED_FOUR = {"0": 0, "1": 1, "2": 2, "3": 3}
SPREADSHEET_ERROR = "#NAME?"


def answer_text(value: str) -> str:
    """An answer option as appended to the context: one leading space, no surrounding whitespace."""
    return " " + value.strip()


def labelled_rows(source: AdapterInput, labels: Mapping[str, int]) -> list[tuple[Row, int]]:
    """The rows of the ``data`` JSON Lines file, each with its 0-based label from the ``labels`` file
    (one raw label a line, mapped by ``labels``; the two files must have as many lines)."""
    data_path, label_path = source.file("data"), source.file("labels")
    rows = read_jsonl(data_path)
    raw_labels = read_label_lines(label_path, len(rows), data_path)
    return [(row, parse_label(raw, labels, label_path, row.line)) for row, raw in zip(rows, raw_labels)]


# --------------------------------------------------------------------------- WinoGrande / WinoWhat


def split_blank(sentence: str, path: Path | str, line: int) -> tuple[str, str, str, bool]:
    """``(context, gap, rest, repaired)`` of a sentence with exactly one ``_`` blank.

    ``context`` is the text before the blank without trailing spaces; ``gap`` is " " when any
    whitespace separated it from the blank ("" at the sentence start); ``rest`` is the text after the
    blank with its leading whitespace collapsed to one space (as lm-eval's ``" " + rest.strip()``)
    and no trailing whitespace, so ``context + gap + filler + rest`` is the filled sentence. A blank
    glued to a preceding word (``is_.``) also gets a one-space gap; ``repaired`` says so.
    """
    if sentence.count("_") != 1:
        raise TaskDataError(path, line, f"expected exactly one '_' blank, found {sentence.count('_')}: {sentence!r}")
    before, after = sentence.split("_")
    context = before.rstrip()
    repaired = bool(context) and before == context and context[-1].isalnum()
    gap = " " if (before != context or repaired) else ""
    rest = (" " + after.strip()) if after[:1].isspace() and after.strip() else after.rstrip()
    return context, gap, rest, repaired


def blank_item(
    item_id: str, sentence: str, fillers: Sequence[str], label: int, mode: str, path: Path, line: int
) -> tuple[Item, bool]:
    """A WinoGrande-style item in ``partial`` mode (options = fillers, target = the shared rest of
    the sentence) or ``mc`` mode (options = filler + rest, the blank being at the sentence end)."""
    context, gap, rest, repaired = split_blank(sentence, path, line)
    fillers = [filler.strip() for filler in fillers]
    if mode == "partial":
        item = Item(item_id, context, [gap + filler for filler in fillers], label, line, target=rest)
    else:
        item = Item(item_id, context, [gap + filler + rest for filler in fillers], label, line)
    return item, repaired


def note_repairs(report: FilterReport, repaired: int, path: Path) -> None:
    if repaired:
        report.note(
            f"{repaired} sentence(s) in {path.name} had no space before the '_' blank (e.g. 'is_.'); "
            "one space was inserted between the context and the option"
        )


def winogrande(source: AdapterInput, report: FilterReport) -> list[Item]:
    """WinoGrande dev (``data`` = winogrande_dev.jsonl, ``labels`` = dev-labels.lst), partial scoring."""
    check_options(source, [])
    items, repaired = [], 0
    for row, label in labelled_rows(source, ONE_BASED_TWO):
        sentence, first, second = row.strings("sentence", "option1", "option2")
        if "answer" in row.data and parse_label(row.data["answer"], ONE_BASED_TWO, row.path, row.line) != label:
            raise TaskDataError(
                row.path,
                row.line,
                f"answer {row.data['answer']!r} disagrees with {source.file('labels').name} (label index {label})",
            )
        item, fixed = blank_item(
            f"{source.task}-dev-{row.line:05d}",
            sentence,
            [first, second],
            label,
            source.scoring_mode or "partial",
            row.path,
            row.line,
        )
        items.append(item)
        repaired += fixed
    note_repairs(report, repaired, source.file("data"))
    return items


WINOWHAT_OPTIONS = ("sentence_column", "only_in_original_experiment")


def winowhat(source: AdapterInput, report: FilterReport) -> list[Item]:
    """WinoWhat (``data`` = WinoWhat.csv): the paraphrase, whose blank is (nearly always) at the end.

    Scoring mode ``mc`` (default in the catalogue) scores filler + the rest of the sentence after
    the context; ``partial`` scores the shared rest (mostly just "."), and drops items with an
    empty rest. Options: ``sentence_column`` (``paraphrased_sentence``; ``sentence`` gives the
    original WinoGrande sentences of the same rows), ``only_in_original_experiment`` (true: keep
    rows flagged 1).
    """
    check_options(source, WINOWHAT_OPTIONS)
    column = str(option(source, "sentence_column", "paraphrased_sentence"))
    only_flagged = bool(option(source, "only_in_original_experiment", True))
    mode = source.scoring_mode or "mc"
    path = source.file("data")
    rows = read_csv(path, [column, "option1", "option2", "answer", "in_original_experiment"])
    items, flags, repaired = [], {}, 0
    for row_number, row in enumerate(rows, start=1):
        label = parse_label(row.data["answer"], ONE_BASED_TWO, path, row.line)
        flag = row.data["in_original_experiment"].strip()
        if flag not in ("0", "1"):
            raise TaskDataError(path, row.line, f"in_original_experiment {flag!r} is not 0 or 1")
        item, fixed = blank_item(
            f"{source.task}-{row_number:05d}",
            row.data[column],
            [row.data["option1"], row.data["option2"]],
            label,
            mode,
            path,
            row.line,
        )
        item.source_row = row_number
        items.append(item)
        flags[item.id], repaired = flag, repaired + fixed
    note_repairs(report, repaired, path)
    repeats = sum(count - 1 for count in Counter(row.data["sentence"] for row in rows).values() if count > 1)
    if repeats:
        report.note(f"{repeats} WinoGrande sentence(s) appear more than once with different paraphrases; all kept")
    if only_flagged:
        items = report.apply(
            "in_original_experiment",
            items,
            lambda item: None if flags[item.id] == "1" else "in_original_experiment = 0",
        )
    if mode == "partial":
        items = report.apply(
            "partial_target",
            items,
            lambda item: None if item.target else "blank at the very end: no shared continuation to score",
        )
    return items


# --------------------------------------------------------------------------- HellaSwag / GoldenSwag


def hellaswag_preprocess(text: str) -> str:
    """lm-evaluation-harness's HellaSwag cleanup: WikiHow ``[title]`` -> '. ', drop other
    bracketed markup, collapse double spaces."""
    text = text.strip()
    text = text.replace(" [title]", ". ")
    text = re.sub("\\[.*?\\]", "", text)
    return text.replace("  ", " ")


def hellaswag_item(item_id: str, row: Row) -> Item:
    """lm-eval's hellaswag doc: query = activity_label + ': ' + ctx_a + ' ' + ctx_b.capitalize()."""
    activity, ctx_a, ctx_b = row.strings("activity_label", "ctx_a", "ctx_b")
    endings = row.data.get("endings")
    if not isinstance(endings, list) or len(endings) != 4 or not all(isinstance(e, str) for e in endings):
        raise TaskDataError(row.path, row.line, f"field 'endings' should be a list of 4 strings, got {endings!r}")
    label = parse_label(row.field("label"), ZERO_BASED_FOUR, row.path, row.line)
    context = hellaswag_preprocess(activity + ": " + ctx_a + " " + ctx_b.capitalize()).rstrip()
    options = [" " + hellaswag_preprocess(ending) for ending in endings]
    if any(not opt.strip() for opt in options):
        raise TaskDataError(row.path, row.line, "an ending is empty after preprocessing")
    return Item(item_id, context, options, label, row.line)


def hellaswag(source: AdapterInput, report: FilterReport) -> list[Item]:
    """HellaSwag validation (``data`` = hellaswag_val.jsonl)."""
    check_options(source, [])
    return [hellaswag_item(f"{source.task}-val-{row.line:05d}", row) for row in read_jsonl(source.file("data"))]


def load_hub_rows(hub_id: str, split: str) -> list[dict]:
    """Rows of a Hugging Face Hub dataset split; :class:`TaskUnavailable`-worthy errors propagate
    as ImportError/OSError (``datasets`` raises ConnectionError, an OSError, when offline)."""
    import datasets  # noqa: PLC0415  (optional dependency, only needed here)

    return [dict(row) for row in datasets.load_dataset(hub_id, split=split)]


def goldenswag(source: AdapterInput, report: FilterReport) -> list[Item]:
    """GoldenSwag (Chizhov et al. 2025): Hugging Face dataset ``PleIAs/GoldenSwag`` only.

    Options: ``hub_id`` (PleIAs/GoldenSwag), ``split`` (validation). Without the ``datasets``
    library or the Hub, raises :class:`TaskUnavailable` (the workflow then records a skip).
    """
    check_options(source, ["hub_id", "split"])
    hub_id = str(option(source, "hub_id", "PleIAs/GoldenSwag"))
    split = str(option(source, "split", "validation"))
    try:
        rows = load_hub_rows(hub_id, split)
    except ImportError as error:
        raise TaskUnavailable(
            source.task, f"needs the Python package 'datasets' to load {hub_id} from the Hugging Face Hub ({error})"
        ) from error
    except OSError as error:
        raise TaskUnavailable(
            source.task,
            f"needs the Hugging Face Hub (dataset {hub_id}, split {split}), which is unreachable here: {error}",
        ) from error
    where = f"hf://datasets/{hub_id} ({split})"
    return [
        hellaswag_item(f"{source.task}-{split}-{index:05d}", Row(where, index, row))
        for index, row in enumerate(rows, start=1)
    ]


# --------------------------------------------------------------------------- Social IQA


SIQA_PROMPTS = {"lm_eval": "Q: {context} {question}\nA:", "plain": "{context} {question}"}


def socialiqa(source: AdapterInput, report: FilterReport) -> list[Item]:
    """Social IQA dev or its filtered subset (``data`` jsonl + ``labels`` with 1-based labels).

    Options: ``prompt`` (``lm_eval``: "Q: {context} {question}\\nA:"; ``plain``), ``duplicates``
    (``keep`` or ``drop``: drop rows repeating an earlier row's context, question and answers).
    """
    check_options(source, ["prompt", "duplicates"])
    prompt = SIQA_PROMPTS[choice(source, "prompt", list(SIQA_PROMPTS), "lm_eval")]
    duplicates = choice(source, "duplicates", ["keep", "drop"], "keep")
    items, keys = [], {}
    for row, label in labelled_rows(source, ONE_BASED_THREE):
        context, question, *answers = row.strings("context", "question", "answerA", "answerB", "answerC")
        text = prompt.format(context=context.strip(), question=question.strip())
        item = Item(f"{source.task}-dev-{row.line:05d}", text, [answer_text(a) for a in answers], label, row.line)
        items.append(item)
        keys[item.id] = (context, question, *answers)
    return duplicate_step(items, keys, duplicates, report)


def duplicate_step(items: list[Item], keys: Mapping[str, tuple], mode: str, report: FilterReport) -> list[Item]:
    """Find rows that repeat an earlier row exactly; report them, and drop them in ``drop`` mode."""
    first_label: dict[tuple, int] = {}
    reasons: dict[str, str] = {}
    for item in items:
        key = keys[item.id]
        if key in first_label:
            same = first_label[key] == item.label
            reasons[item.id] = "exact duplicate of an earlier row, " + ("same label" if same else "different label")
        else:
            first_label[key] = item.label
    counts = Counter(reasons.values())
    if reasons:
        report.note(f"{len(reasons)} row(s) repeat an earlier row exactly ({dict(counts)}); duplicates: {mode}")
    if mode == "keep":
        report.record("duplicates", len(items), len(items), {})
        return items
    return report.apply("duplicates", items, lambda item: reasons.get(item.id))


# --------------------------------------------------------------------------- PIQA / PIQA-RUP


PIQA_PROMPT = "Question: {goal}\nAnswer:"


def piqa(source: AdapterInput, report: FilterReport) -> list[Item]:
    """PIQA validation (``data`` = valid.jsonl, ``labels`` = valid-labels.lst, 0-based)."""
    check_options(source, [])
    items = []
    for row, label in labelled_rows(source, ZERO_BASED_TWO):
        goal, sol1, sol2 = row.strings("goal", "sol1", "sol2")
        items.append(
            Item(
                f"{source.task}-val-{row.line:05d}",
                PIQA_PROMPT.format(goal=goal.strip()),
                [answer_text(sol1), answer_text(sol2)],
                label,
                row.line,
            )
        )
    return items


PIQA_RUP_COLUMNS = (
    "goal_red_herrings",
    "goal_typos",
    "goal_HP",
    "goal_Leet",
    "goal_It_cleft",
    "goal_Wh_cleft",
    "goal_stress",
    "goal_checklist",
    "goal_comp",
)
#: RUPBench's meaning-preserving syntactic rewrites of the goal, the closest it has to the paper's
#: "Paraphrased" revision; the adapter's columns when ``perturbations`` is not given.
PIQA_RUP_PARAPHRASE_LIKE = ("goal_It_cleft", "goal_Wh_cleft")
PIQA_RUP_COMBINE = ("random_per_item", "stack")


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
    report.record(
        "repaired_solutions",
        len(items),
        len(items),
        {},  # a repair removes nothing
        changed=[(source_ref(path, line), what) for line, what in repaired],
    )
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
    unused = unused_corrupt_goals(rows, used)
    if unused:
        shown = "; ".join(f"line {line} ({what})" for line, what in unused)
        report.note(
            f"corrupted_rows (cells no item of this task uses): did not need to remove {len(unused)} "
            f"row(s) of {path.name}: {shown}"
        )
    return kept
