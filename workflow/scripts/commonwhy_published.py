"""Snakemake script for rule commonwhy_published (thin: calls benchval.commonwhy.entrypoints)."""

import logging

from benchval.commonwhy.entrypoints import published

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s")  # noqa: F821
published(snakemake.params.raw_dir, snakemake.output.table, snakemake.output.report)  # noqa: F821
