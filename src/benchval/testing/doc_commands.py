"""The shell commands shown in README.md and docs/*.md, as a reader would copy them (tests/test_docs_commands.py).

A command is a line of a fenced code block (``bash``/``sh``/``shell`` or untyped), of an indented code
block, or an inline code span, that starts with a command word (:data:`COMMAND_WORDS`); a trailing ``\\``
joins the next line, ``&&`` splits a line into its commands, a ``# comment`` is dropped.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

COMMAND_WORDS = (
    "snakemake",
    "snakedeploy",
    "python",
    ".venv/bin/python",
    "./install.sh",
    "pip",
    "pytest",
    "pre-commit",
    "ruff",
    "snakefmt",
    "conda",
    "tests/slurm/cluster.sh",
    "sinfo",
    "srun",
    "cd",
    ". .venv/bin/activate",
    "benchval",
)
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
INLINE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class ShownCommand:
    path: str  # relative to the repository root
    line: int
    text: str

    @property
    def words(self) -> list[str]:
        return shlex.split(self.text)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


def _command_start(text: str) -> bool:
    stripped = re.sub(r"^(?:[A-Z_]+=\S+\s+)+", "", text.strip())  # VAR=value prefixes
    return any(stripped == w or stripped.startswith(w + " ") for w in COMMAND_WORDS)


def _split(text: str) -> list[str]:
    text = re.sub(r"\s+#\s.*$", "", text).strip()
    return [part.strip() for part in text.split("&&") if part.strip()]


def _block_lines(lines: list[str]):
    """(line number, text) of every line of a code block (fenced shell/untyped, or indented by 4)."""
    fence, kind = None, ""
    previous_blank = True
    for number, line in enumerate(lines, 1):
        if number > 1 and lines[number - 2].rstrip().endswith("\\") and line.startswith("    "):
            yield number, line.strip()  # the continuation of a command
            continue
        match = FENCE.match(line)
        if match:
            fence, kind = (None, "") if fence is not None else (match.group(1), match.group(2))
            continue
        if fence is not None:
            if kind in ("", "bash", "sh", "shell", "console"):
                yield number, line.strip()
            continue
        if line.startswith("    ") and previous_blank and not line.lstrip().startswith(("-", "*", "|")):
            yield number, line.strip()
            continue
        previous_blank = not line.strip() or (line.startswith("    ") and previous_blank)


def shown_commands(paths: list[Path], root: Path) -> list[ShownCommand]:
    found: list[ShownCommand] = []
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        name = path.relative_to(root).as_posix()
        pending, start = "", 0
        for number, text in _block_lines(lines):
            if pending:
                text, number = pending + " " + text, start
                pending = ""
            if text.endswith("\\"):
                pending, start = text[:-1].strip(), number
                continue
            if _command_start(text):
                found += [ShownCommand(name, number, part) for part in _split(text)]
        in_block = {n for n, _ in _block_lines(lines)}
        for number, line in enumerate(lines, 1):
            if number in in_block or FENCE.match(line):
                continue
            for span in INLINE.findall(line):
                if _command_start(span) and " " in span.strip():
                    found += [ShownCommand(name, number, part) for part in _split(span)]
    return found
