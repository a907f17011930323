"""Rule atlas_study_table: an atlas study's input table."""

from __future__ import annotations

import logging
import pandas as pd

from benchval.atlas.steps.atlas_common import write_table

log = logging.getLogger(__name__)


def write_study_table(study_name: str, study: dict, leaderboards: list, cells_csv, models_csv, table_csv, report_csv):
    """Rule atlas_study_table: an atlas study's input table (benchval.atlas.study_tables)."""
    from benchval.atlas.study_tables import study_table

    models = pd.read_csv(models_csv).set_index("canonical_id")
    table, report = study_table(pd.read_csv(cells_csv), models, study_name, study, leaderboards)
    write_table(table, table_csv)
    write_table(report, report_csv)
    log.info("study %s: %s", study_name, report[["step", "n_models"]].to_dict("records"))
