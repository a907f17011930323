"""LLM judge of answer correctness (CommonWhy §4.2) and the check of the judge itself.

An answer is correct when the judge says it is logically equivalent to at least one reference.
One judge call per (answer, reference). The prompt is a file with `$question`, `$reference` and
`$answer`. Two ways to read the verdict:

- ``logprob`` (local models): "Yes" wins when its first token is more probable than "No"'s as the
  next token after the prompt — no parsing, always a verdict;
- ``calibrated`` (local models): as ``logprob``, but the Yes-No margin must beat the margin the
  judge gives the same question and reference with the content-free answer "N/A" (the calibration
  of the `calibrated` scoring mode, Zhao et al. 2021); this removes a small model's constant lean
  towards one word;
- ``generate`` (any generator, e.g. an endpoint): greedy text, the first "yes"/"no" word decides;
  text with neither counts as "no" and is reported as unparsed.

The judge is checked on a labelled check set before its verdicts are used (:mod:`.judge_check`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from benchval.generation.prompts import PromptTemplate, user
from benchval.plumbing.folders import MODELS_DIR

if TYPE_CHECKING:  # imported where used: a module that only reads verdicts never imports torch
    from benchval.scoring.next_token import NextTokenScorer

log = logging.getLogger(__name__)

JUDGE_PLACEHOLDERS = frozenset({"question", "reference", "answer"})
DECISIONS = ("logprob", "calibrated", "generate")
CONTENT_FREE_ANSWER = "N/A"
_VERDICT = re.compile(r"\b(yes|no)\b", re.IGNORECASE)


def parse_verdict(text: str) -> bool | None:
    """True for yes, False for no, None when the text holds neither word.

    A reply that is exactly ``1`` or ``0`` is read as the CommonWhy authors' evaluation script reads its
    GPT-4o judge (``config/prompts/commonwhy_judge_authors.txt`` asks for ONLY 1 or 0)."""
    if text.strip() in ("1", "0"):
        return text.strip() == "1"
    match = _VERDICT.search(text)
    return None if match is None else match.group(1).lower() == "yes"


class Judge:
    """Decides (question, reference, answer) triples with a generator."""

    def __init__(self, generator, template: PromptTemplate, decision: str = "logprob", max_new_tokens: int = 4):
        missing = JUDGE_PLACEHOLDERS - template.placeholders
        if missing:
            raise ValueError(f"{template.source}: judge prompt lacks {sorted('$' + m for m in missing)}")
        if decision not in DECISIONS:
            raise ValueError(f"judge decision must be one of {DECISIONS}, not {decision!r}")
        if decision != "generate" and not hasattr(generator, "first_token_choice"):
            raise ValueError(f"judge decision {decision!r} needs a local model; {generator.name} has no log-probs")
        self.generator, self.template, self.decision = generator, template, decision
        self.max_new_tokens = max_new_tokens
        # (question, reference, answer) -> Yes-No margin: each prompt is scored once per judge, so the
        # content-free margins are shared across answers and a second decision reuses the first's margins
        self._margins: dict[tuple[str, str, str], float] = {}
        # a local model: prompts sharing a question and reference are fed their common prefix once
        self.shared_prefixes = True
        self._scorer: NextTokenScorer | None = None

    def margins(self, triples: Sequence[tuple[str, str, str]]) -> list[float]:
        """log p(Yes) - log p(No) as the first answer token, per (question, reference, answer)."""
        missing = [t for t in dict.fromkeys(triples) if t not in self._margins]
        if missing:
            prompts = [user(self.template.fill(question=q, reference=r, answer=a)) for q, r, a in missing]
            scorer = self._prefix_scorer()
            if scorer is None:
                choices = self.generator.first_token_choice(prompts, ["Yes", "No"])
                self._margins.update(zip(missing, (c["Yes"] - c["No"] for c in choices)))
            else:
                self._margins.update(zip(missing, self._packed_margins(scorer, prompts, missing)))
        return [self._margins[t] for t in triples]

    def _prefix_scorer(self) -> NextTokenScorer | None:
        """The fast engine's next-token scorer over the generator's model, built once; None for a generator
        without a local model or a model the packed engine does not serve exactly (then one prompt a row)."""
        if self._scorer is None and self.shared_prefixes and hasattr(self.generator, "prompt_ids"):
            from benchval.scoring.engine import unsupported_reason  # noqa: PLC0415  (torch: local models only)
            from benchval.scoring.next_token import NextTokenScorer  # noqa: PLC0415

            reason = unsupported_reason(self.generator.model)
            if reason is None:
                device = str(self.generator.device)
                self._scorer = NextTokenScorer(self.generator.model, self.generator.tokenizer, device=device)
            else:
                log.info("judge prompts fed one a row, not packed: %s", reason)
                self.shared_prefixes = False
        return self._scorer

    def _packed_margins(self, scorer: NextTokenScorer, prompts: list, triples: list) -> list[float]:
        """Yes-No margins with the prompts of one (question, reference) packed behind their shared prefix;
        the token budget of a batch is the generator's batch size of the longest prompt."""
        ids = self.generator.prompt_ids(prompts)
        scorer.batch_tokens = self.generator.batch_size * max(len(p) for p in ids)
        keys = ["\x00".join((q, r)) for q, r, _ in triples]
        logprobs = scorer.next_token_logprobs(ids, self.generator.first_token_ids(["Yes", "No"]), keys)
        return [float(yes) - float(no) for yes, no in logprobs]

    def decide(self, triples: Sequence[tuple[str, str, str]]) -> list[dict]:
        """One verdict per (question, reference, answer): {'yes': bool, 'parsed': bool, 'raw': str}."""
        if not triples:
            return []
        if self.decision in ("logprob", "calibrated"):
            content_free = [(q, r, CONTENT_FREE_ANSWER) for q, r, _ in triples]
            if self.decision == "calibrated" and self._prefix_scorer() is not None:
                self.margins(list(triples) + content_free)  # one pass: the content-free prompts share prefixes
            margins = self.margins(triples)
            baselines = [0.0] * len(triples)
            if self.decision == "calibrated":
                baselines = self.margins(content_free)
            return [{"yes": m > b, "parsed": True, "raw": f"{m - b:+.3f}"} for m, b in zip(margins, baselines)]
        prompts = [user(self.template.fill(question=q, reference=r, answer=a)) for q, r, a in triples]
        texts = self.generator.generate(prompts, self.max_new_tokens)
        verdicts = [parse_verdict(t) for t in texts]
        return [{"yes": bool(v), "parsed": v is not None, "raw": t} for v, t in zip(verdicts, texts)]


