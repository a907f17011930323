"""Repository files a job reads (prompt templates, override tables): inputs of its rule, by content.

A file a job reads reruns its rule when its content changes, never only a path in its params: a prompt
named by ``commonwhy_eval.judge.prompt`` is read by the judge, so an edit of the file must rerun the judge.
Its content digest is a param (benchval.jobs.reruns.file_digests): an edit reruns the rule (params
trigger), a fresh clone's new modification times do not (docs/workflow.md, "What reruns when"). A file of
the user's (a prompt outside the repository, an annotation table) is also an ``ancient()`` input; a prompt
shipped in the package's repository is part of the code, like its modules (:func:`outside_repository`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from benchval.jobs.reruns import workdir_relative

#: a setting whose value is a prompt file: a key named ``prompt`` or ending in ``_prompt``
PROMPT_SUFFIX = "prompt"


def prompt_keys(settings: Mapping, where: str = "") -> dict[str, str]:
    """{dotted key: path} of every prompt file among ``settings`` (what a rule passes its job)."""
    found = {}
    for key, value in settings.items():
        name = f"{where}{key}"
        if isinstance(value, Mapping):
            found.update(prompt_keys(value, f"{name}."))
        elif (key == PROMPT_SUFFIX or str(key).endswith("_" + PROMPT_SUFFIX)) and isinstance(value, str):
            found[name] = value
    return dict(sorted(found.items()))


def repository_file(path: str | Path, root: str | Path, workdir: str | Path | None = None) -> str:
    """Where a job finds ``path`` (benchval.generation.prompts.PromptTemplate.from_file): an absolute path
    as is, a relative one in the working directory if it is there, else in the repository ``root``;
    returned relative to the working directory (a missing file: the repository's, so the rule's input
    names it in Snakemake's error)."""
    path = Path(path)
    here = Path(workdir) if workdir else Path.cwd()
    if path.is_absolute() or (here / path).is_file():
        return workdir_relative(path if path.is_absolute() else here / path, here)
    return workdir_relative(Path(root) / path, here)


def prompt_files(settings: Mapping, root: str | Path, workdir: str | Path | None = None) -> list[str]:
    """The prompt files a job given ``settings`` reads, relative to the working directory (sorted, unique)."""
    return sorted({repository_file(path, root, workdir) for path in prompt_keys(settings).values()})


def content_digests(paths, root: str | Path) -> dict[str, str]:
    """{path: sha256 prefix} of the files a rule reads by content (its ``ancient()`` inputs), as
    benchval.jobs.reruns.file_digests; a file that is not there is ``"missing"`` (Snakemake then stops
    on the missing input, naming it)."""
    from benchval.jobs.reruns import file_digests

    paths = [Path(path) for path in paths]
    there = [path for path in paths if path.is_file()]
    return dict(
        sorted({**file_digests(there, root), **{path.name: "missing" for path in paths if path not in there}}.items())
    )


def outside_repository(paths, root: str | Path) -> list[str]:
    """The ``paths`` that are not files of the repository ``root``: the inputs among a rule's prompt files.

    A shipped prompt (config/prompts/ of the package's repository) is part of the code, as the package's
    modules are: its content digest is a param, not an input path, so that the same run planned with another
    clone of the repository, at another place, plans nothing; a prompt of the user's is an ancient input too."""
    root = Path(root).resolve()
    return [path for path in paths if not Path(path).resolve().is_relative_to(root)]
