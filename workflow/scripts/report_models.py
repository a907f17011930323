"""Snakemake script: model manifests -> models table (CSV) and its HTML page for the report."""
import logging

from benchval.report.pages import models_frame, write_table_page
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
log = logging.getLogger("report_models")
frame = models_frame(snakemake.input.manifests)
frame.to_csv(snakemake.output.table, index=False)
write_table_page(frame, snakemake.output.page, "Models", "From resources/models/<model>/benchval-model.json.")
log.info("%d models", len(frame))
