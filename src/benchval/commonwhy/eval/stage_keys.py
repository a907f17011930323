"""The ``commonwhy_eval:`` keys each CommonWhy evaluation rule reads, and the settings a stage may read.

A rule passes its stage only the keys listed here (:func:`stage_section`), so editing another key reruns
nothing of it (docs/workflow.md, "What reruns when"). The stage reads them through :func:`stage_settings`:
a rule that passes other keys than those listed, or a stage that reads a key it was not given, fails
loudly, naming the key, instead of silently using a default (the analysis chain's pattern,
benchval.analysis.chain.StepSettings). Rules pass the keys with the one helper,
``config_provider("commonwhy_eval", *STAGE_KEYS[stage])`` (benchval.jobs.rule_settings).

A key is a dotted path into the section: ``"generation"`` is the whole sub-section, ``"judge.prompt"``
one entry of it (benchval.plumbing.dotted_keys).
"""

from __future__ import annotations

from collections.abc import Mapping

from benchval.plumbing.dotted_keys import GuardedSettings, UndeclaredSetting, guarded, pick

__all__ = ["STAGE_KEYS", "UndeclaredSetting", "stage_section", "stage_settings"]

#: what make_generator (benchval.generation.systems) reads to load a model or an endpoint
GENERATOR_KEYS = ("endpoints", "generation.use_chat_template", "generation.batch_size")
_BERTSCORE = "metrics.bertscore."
#: what benchval.commonwhy.eval.metrics.BertScoreSettings.from_section reads
ENCODER_KEYS = tuple(_BERTSCORE + key for key in ("model_type", "num_layers", "batch_size", "rescale_with_baseline"))
_JUDGE_CHECK = "judge_check."
_DRAW_KEYS = tuple(_JUDGE_CHECK + k for k in ("n_shared_anchor", "n_constructed", "n_published", "max_per_family"))
#: the gate: benchval.commonwhy.eval.judge_check.gate_scores and judge_validity
GATE_KEYS = tuple(_JUDGE_CHECK + k for k in ("n_bootstrap", "ci_level", "floor", "bar", "min_pairs_per_type"))
#: the judge's model (its own batch size, so not generation.batch_size) and prompt: make_judge
JUDGE_KEYS = ("endpoints", "generation.use_chat_template", "judge.decision", "judge.prompt", "judge.batch_size")
_CLAIM_KEYS = tuple("factscore." + k for k in ("claims", "entities", "claim_system", "prompt", "entity_prompt"))
_BASELINE = "baselines."

STAGE_KEYS: dict[str, tuple[str, ...]] = {
    "encoder": tuple(_BERTSCORE + k for k in ("wheel", "wheel_sha256", "member_prefix")),
    "bertscore_baseline": (*ENCODER_KEYS, _BERTSCORE + "baseline"),
    "sample": (
        "sample.published",
        "sample.constructed",
        "sample.method",
        "sample.stratify_by",
        "sample.exclude_audited",
    ),
    # the evaluation answers and the check answers (one script): every generation key
    "answer": ("endpoints", "generation"),
    "kbbinder": (
        *GENERATOR_KEYS,
        *(
            _BASELINE + k
            for k in (
                "backbone",
                "sources",
                "kbbinder_mode",
                "kbbinder_prompt",
                "kbbinder_drafts",
                "kbbinder_authors_prompt",
                "kbbinder_authors_max_new_tokens",
                "kbbinder_answer_prompt",
                "max_new_tokens",
            )
        ),
    ),
    "kgr": (
        *GENERATOR_KEYS,
        *_CLAIM_KEYS,
        *(_BASELINE + k for k in ("backbone", "sources", "kgr_prompt", "max_new_tokens")),
    ),
    "score": ENCODER_KEYS,
    "check_questions": (*_DRAW_KEYS, _JUDGE_CHECK + "answer_limit"),
    "check_set": (*_DRAW_KEYS, *(_JUDGE_CHECK + k for k in ("n_other_rule", "evasive_answers", "min_pairs"))),
    "judge_canaries": (*GATE_KEYS, _JUDGE_CHECK + "canary_overlap_threshold"),
    "judge_check": (*JUDGE_KEYS, *GATE_KEYS),
    "judge": JUDGE_KEYS,
    "factscore": (*GENERATOR_KEYS, *_CLAIM_KEYS),
    "criterion": ("criterion.source", "criterion.min_questions"),
}


def stage_section(section: Mapping, stage: str) -> dict:
    """The part of the resolved ``commonwhy_eval`` `section` that `stage` reads: what its rule passes
    (``config_provider("commonwhy_eval", *STAGE_KEYS[stage])``, benchval.jobs.rule_settings)."""
    return pick(section, STAGE_KEYS[stage], "commonwhy_eval")


def _hint(stage: str):
    def hint(key: str) -> str:
        return (
            f"CommonWhy stage {stage!r} reads commonwhy_eval{key}, but its rule does not "
            f"pass that key: add it to STAGE_KEYS[{stage!r}] in benchval/commonwhy/eval/stage_keys.py"
        )

    return hint


def stage_settings(given: Mapping, stage: str) -> GuardedSettings:
    """The settings `given` to `stage` by its rule, checked against :data:`STAGE_KEYS`: a key too few or
    too many is an error naming it; reading an undeclared key raises :class:`UndeclaredSetting`."""
    try:
        return guarded(given, STAGE_KEYS[stage], _hint(stage))
    except ValueError as error:
        raise ValueError(
            f"CommonWhy stage {stage!r}: {error} (STAGE_KEYS[{stage!r}] in benchval/commonwhy/eval/stage_keys.py)"
        ) from None
