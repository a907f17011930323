"""Chat messages, prompt templates from files, and the text a model without a chat template sees."""

from __future__ import annotations

import string
from pathlib import Path
from typing import TypedDict

from benchval.plumbing.folders import REPO_ROOT


class Message(TypedDict):
    role: str  # "system" | "user" | "assistant"
    content: str


Messages = list[Message]


def user(content: str, system: str | None = None) -> Messages:
    """A one-turn conversation: optional system message, then the user's message."""
    messages: Messages = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": content})
    return messages


def plain_text(messages: Messages) -> str:
    """What a base model (no chat template) is given: the message contents, blank-line separated,
    without trailing whitespace (so a prompt ending in "Answer:" is continued on the same line)."""
    return "\n\n".join(message["content"] for message in messages).rstrip()


def cut_answer(text: str) -> str:
    """The answer part of a continuation: its first non-empty line, stripped.

    Answers are asked for as one sentence; a base model would otherwise run on into the next
    "Question:" of its own making.
    """
    stripped = text.strip()
    return stripped.split("\n", 1)[0].strip() if stripped else ""


class PromptTemplate:
    """A prompt file with `$name` placeholders (string.Template; `$$` is a literal dollar).

    `$` placeholders leave SPARQL's `?x` and `{ }` untouched. Every placeholder must be filled.
    """

    def __init__(self, text: str, source: str = "<string>"):
        self.text, self.source = text, source
        self._template = string.Template(text)
        if not self._template.is_valid():
            raise ValueError(f"{source}: invalid $placeholder syntax")
        self.placeholders = set(self._template.get_identifiers())

    @classmethod
    def from_file(cls, path: str | Path, required: set[str] | frozenset[str] = frozenset()) -> "PromptTemplate":
        """A relative path is looked up in the working directory, then in the repository (config/prompts
        ships there), so that a run with `snakemake --directory elsewhere` finds the shipped prompts."""
        path = Path(path)
        if not path.is_file() and not path.is_absolute() and (REPO_ROOT / path).is_file():
            path = REPO_ROOT / path
        if not path.is_file():
            where = f"{path.resolve()}" if path.is_absolute() else f"{Path.cwd() / path} or {REPO_ROOT / path}"
            raise FileNotFoundError(f"prompt file not found: {where}")
        template = cls(path.read_text(encoding="utf-8"), str(path))
        missing = set(required) - template.placeholders
        if missing:
            raise ValueError(f"{path}: prompt lacks placeholder(s) {sorted('$' + m for m in missing)}")
        return template

    def fill(self, **values: str) -> str:
        missing = self.placeholders - values.keys()
        if missing:
            raise KeyError(f"{self.source}: no value for placeholder(s) {sorted(missing)}")
        return self._template.substitute(values)
