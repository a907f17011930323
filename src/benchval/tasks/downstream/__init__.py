"""Downstream tasks (social, pragmatic, event axes) and the control tasks of the paper.

Importing this package registers every adapter (see benchval.tasks.registry). One module per
source; near_duplicates.py holds the near-duplicate rule shared by IMPPRES and TRIP, common.py
the readers and helpers. Filters and their thresholds are documented in docs/downstream-tasks.md.
"""

from benchval.tasks.downstream import (  # noqa: F401
    blimp, cei, epitome, gpqa, imppres, mmlu_redux, sarc7, timedial, trip,
)
