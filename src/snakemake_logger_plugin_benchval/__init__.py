"""Snakemake logger plugin ``benchval``: Snakemake's own console output with no line over 1,000 characters.

Snakemake prints every file of a job's ``input:``/``output:`` and of its reason on one line; in a dry run
of the default config from nothing 58 lines were over 1,000 characters (up to 11,055), in the paper
config's 57 (up to 44,532). This handler prints what Snakemake's default console handler prints (its filter:
--quiet, --printshellcmds, --debug-dag; its formatter; its colours; stdout in a dry run, else stderr) and
folds only the lines over the limit (:mod:`.folding`): a long list keeps its first names and says how many
there are and where the whole list is.

- It is on for every run of workflow/Snakefile through the workflow profile (workflow/profiles/default,
  ``logger: [benchval]``), beside a ``--profile`` of your own (profiles/slurm).
- The whole lists: a real run's complete log (``.snakemake/log/<date>.snakemake.log``, which Snakemake
  names at the end of the run) is written by Snakemake's own file handler, unfolded; in a dry run add
  ``--logger-benchval-unfolded`` (Snakemake's lines exactly as it writes them).
- Off: ``--logger-benchval-unfolded`` (keeps the workflow profile's other settings), or
  ``--workflow-profile none`` (drops the whole workflow profile).

Snakemake finds the plugin by its module name (``snakemake_logger_plugin_<name>``, a top-level package:
src/ is on the path of the editable install, and setuptools' package search ships it in a wheel). A
plugin handler runs in Snakemake's logging thread, as every logger plugin does (snakemake.logging.LoggerManager).
Cluster jobs (``--mode remote``) use no logger plugins: their output is Snakemake's own.
"""

import logging
import sys
from dataclasses import dataclass, field

from snakemake.logging import ColorizingTextHandler, DefaultFormatter
from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.settings import LogHandlerSettingsBase

from snakemake_logger_plugin_benchval.folding import fold_text

#: where a folded line says its whole text is (a dry run writes no log file)
IN_THE_LOG = "unfolded in the run's complete log, .snakemake/log/"
RERUN_UNFOLDED = "unfolded with --logger-benchval-unfolded"


@dataclass  # no `from __future__ import annotations` here: Snakemake reads the field types as classes
class LogHandlerSettings(LogHandlerSettingsBase):
    unfolded: bool = field(
        default=False,
        metadata={"help": "Print Snakemake's lines as they are, long file lists included (benchval logger)."},
    )


class FoldingFormatter(DefaultFormatter):
    """Snakemake's default formatter, each line of what it formats through :func:`.folding.fold_text`."""

    def __init__(self, quiet, show_failed_logs: bool, where: str | None):
        super().__init__(quiet, show_failed_logs)
        self.where = where

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return text if self.where is None or not text else fold_text(text, self.where)


class LogHandler(LogHandlerBase):
    """Snakemake's console handler (snakemake.logging.ColorizingTextHandler) with the folding formatter."""

    def __post_init__(self) -> None:
        common = self.common_settings
        unfolded = self.settings is not None and self.settings.unfolded
        where = None if unfolded else (RERUN_UNFOLDED if common.dryrun else IN_THE_LOG)
        self.console = ColorizingTextHandler(
            nocolor=common.nocolor,
            stream=sys.stdout if common.stdout else sys.stderr,
            formatter=FoldingFormatter(common.quiet, common.show_failed_logs, where),
        )

    def emit(self, record: logging.LogRecord) -> None:
        self.console.emit(record)

    def flush(self) -> None:
        self.console.flush()

    @property
    def writes_to_stream(self) -> bool:
        return True

    @property
    def writes_to_file(self) -> bool:
        return False

    @property
    def has_filter(self) -> bool:
        return False  # Snakemake adds its default filter (quietness, shell commands, DAG debugging)

    @property
    def has_formatter(self) -> bool:
        return True

    @property
    def needs_rulegraph(self) -> bool:
        return False
