"""A study's own roles and axes (``studies.<study>.roles`` and ``.axes``; docs/configuration.md, "A study's
own roles and axes").

The analysis knows four roles by what it does with them: ``cs_original`` and ``cs_reworked`` (the benchmarks
whose validity is tested, a reworked one paired with its original), ``downstream`` (the criteria) and
``control`` (the control composite). The paper's names are the defaults and always mean themselves. A study
may name its roles in its own words (``roles: {reasoning: cs_original, criterion: downstream}``) and declare
its own axes (``axes: [math, code]``; default the paper's social, pragmatic, event). On import the study's
task table gets the analysis role in ``role`` and the study's word in ``role_name`` (captions and legends
use it); every task's role and axes are checked against the declaration, the error naming the key.
"""

from __future__ import annotations

import pandas as pd

from benchval.analysis.study_import import StudyImportError
from benchval.analysis.study_table import AXES

#: the analysis roles a study's task may have, by their own names (cs_variant: scored studies only)
ANALYSIS_ROLES = ("cs_original", "cs_reworked", "downstream", "control")


def study_roles(study_name: str, study: dict) -> dict[str, str]:
    """The study's role name -> analysis role (the paper's names included, mapped to themselves)."""
    declared = dict(study.get("roles") or {})
    redefined = sorted(name for name, role in declared.items() if name in ANALYSIS_ROLES and role != name)
    if redefined:
        raise StudyImportError(
            f"studies.{study_name}.roles: {redefined} are the analysis's own role names and cannot mean another role"
        )
    return {**{role: role for role in ANALYSIS_ROLES}, **declared}


def apply_vocabulary(study_name: str, study: dict, tasks: pd.DataFrame) -> pd.DataFrame:
    """``tasks`` (a task table with the study's role names) with the analysis roles in ``role`` and the
    study's names in ``role_name``; a role or axis the study does not declare is an error naming its key."""
    roles = study_roles(study_name, study)
    axes = list(study.get("axes") or AXES)
    tasks = tasks.copy()
    for row in tasks.itertuples(index=False):
        key = f"studies.{study_name}.tasks.{row.task}"
        if row.role not in roles:
            raise StudyImportError(
                f"{key}.role: {row.role!r} is neither an analysis role {list(ANALYSIS_ROLES)} nor declared in "
                f"studies.{study_name}.roles ({sorted(set(roles) - set(ANALYSIS_ROLES)) or 'none declared'})"
            )
        unknown = [a for a in str(row.axes or "").split(";") if a and a not in axes]
        if unknown:
            raise StudyImportError(
                f"{key}.axes: {unknown} not among the study's axes {axes}"
                + ("" if study.get("axes") else f" (declare its own in studies.{study_name}.axes)")
            )
    tasks["role_name"] = tasks["role"]
    tasks["role"] = tasks["role"].map(roles)
    return tasks
