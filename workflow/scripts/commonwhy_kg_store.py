"""Snakemake script for rule kg_store (thin: calls benchval.commonwhy.entrypoints)."""

import logging

from benchval.commonwhy.entrypoints import build_store

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, format="%(asctime)s %(name)s %(message)s")  # noqa: F821
build_store(snakemake.params.litwd1k_dir, snakemake.output.store, snakemake.output.stats,  # noqa: F821
            infer_time_precision=snakemake.params.infer_time_precision)  # noqa: F821
