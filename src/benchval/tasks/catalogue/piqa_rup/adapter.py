"""The adapter ``piqa_rup``: :func:`benchval.tasks.commonsense.piqa_rup`, where the commonsense adapters share their
readers and helpers; its prompt format and filters: README.md beside this file."""

from __future__ import annotations

from benchval.tasks import commonsense
from benchval.tasks.base import register

piqa_rup = register("piqa_rup")(commonsense.piqa_rup)
