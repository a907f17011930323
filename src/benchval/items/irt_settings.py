"""The settings of the IRT fits of rule items_irt_<source>: one frozen object from the ``items:`` keys the rule
passes (``min_model_coverage``, ``irt.models``, ``irt.max_iter``, ``irt.recovery``), handed whole to the step.

No default is restated here: the workflow's layout fills every schema default (workflow/schemas/items.schema.yaml)
before a rule sees the config, so a key missing here is a key the rule did not pass, an error that names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from benchval.plumbing.dotted_keys import required_setting


def _setting(items: Mapping, dotted: str) -> Any:
    return required_setting(items, "items", dotted, "workflow/rules/items.smk")


@dataclass(frozen=True)
class IrtSettings:
    """A benchmark's models need ``min_model_coverage`` of its items (benchval.items.matrix); each IRT model of
    ``models`` is fitted in at most ``max_iter`` EM iterations; the recovery gate's ``recovery_thresholds``
    must have held on simulated responses (benchval.items.irt.recovery_passed)."""

    min_model_coverage: float
    models: tuple[str, ...]
    max_iter: int
    recovery_thresholds: Mapping[str, float]

    @classmethod
    def from_config(cls, items: Mapping) -> IrtSettings:
        return cls(
            min_model_coverage=float(_setting(items, "min_model_coverage")),
            models=tuple(_setting(items, "irt.models")),
            max_iter=int(_setting(items, "irt.max_iter")),
            recovery_thresholds=dict(_setting(items, "irt.recovery.thresholds")),
        )
