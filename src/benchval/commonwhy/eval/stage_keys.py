"""The ``commonwhy_eval:`` keys each CommonWhy evaluation rule reads, and the settings a stage may read.

A rule passes its stage only the keys listed here (:func:`stage_section`), so editing another key reruns
nothing of it (docs/workflow.md, "What reruns when"). The stage reads them through :func:`stage_settings`:
a rule that passes other keys than those listed, or a stage that reads a key it was not given, fails
loudly, naming the key, instead of silently using a default (the analysis chain's pattern,
benchval.analysis.chain.StepSettings).

A key is a dotted path into the section: ``"generation"`` is the whole sub-section, ``"judge.prompt"``
one entry of it. This module imports nothing: the rule file reads it at parse time.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

#: what make_generator (benchval.jobs.steps.shared.commonwhy_eval_systems) reads to load a model or an endpoint
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
    "criterion": ("criterion.source",),
}


class UndeclaredSetting(KeyError):
    """A stage read a ``commonwhy_eval`` key its rule does not pass."""

    def __str__(self) -> str:
        return str(self.args[0])


def _key_tree(keys) -> dict:
    """Dotted keys as a tree; ``True`` marks a key passed whole."""
    tree: dict = {}
    for key in keys:
        node = tree
        *parents, last = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = True
    return tree


def _pick(section: Mapping, tree: Mapping, where: str) -> dict:
    picked = {}
    for key, sub in tree.items():
        if key not in section:
            raise KeyError(f"commonwhy_eval{where}: no key {key!r} (declared in benchval/commonwhy/eval/stage_keys.py)")
        picked[key] = section[key] if sub is True else _pick(section[key], sub, f"{where}.{key}")
    return picked


def stage_section(section: Mapping, stage: str) -> dict:
    """The part of the resolved ``commonwhy_eval`` `section` that `stage` reads: its rule's ``settings`` param."""
    return _pick(section, _key_tree(STAGE_KEYS[stage]), "")


class StageSettings(Mapping):
    """The settings one stage may read; reading any other key raises :class:`UndeclaredSetting`."""

    def __init__(self, values: Mapping, tree: Mapping, stage: str, where: str = ""):
        self._values, self._tree, self._stage, self._where = values, tree, stage, where

    def _declared(self, key: str) -> None:
        if key not in self._tree:
            raise UndeclaredSetting(
                f"CommonWhy stage {self._stage!r} reads commonwhy_eval{self._where}.{key}, but its rule does not "
                f"pass that key: add it to STAGE_KEYS[{self._stage!r}] in benchval/commonwhy/eval/stage_keys.py"
            )

    def __getitem__(self, key: str):
        self._declared(key)
        sub = self._tree[key]
        value = self._values[key]
        return value if sub is True else StageSettings(value, sub, self._stage, f"{self._where}.{key}")

    def get(self, key: str, default=None):
        return self[key]  # a declared key is always given (stage_settings checks); an undeclared one raises

    def __contains__(self, key) -> bool:
        self._declared(key)
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._tree)

    def __len__(self) -> int:
        return len(self._tree)


def _given_keys(given: Mapping, tree: Mapping, where: str = "") -> tuple[list[str], list[str]]:
    """(declared keys missing from `given`, keys of `given` not declared), as dotted paths."""
    missing = [f"{where}{k}" for k in tree if k not in given]
    extra = [f"{where}{k}" for k in given if k not in tree]
    for key, sub in tree.items():
        if sub is not True and key in given:
            if not isinstance(given[key], Mapping):
                missing.append(f"{where}{key}.*")
                continue
            more_missing, more_extra = _given_keys(given[key], sub, f"{where}{key}.")
            missing += more_missing
            extra += more_extra
    return missing, extra


def stage_settings(given: Mapping, stage: str) -> StageSettings:
    """The settings `given` to `stage` by its rule, checked against :data:`STAGE_KEYS`: a key too few or
    too many is an error naming it."""
    tree = _key_tree(STAGE_KEYS[stage])
    missing, extra = _given_keys(given, tree)
    if missing or extra:
        raise ValueError(
            f"CommonWhy stage {stage!r}: its rule passes the wrong commonwhy_eval keys (missing {missing}, "
            f"not declared {extra}); STAGE_KEYS[{stage!r}] in benchval/commonwhy/eval/stage_keys.py lists "
            f"{list(STAGE_KEYS[stage])}"
        )
    return StageSettings(given, tree, stage)
