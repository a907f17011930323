"""The settings the atlas statistics read, each one frozen object built once from the ``atlas:`` keys its rule
passes (workflow/rules/atlas.smk, ``params: atlas=config_provider("atlas", ...)``), the run's ``seed`` and
``analysis.ci_level``, and handed whole to the statistics (benchval.atlas.pairs, .predictors, .agreement,
.g_choice).

No default is restated here: the workflow's layout fills every schema default (workflow/schemas/atlas.schema.yaml;
benchval.plumbing.config.fill_defaults) before a rule sees the config, so a key missing here is a key the rule
did not pass, an error that names it. This module imports no other atlas module, so that a step may import it
without hashing (and rerunning on an edit of) statistics it does not use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from benchval.plumbing.dotted_keys import required_setting


def setting(atlas: Mapping, dotted: str) -> Any:
    """``atlas.<dotted>`` of the keys a rule passed; ConfigError naming the key where it is absent."""
    return required_setting(atlas, "atlas", dotted, "workflow/rules/atlas.smk")


@dataclass(frozen=True)
class Resampling:
    """A bootstrap interval's resamples (``atlas.n_bootstrap``), level (``analysis.ci_level``) and seed (``seed``)."""

    n_bootstrap: int
    ci_level: float
    seed: int

    @classmethod
    def from_config(cls, atlas: Mapping, seed: int, ci_level: float) -> Resampling:
        return cls(n_bootstrap=int(setting(atlas, "n_bootstrap")), ci_level=float(ci_level), seed=int(seed))


@dataclass(frozen=True)
class Measures:
    """Which columns measure one thing: aggregates of a leaderboard (``atlas.aggregate_columns``), snapshots of
    one measure (``atlas.same_measure``) and the leaderboards that copy others' numbers
    (``atlas.measure_groups.collections``; benchval.atlas.groups)."""

    aggregates: Mapping[str, list]
    same_measure: Mapping[str, str]
    collections: tuple[str, ...]

    @classmethod
    def from_config(cls, atlas: Mapping, aggregates: bool = True) -> Measures:
        """``aggregates=False`` for a rule that does not pass ``atlas.aggregate_columns`` (rule atlas_agreement)."""
        return cls(
            aggregates=dict(setting(atlas, "aggregate_columns")) if aggregates else {},
            same_measure=dict(setting(atlas, "same_measure")),
            collections=tuple(setting(atlas, "measure_groups.collections")),
        )


@dataclass(frozen=True)
class IncrementalSettings:
    """What the incremental-validity statistics read (rules atlas_pairs, atlas_human_preference, atlas_g_choice,
    which pass :data:`KEYS`): a correlation needs ``min_models`` shared models, a clustered interval
    ``min_clusters`` families and ``min_headline_n`` models; g is built from ``general_factor``."""

    min_models: int
    min_clusters: int
    min_headline_n: int
    min_columns: int  # atlas.general_factor.min_columns: loaded columns a model needs for a g
    uniqueness_floor: float  # atlas.general_factor.uniqueness_floor
    resampling: Resampling
    measures: Measures

    #: the ``atlas:`` keys the rules pass (workflow/rules/atlas.smk, INCREMENTAL_KEYS)
    KEYS = (
        "aggregate_columns",
        "same_measure",
        "measure_groups",
        "general_factor",
        "min_models",
        "min_clusters",
        "min_headline_n",
        "n_bootstrap",
    )

    @classmethod
    def from_config(cls, atlas: Mapping, seed: int, ci_level: float) -> IncrementalSettings:
        return cls(
            min_models=int(setting(atlas, "min_models")),
            min_clusters=int(setting(atlas, "min_clusters")),
            min_headline_n=int(setting(atlas, "min_headline_n")),
            min_columns=int(setting(atlas, "general_factor.min_columns")),
            uniqueness_floor=float(setting(atlas, "general_factor.uniqueness_floor")),
            resampling=Resampling.from_config(atlas, seed, ci_level),
            measures=Measures.from_config(atlas),
        )

    def interval_options(self) -> dict:
        """The options benchval.atlas.incremental.incremental_validity reads (``min_interval_n``: the headline n)."""
        return {
            "min_models": self.min_models,
            "n_bootstrap": self.resampling.n_bootstrap,
            "ci_level": self.resampling.ci_level,
            "min_clusters": self.min_clusters,
            "min_interval_n": self.min_headline_n,
        }


@dataclass(frozen=True)
class AgreementSettings:
    """What rule atlas_agreement reads: the criterion (``atlas.human_preference.agreement_criterion``), the
    reference leaderboards (``atlas.agreement_reference``; empty: the benchmarks themselves), the models a
    ranked value needs (``atlas.min_headline_n``), the bootstrap and the measures."""

    criterion: str
    reference: tuple[str, ...]
    min_headline_n: int
    resampling: Resampling
    measures: Measures

    @classmethod
    def from_config(cls, atlas: Mapping, seed: int, ci_level: float) -> AgreementSettings:
        return cls(
            criterion=str(setting(atlas, "human_preference.agreement_criterion")),
            reference=tuple(setting(atlas, "agreement_reference")),
            min_headline_n=int(setting(atlas, "min_headline_n")),
            resampling=Resampling.from_config(atlas, seed, ci_level),
            measures=Measures.from_config(atlas, aggregates=False),
        )
