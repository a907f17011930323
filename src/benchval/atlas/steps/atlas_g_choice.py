"""Rule atlas_g_choice: which general factor the open_llm headline controls for."""

from __future__ import annotations

import logging

import pandas as pd

from benchval.atlas.statistics_settings import IncrementalSettings
from benchval.atlas.steps.atlas_common import column_traits, registry_models, wide_scores, write_table

log = logging.getLogger(__name__)


def write_g_choice(atlas: dict, study: dict, seed: int, ci_level: float, inputs: dict, out_csv) -> None:
    """Rule atlas_g_choice (benchval.atlas.g_choice): the report's open_llm pairs, each with its candidate g."""
    from benchval.atlas.g_choice import g_choice_table
    from benchval.atlas.general_factor import FactorSettings
    from benchval.atlas.groups import column_groups
    from benchval.atlas.incremental import population

    settings = IncrementalSettings.from_config(atlas, seed, ci_level)
    wide, leaderboard = wide_scores(inputs["cells"])
    groups = column_groups(leaderboard, settings.measures.same_measure, settings.measures.collections)
    traits = column_traits(inputs["methods"], wide)
    models = registry_models(inputs["models"])
    atlas_population = population(wide, models, groups, FactorSettings.of(settings), traits)
    table = pd.read_csv(inputs["study"]).set_index("model")
    column = {task: spec["column"] for task, spec in study["tasks"].items()}
    report = atlas["report"]
    pairs = [(column[p], column[c]) for p in report["study_predictors"] for c in report["study_criteria"]]
    columns = [column[t] for t in study["tasks"]]
    choice = g_choice_table(table, columns, pairs, atlas_population, settings)
    write_table(choice, out_csv)
    log.info("g choice: %s", choice.loc[choice["chosen"], ["column_a", "column_b", "g"]].to_dict("records"))
