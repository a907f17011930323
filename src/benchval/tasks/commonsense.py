"""What the commonsense adapters of "Benchmarking the Benchmarks" (Table 1) share: label maps, the labelled
rows, the WinoGrande blank, the HellaSwag item (GoldenSwag's too), the Social IQA adapter (registered by the
socialiqa and socialiqa_filtered folders), the PIQA prompt and the PIQA-RUP columns. Each adapter is its task
folder's adapter.py (src/benchval/tasks/catalogue/<task>/), whose README.md describes its prompt format and
filters.
Item ids are ``{task}[-{split}]-{n:05d}`` with ``n`` = ``source_row``: the 1-based line of a
JSON Lines file, or the 1-based data row of a CSV file (header excluded; errors name the physical line).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Mapping, Sequence

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError
from benchval.tasks.options import check_options, choice
from benchval.tasks.rawfiles import Row, parse_label, read_jsonl, read_label_lines

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


def load_hub_rows(hub_id: str, split: str) -> list[dict]:
    """Rows of a Hugging Face Hub dataset split; :class:`TaskUnavailable`-worthy errors propagate
    as ImportError/OSError (``datasets`` raises ConnectionError, an OSError, when offline)."""
    import datasets  # noqa: PLC0415  (optional dependency, only needed here)

    return [dict(row) for row in datasets.load_dataset(hub_id, split=split)]


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
