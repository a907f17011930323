"""The configured judge, loaded: its model (or endpoint), prompt and decision rule."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from benchval.commonwhy.eval.judge import JUDGE_PLACEHOLDERS, Judge
from benchval.jobs.steps.shared.commonwhy_eval_systems import make_generator
from benchval.generation.prompts import PromptTemplate
from benchval.plumbing.folders import MODELS_DIR


def make_judge(
    system: str,
    settings: Mapping,
    models_config: Mapping,
    models_dir: str | Path = MODELS_DIR,
    decision: str | None = None,
) -> Judge:
    """`settings`: the stage's ``commonwhy_eval`` settings (stage_keys.JUDGE_KEYS)."""
    cfg = settings["judge"]
    generator = make_generator(system, settings, models_config, models_dir, batch_size=cfg["batch_size"])
    template = PromptTemplate.from_file(cfg["prompt"], required=JUDGE_PLACEHOLDERS)
    return Judge(generator, template, decision=decision or cfg["decision"])
