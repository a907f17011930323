"""Rules commonwhy_eval_answer and commonwhy_eval_check_answer: one system answers every question (resumable)."""

from __future__ import annotations

import time
from collections.abc import Mapping

from benchval.commonwhy.eval.questions import read_questions
from benchval.commonwhy.eval.stage_keys import stage_settings
from benchval.commonwhy.eval.steps.commonwhy_eval_stage_io import ANSWER_COLUMNS, write_answers
from benchval.generation.systems import make_generator
from benchval.generation.prompts import PromptTemplate, user
from benchval.generation.runner import generate_resumable
from benchval.plumbing.folders import MODELS_DIR


def answer_messages(generator, contents: list[str], system: str | None) -> tuple[list, str]:
    """The answer conversations and how the system message (``generation.system``) reaches the model: as the
    chat template's system message (a model with a chat template), folded before the question in the user turn
    (a chat template that refuses the system role, e.g. Gemma's), or as plain text before the question (a
    model without a chat template; benchval.generation.prompts.plain_text)."""
    if not system:
        return [user(c) for c in contents], "none"
    if not getattr(generator, "chat", False):
        return [user(c, system) for c in contents], "plain text before the question (no chat template)"
    try:
        generator.render(user(contents[0] if contents else "", system))
    except Exception:  # noqa: BLE001 - jinja's TemplateError: the template has no system role
        return [user(f"{system}\n\n{c}") for c in contents], "before the question in the user turn (no system role)"
    return [user(c, system) for c in contents], "chat system message"


def stage_answer(
    questions: str,
    system: str,
    settings: Mapping,
    models_config: Mapping,
    out: str,
    checkpoint: str,
    timing_out: str,
    models_dir: str = MODELS_DIR,
) -> None:
    """Answer every question of `questions` with one system (resumable through `checkpoint`)."""
    settings = stage_settings(settings, "answer")
    table = read_questions(questions)
    generator = make_generator(system, settings, models_config, models_dir)
    gen = settings["generation"]
    template = PromptTemplate.from_file(gen["prompt"], required={"question"})
    prompts, rendering = answer_messages(
        generator, [template.fill(question=q) for q in table["question"]], gen["system"]
    )
    started = time.perf_counter()
    answers = generate_resumable(
        generator,
        list(table["id"]),
        prompts,
        checkpoint,
        gen["max_new_tokens"],
        batch_size=gen["batch_size"],
        settings={"prompt": template.text, "system": gen["system"], "chat": getattr(generator, "chat", None)},
        desc=f"answer {system}",
    )
    answers.insert(1, "system", system)
    write_answers(
        answers[ANSWER_COLUMNS],
        out,
        timing_out,
        system=system,
        n_questions=len(answers),
        seconds_this_run=round(time.perf_counter() - started, 2),
        seconds_per_question=round(float(answers["seconds"].mean()), 3),
        max_new_tokens=gen["max_new_tokens"],
        chat_template=getattr(generator, "chat", None),
        system_message=rendering,
        # an endpoint's requests, cached answers, tokens and cost in this run (benchval.generation.usage)
        endpoint_usage=generator.usage_summary() if hasattr(generator, "usage_summary") else None,
    )
