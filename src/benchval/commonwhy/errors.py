"""Errors that name where the problem is: a file and line/key, or a rule id."""

from __future__ import annotations

from pathlib import Path


class CommonWhyDataError(ValueError):
    """Input that cannot be read; the message names the file and the line or key."""

    def __init__(self, path: Path | str, where: str | int | None, problem: str):
        if where is None:
            location = f"{path}"
        elif isinstance(where, int):
            location = f"{path}, line {where}"
        else:
            location = f"{path}, {where}"
        super().__init__(f"{location}: {problem}")
        self.path, self.where, self.problem = str(path), where, problem


class RuleError(ValueError):
    """A lifted rule that cannot be used; the message starts with the rule's id."""

    def __init__(self, rule_id: str, problem: str):
        super().__init__(f"rule {rule_id}: {problem}")
        self.rule_id, self.problem = rule_id, problem