def judge_answers(judge: Judge, questions: pd.DataFrame, answers: pd.DataFrame) -> pd.DataFrame:
    """id, correct (any reference judged equivalent), n_references, n_yes, n_unparsed for every answer."""
    merged = answers[["id", "answer"]].merge(
        questions[["id", "question", "references"]], on="id", how="left", validate="one_to_one"
    )
    if merged["question"].isna().any():
        raise KeyError(f"answers for unknown question ids: {merged.loc[merged['question'].isna(), 'id'].tolist()[:5]}")
    triples, owners = [], []
    for row in merged.itertuples(index=False):
        for reference in row.references:
            triples.append((row.question, reference, row.answer))
            owners.append(row.id)
    verdicts = pd.DataFrame(judge.decide(triples)).assign(id=owners)
    grouped = verdicts.groupby("id", sort=False).agg(
        n_references=("yes", "size"), n_yes=("yes", "sum"), n_unparsed=("parsed", lambda s: int((~s).sum()))
    )
    table = merged[["id"]].merge(grouped, on="id", how="left")
    table["correct"] = table["n_yes"] > 0
    return table[["id", "correct", "n_references", "n_yes", "n_unparsed"]]


def make_judge(
    system: str,
    settings: Mapping,
    models_config: Mapping,
    models_dir: str | Path = MODELS_DIR,
    decision: str | None = None,
) -> Judge:
    """The configured judge, loaded: its model (or endpoint), prompt and decision rule. `settings`: the stage's
    ``commonwhy_eval`` settings (stage_keys.JUDGE_KEYS)."""
    from benchval.generation.systems import make_generator  # noqa: PLC0415  (torch only when a judge is loaded)

    cfg = settings["judge"]
    generator = make_generator(system, settings, models_config, models_dir, batch_size=cfg["batch_size"])
    template = PromptTemplate.from_file(cfg["prompt"], required=JUDGE_PLACEHOLDERS)
    return Judge(generator, template, decision=decision or cfg["decision"])
