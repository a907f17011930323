"""Rules commonwhy_eval_kbbinder and commonwhy_eval_kgr: the KB-Binder-style and KGR-style baselines."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from benchval.commonwhy.eval.baselines import KGR, KBBinder, KBBinderAuthors
from benchval.commonwhy.eval.kg_claims import claim_reading
from benchval.commonwhy.eval.questions import read_questions
from benchval.commonwhy.eval.stage_keys import stage_settings
from benchval.commonwhy.eval.steps.commonwhy_eval_stage_io import open_kg, read_answers, write_answers
from benchval.generation.systems import make_generator
from benchval.generation.prompts import PromptTemplate
from benchval.plumbing.folders import MODELS_DIR

log = logging.getLogger(__name__)


def baseline_questions(table: pd.DataFrame, sources) -> pd.DataFrame:
    """The sampled questions of the sources the baselines answer (counts logged)."""
    kept = table[table["source"].isin(list(sources))].reset_index(drop=True)
    log.info("baselines answer %d of %d sampled questions (sources %s)", len(kept), len(table), list(sources))
    if kept.empty:
        raise ValueError(f"commonwhy_eval.baselines.sources {list(sources)}: no sampled question from these sources")
    return kept


@dataclass(frozen=True)
class BaselineRun:
    """What both baselines (KB-Binder, KGR) are given: their ``commonwhy_eval`` settings, the models (their
    backbone is one), the KG source and where their answers and timing go."""

    settings: Mapping
    models_config: Mapping
    kg_config: Mapping
    store: str | None
    out: str
    timing_out: str
    models_dir: str = MODELS_DIR

    @property
    def section(self) -> Mapping:
        return self.settings["baselines"]

    def questions_from(self, questions: str) -> pd.DataFrame:
        """The sampled questions (file `questions`) of the sources the baselines answer."""
        return baseline_questions(read_questions(questions), self.section["sources"])

    def backbone(self):
        return make_generator(self.section["backbone"], self.settings, self.models_config, self.models_dir)

    def kg(self):
        return open_kg(self.kg_config, self.store)

    def write(self, answers: pd.DataFrame, method: str, seconds: float, **counts) -> None:
        """Write the answers of baseline ``method`` (``seconds``: for all of them) and their timing file."""
        system = f"{method}-{self.section['backbone']}"
        answers.insert(1, "system", system)
        answers.insert(3, "seconds", seconds / max(len(answers), 1))
        write_answers(
            answers,
            self.out,
            self.timing_out,
            system=system,
            n_questions=len(answers),
            seconds_this_run=round(seconds, 2),
            **counts,
        )


def stage_kbbinder(
    questions: str,
    settings: Mapping,
    models_config: Mapping,
    kg_config: Mapping,
    store: str | None,
    out: str,
    timing_out: str,
) -> None:
    """KB-Binder (``baselines.kbbinder_mode``): ``votes`` (drafts voted on) or ``authors`` (the shape of the
    CommonWhy authors' script: one call writes sub-questions with their SPARQL queries)."""
    job = BaselineRun(stage_settings(settings, "kbbinder"), models_config, kg_config, store, out, timing_out)
    base = job.section
    table = job.questions_from(questions)
    generator = job.backbone()
    authors = base["kbbinder_mode"] == "authors"
    template = PromptTemplate.from_file(
        base["kbbinder_authors_prompt"] if authors else base["kbbinder_prompt"], required={"question"}
    )
    started = time.perf_counter()
    answer_template = PromptTemplate.from_file(base["kbbinder_answer_prompt"], required={"question", "facts"})
    binder = (KBBinderAuthors if authors else KBBinder)(
        generator,
        template,
        job.kg(),
        max_new_tokens=base["kbbinder_authors_max_new_tokens"] if authors else base["max_new_tokens"],
        answer_template=answer_template,
        n_drafts=1 if authors else base["kbbinder_drafts"],
    )
    answers = binder.answer(list(table["id"]), list(table["question"]))
    job.write(
        answers,
        "kbbinder",
        time.perf_counter() - started,
        status=answers["status"].value_counts().to_dict(),
        mode=base["kbbinder_mode"],
        n_drafts=int(answers["n_drafts"].sum()),
        n_distinct_drafts=int(answers["n_distinct_drafts"].sum()),
        n_parsed=int(answers["n_parsed"].sum()),
        n_bound=int(answers["n_bound"].sum()),
        n_drafts_with_facts=int(answers["n_with_facts"].sum()),
        n_questions_with_facts=int(answers["facts"].astype(bool).sum()),
    )


def stage_kgr(
    questions: str,
    drafts: str,
    settings: Mapping,
    models_config: Mapping,
    kg_config: Mapping,
    store: str | None,
    out: str,
    timing_out: str,
) -> None:
    """KGR: the backbone's own answers (`drafts`) revised claim by claim against the KG."""
    job = BaselineRun(stage_settings(settings, "kgr"), models_config, kg_config, store, out, timing_out)
    table = job.questions_from(questions).merge(read_answers(drafts)[["id", "answer"]], on="id", validate="one_to_one")
    generator = job.backbone()
    template = PromptTemplate.from_file(job.section["kgr_prompt"], required={"question", "claim", "facts"})
    started = time.perf_counter()
    reading = job.settings["factscore"]  # claims and entities by the LLM, as the authors' KGR does, or by rule
    splitter, entity_spans = claim_reading(
        reading, lambda: make_generator(reading["claim_system"], job.settings, job.models_config, job.models_dir)
    )
    kgr = KGR(
        generator,
        template,
        job.kg(),
        max_new_tokens=job.section["max_new_tokens"],
        splitter=splitter,
        entity_spans=entity_spans,
    )
    answers = kgr.answer(list(table["id"]), list(table["question"]), list(table["answer"]))
    job.write(
        answers,
        "kgr",
        time.perf_counter() - started,
        n_drafts_revision_asked=int(answers["revision_asked"].sum()),
        n_claims=int(answers["n_claims"].sum()),
        n_claims_revision_asked=int(answers["n_revision_asked"].sum()),
        n_claims_revised=int(answers["n_revised"].sum()),
        n_changed=int(answers["revised"].sum()),
    )
