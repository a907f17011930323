"""The index of the task folders in docs/downstream-tasks.md, generated from the folders.

``python -m benchval.tasks.index`` rewrites the part between :data:`BEGIN` and :data:`END`; the test of the
registry (tests/tasks/test_task_registry.py) fails while the page's index differs from :func:`index_markdown`.
One row per task folder (benchval.tasks.registry), grouped by role in the schema's order, from its task.yaml.
"""

from __future__ import annotations

import os
from pathlib import Path

from benchval.plumbing.config import allowed_values
from benchval.plumbing.folders import REPO_ROOT, TASK_FOLDERS
from benchval.plumbing.strict_yaml import load_yaml
from benchval.tasks.registry import NOTES_FILE, TASK_FILE, task_folders

PAGE = REPO_ROOT / "docs" / "downstream-tasks.md"
BEGIN = (
    "<!-- task index: generated from src/benchval/tasks/catalogue/ by python -m benchval.tasks.index; do not edit -->"
)
END = "<!-- end of the task index -->"
HEADER = (
    "| task | label | role (pairs with) | axes | adapter | mode | metrics | paper n | notes |",
    "|---|---|---|---|---|---|---|---|---|",
)


def _row(name: str, folder: Path, page_dir: Path) -> str:
    spec = load_yaml(folder / TASK_FILE)["tasks"][name]
    role = spec["role"] + (f" ({spec['pairs_with']})" if spec.get("pairs_with") else "")
    paper_n = "–" if spec.get("paper_n") is None else f"{spec['paper_n']:,}"
    notes = Path(folder / NOTES_FILE).resolve()
    link = f"[README]({Path(os.path.relpath(notes, page_dir.resolve())).as_posix()})"
    cells = [
        f"`{name}`",
        spec.get("label") or name,
        role,
        ", ".join(spec.get("axes") or []) or "–",
        f"`{spec['adapter']}`",
        spec["scoring_mode"],
        ", ".join(spec["metrics"]),
        paper_n,
        link if notes.is_file() else "none",
    ]
    return "| " + " | ".join(cells) + " |"


def index_markdown(root: Path = TASK_FOLDERS, page: Path = PAGE) -> str:
    """The index: the markers and the table, one row per task folder of ``root``."""
    roles = allowed_values("tasks", "role")
    folders = task_folders(root)
    specs = {name: load_yaml(folder / TASK_FILE)["tasks"][name] for name, folder in folders.items()}
    order = sorted(folders, key=lambda name: (roles.index(specs[name]["role"]), name))
    rows = [_row(name, folders[name], Path(page).parent) for name in order]
    return "\n".join([BEGIN, *HEADER, *rows, END])


def updated_page(text: str, index: str) -> str:
    """``text`` with the part from :data:`BEGIN` to :data:`END` replaced by ``index``."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + index + text[end:]


def main() -> None:
    PAGE.write_text(updated_page(PAGE.read_text(encoding="utf-8"), index_markdown()), encoding="utf-8")


if __name__ == "__main__":
    main()
