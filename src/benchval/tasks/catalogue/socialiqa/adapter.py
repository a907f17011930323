"""The adapter ``socialiqa``: :func:`benchval.tasks.commonsense.socialiqa`, the one Social IQA adapter, which the
socialiqa and socialiqa_filtered folders both register; its prompt and duplicate rule: ../socialiqa/README.md."""

from __future__ import annotations

from benchval.tasks import commonsense
from benchval.tasks.base import register

socialiqa = register("socialiqa")(commonsense.socialiqa)
