"""Snakemake script: model manifests -> models table (CSV) and its HTML page for the report."""

import logging

from benchval.joblog import log_to_file
from benchval.plumbing.layout import model_manifest
from benchval.report.pages import models_frame, write_table_page

log_to_file(snakemake.log[0])
log = logging.getLogger("report_models")
frame = models_frame(snakemake.input.manifests)
frame.to_csv(snakemake.output.table, index=False)
write_table_page(frame, snakemake.output.page, "Models", f"From {model_manifest('<model>')}.")
log.info("%d models", len(frame))
