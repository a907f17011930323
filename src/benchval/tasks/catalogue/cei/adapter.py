"""CEI, Contextual Emotional Inference (Chun et al., 2026): social axis, mode ``calibrated``.

Each scenario (situation, speaker/listener roles, the speaker's utterance) becomes the context;
the options are one answer statement per emotion label, built from ``answer_template`` and
``label_words`` (e.g. " The speaker feels angry."), in the fixed order of ``labels``. The scorer
adds one "N/A" prior request per distinct statement (the paper's Eq. 1).

Filter ``ambiguous_labels`` (paper: "CEI examples with ambiguous labels were removed"): a
scenario is kept only if its ``annotator_agreement`` (share of the 3 raters who chose the gold
emotion) is at least ``min_agreement``; the default 1.0 keeps unanimous scenarios only.
Scenarios without context or utterance are dropped as ``missing_text``. A gold emotion outside
``labels`` or a missing/non-numeric agreement is a :class:`TaskDataError`.

Options: ``labels``, ``label_words``, ``answer_template``, ``context_template``, ``min_agreement``.
"""

from __future__ import annotations

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register, source
from benchval.tasks.downstream.common import answer_statements
from benchval.tasks.options import check_options, option
from benchval.tasks.rawfiles import read_json

DEFAULT_CONTEXT = '{context}\nThe {speaker_role} says to the {listener_role}: "{utterance}"'


def scenarios(path) -> list[tuple[int, dict]]:
    """(1-based position, scenario) pairs from ``cei_benchmark.json``."""
    document = read_json(path)
    if not isinstance(document, dict) or not isinstance(document.get("scenarios"), list):
        raise TaskDataError(path, "scenarios", "expected an object with a 'scenarios' list")
    return list(enumerate(document["scenarios"], start=1))


def gold(path, position: int, scenario: dict, labels: list[str]) -> tuple[str, float]:
    """The gold emotion and the annotator agreement of one scenario."""
    where = f"scenarios[{position - 1}] ({scenario.get('scenario_id')})"
    truth = scenario.get("ground_truth")
    if not isinstance(truth, dict):
        raise TaskDataError(path, where, "missing ground_truth")
    emotion = str(truth.get("emotion", "")).strip().lower()
    if emotion not in labels:
        raise TaskDataError(path, where, f"emotion {truth.get('emotion')!r} is not one of {labels}")
    agreement = truth.get("annotator_agreement")
    if not isinstance(agreement, (int, float)) or not 0 <= agreement <= 1:
        raise TaskDataError(path, where, f"annotator_agreement must be a number in [0, 1], got {agreement!r}")
    return emotion, float(agreement)


def missing_text(scenario: dict) -> str | None:
    fields = ("scenario_id", "context", "utterance", "speaker_role", "listener_role")
    return "missing_text" if any(not str(scenario.get(key) or "").strip() for key in fields) else None


def cei_item(position: int, scenario: dict, label: int, template: str, statements: list[str]) -> Item:
    context = template
    for key in ("context", "utterance", "speaker_role", "listener_role"):
        context = context.replace("{" + key + "}", " ".join(str(scenario[key]).split()))
    return Item(
        id=f"cei-{scenario['scenario_id']}",
        context=context.rstrip(),
        options=statements,
        label=label,
        source_row=position,
    )


@register("cei")
def cei(inp: AdapterInput, report: FilterReport) -> list[Item]:
    check_options(inp, ["labels", "label_words", "answer_template", "context_template", "min_agreement"])
    labels = [str(label) for label in option(inp, "labels")]
    statements = answer_statements(labels, option(inp, "answer_template"), option(inp, "label_words", {}))
    template = option(inp, "context_template", DEFAULT_CONTEXT)
    min_agreement = float(option(inp, "min_agreement", 1.0))
    path = inp.file("scenarios")
    rows = scenarios(path)
    where = lambda row: source(path, id=row[1].get("scenario_id"), position=row[0])  # noqa: E731
    report.record("read", len(rows), len(rows), {})
    rows = report.apply("missing_text", rows, lambda row: missing_text(row[1]), source_of=where)
    graded = [(position, scenario, *gold(path, position, scenario, labels)) for position, scenario in rows]
    graded = report.apply(
        "ambiguous_labels",
        graded,
        lambda row: None if row[3] >= min_agreement - 1e-6 else f"agreement<{min_agreement:g}",
        source_of=where,
    )
    return [cei_item(pos, scen, labels.index(emotion), template, statements) for pos, scen, emotion, _ in graded]
