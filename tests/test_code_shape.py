"""The shape of the code: short functions, no formatter escapes.

Each check reads the source files themselves, so a new long function or a new ``# fmt: skip`` fails here
with its file and line, not in review."""

from __future__ import annotations

import ast
import re
import tokenize
from pathlib import Path

from benchval.plumbing.folders import REPO_ROOT

PACKAGE = REPO_ROOT / "src" / "benchval"
MAX_FUNCTION_LINES = 60

# Functions allowed over the limit (``file name::function``): none now; the last, run_scoreboard_step, was split
# after issue #41 moved the step modules.
LONG_FUNCTIONS_TO_SPLIT: set[str] = set()

FORMATTER_ESCAPE = re.compile(r"#\s*fmt:\s*(skip|off)\b")


def function_lengths(source: str) -> list[tuple[str, int, int]]:
    """(qualified name, first line, number of lines from ``def`` or its first decorator to its end) of every
    function and method in ``source``."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                    found.append((name, child.lineno, child.end_lineno - first + 1))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def long_functions(root: Path, limit: int = MAX_FUNCTION_LINES) -> dict[str, str]:
    """{``file name::function``: ``path:line: n lines``} of the functions under ``root`` longer than ``limit``."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root.parent).as_posix()
        for name, line, length in function_lengths(path.read_text(encoding="utf-8")):
            if length > limit:
                found[f"{path.name}::{name}"] = f"{relative}:{line}: {name} has {length} lines"
    return found


def test_function_lengths_are_counted_from_def_to_end():
    source = "@decorator\ndef f():\n    x = 1\n\n    return x\n\n\nclass C:\n    def g(self):\n        pass\n"
    assert function_lengths(source) == [("f", 2, 5), ("C.g", 9, 2)]


def test_the_long_function_check_rejects_a_61_line_function(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(58))
    (package / "short.py").write_text(f"def fits():\n{body}    return 0\n")
    (package / "long.py").write_text(f"def too_long():\n{body}    x = 0\n    return x\n")
    assert long_functions(package) == {"long.py::too_long": "pkg/long.py:1: too_long has 61 lines"}


def test_no_function_in_the_package_is_over_60_lines():
    found = long_functions(PACKAGE)
    new = {key: where for key, where in found.items() if key not in LONG_FUNCTIONS_TO_SPLIT}
    assert not new, "split into named helpers (at most 60 lines each):\n" + "\n".join(new.values())
    stale = LONG_FUNCTIONS_TO_SPLIT - set(found)
    assert not stale, f"no longer over {MAX_FUNCTION_LINES} lines, remove from LONG_FUNCTIONS_TO_SPLIT: {stale}"


def test_the_long_function_allow_list_holds_only_step_modules():
    scripts = {path.name for path in (REPO_ROOT / "workflow" / "scripts").glob("*.py")}
    outside = [key for key in LONG_FUNCTIONS_TO_SPLIT if key.split("::")[0] not in scripts]
    assert not outside, f"split these rather than allowing them: {outside}"


def formatter_escapes(roots: list[Path]) -> list[str]:
    """``path:line`` of every ``# fmt: skip`` / ``# fmt: off`` comment in the Python files under ``roots``
    (comments only: a string that mentions one is not an escape)."""
    found = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            with tokenize.open(path) as handle:
                for token in tokenize.generate_tokens(handle.readline):
                    if token.type == tokenize.COMMENT and FORMATTER_ESCAPE.search(token.string):
                        found.append(f"{path}:{token.start[0]}")
    return found


def test_the_formatter_escape_check_finds_comments_not_strings(tmp_path):
    (tmp_path / "m.py").write_text('TABLE = [1,  2]  # fmt: skip\nOTHER = 3  # fmt:off\nTEXT = "# fmt: skip"\n')
    assert formatter_escapes([tmp_path]) == [f"{tmp_path / 'm.py'}:1", f"{tmp_path / 'm.py'}:2"]


def test_ruff_format_is_not_escaped_anywhere():
    roots = [REPO_ROOT / folder for folder in ("src", "tests", "workflow", "benchmarks")]
    found = formatter_escapes(roots)
    assert not found, "reformat (or restructure the table) instead of # fmt: skip/off:\n" + "\n".join(found)
