"""Repository files a job reads (prompt templates, override tables): inputs of its rule, by content.

A file a job reads reruns its rule when its content changes, never only a path in its params: a prompt
named by ``commonwhy_eval.judge.prompt`` is read by the judge, so an edit of the file must rerun the judge.
Its content digest is a param (benchval.jobs.reruns.file_digests): an edit reruns the rule (params
trigger), a fresh clone's new modification times do not (docs/workflow.md, "What reruns when"). A file of
the user's (a prompt outside the repository, an annotation table) is also an ``ancient()`` input; a prompt
shipped in the package's repository is part of the code, like its modules (:func:`outside_repository`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


def raw_content(paths, raw_root: str | Path, datasets: Mapping[str, Mapping]) -> dict[str, str]:
    """{file: sha256} of the raw files a rule reads (files or folders, or lists of them: its ``ancient()``
    inputs, paths from the working directory), the param ``raw_content`` that reruns the rule by their
    content, never by modification time (a mirror copied again with the same bytes plans nothing;
    docs/workflow.md, "What reruns when"). The job checks each file against it
    (benchval.plumbing.raw_content_checks.verify_raw_content) and stops naming a file whose bytes differ.

    A file under ``raw_root`` (the mirror, or the downloads with ``mirror: null``) has its *declared* sha256
    (the catalogue's, else its mirror folder's SHA256SUMS: benchval.plumbing.raw_file_checks.declared_sha256),
    read without hashing the file; a file declared nowhere (a user's own table outside the mirror) is
    hashed; one not there is ``"missing"`` (Snakemake stops on the missing input, naming it). A long value
    shows as ``settings@<digest>`` in a dry run's reasons (benchval.jobs.reruns.settings_param)."""
    from benchval.jobs.reruns import settings_param
    from benchval.plumbing.raw_file_checks import NOT_DATA, UndeclaredRawFile, declared_sha256
    from benchval.plumbing.raw_files import sha256_of

    raw_root = Path(raw_root).resolve()
    content = {}
    for given in map(Path, _flat(paths)):
        resolved = given.resolve()
        for path in files_under(resolved, NOT_DATA):
            name = str(given / path.relative_to(resolved)) if path != resolved else str(given)
            try:
                content[name] = declared_sha256(path, raw_root, datasets)[0] if raw_root in path.parents else None
            except UndeclaredRawFile:  # the job stops on it, naming the file (verify_raw_files)
                content[name] = None
            if content[name] is None:
                content[name] = sha256_of(path) if path.is_file() else "missing"
    return settings_param(dict(sorted(content.items())))


def raw_content_of(layout) -> Callable[..., dict[str, str]]:
    """``raw_content(*paths)`` (:func:`raw_content`) with the raw root and the catalogue of ``layout`` (a rule
    file's LAYOUT): the ``raw_content`` param of every rule that reads raw files."""
    return lambda *paths: raw_content(paths, layout.raw_root, layout.config.get("datasets", {}))


def files_under(path: Path, not_data=()) -> list[Path]:
    """The files of a folder (those named in ``not_data`` left out), or the file itself."""
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and p.name not in not_data)
    return [path]


def _flat(paths) -> list[str]:
    """``paths``: one path, or a list of paths and lists of paths (Snakemake's named inputs)."""
    if isinstance(paths, (str, Path)):
        return [str(paths)]
    return [str(path) for item in paths for path in _flat(item)]
