"""The error of a bad lm-eval output folder or study mapping; its message names the file and line or key."""

from __future__ import annotations

from benchval.analysis.study_import import StudyImportError


class LmEvalImportError(StudyImportError):
    """Bad lm-evaluation-harness output: the message names the file (and line) or the study key."""
