"""The ``benchval`` command: one line for each journey a researcher takes, each a Snakemake command.

The workflow stays the engine: every subcommand writes at most a small YAML file (a study read from a CSV
or an lm-eval folder, a model, the ``--set`` keys) under ``resources/cli/``, prints the Snakemake command
it runs and runs it from the repository root, so nothing is done twice and the printed line can be
rerun by hand (README.md, "One line per journey").

* ``benchval run FILE.yaml [TARGET ...]``: the config file over config/config.yaml; the targets default to
  each study the file declares (``study_<name>``), else ``results/figures``;
* ``benchval csv SCORES.csv --role COLUMN=ROLE ...``: a ``source: csv`` study of the file (columns
  ``model``, ``family``, ``size_b`` and one per task), then its ``study_<name>`` target and its explorer
  (``results/explorer/<name>.html``);
* ``benchval lmeval FOLDER --role TASK=ROLE ...``: a ``source: lm_eval`` study of an lm-eval
  ``--output_path`` folder (models from each results JSON's ``model_args``, families from the registry's
  rules where not given; item by item where it holds samples files), then its target;
* ``benchval model NAME --hf ID | --local DIR --family F --size-b B``: the model added to a scored study
  (default ``default``), then ``results/figures``;
* ``benchval atlas``, ``benchval findings``, ``benchval explorer [--study NAME]``: their pages; ``benchval report``:
  ``snakemake --report results/report.html``.

Every subcommand takes ``--set KEY.PATH=VALUE`` (nested keys, values read as YAML: ``--set
analysis.n_bootstrap=500``), ``--configfile`` (more config files), ``--cores`` and ``--dry-run``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

#: where the generated config files go (git-ignored, beside the downloads)
CLI_DIR = Path("resources/cli")
BASE_CONFIG = "config/config.yaml"
CSV_ID_COLUMNS = {"model": "model", "family": "family", "size_b": "size_b"}
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


class UsageError(ValueError):
    """A command line that cannot become a run: said in one line, nothing computed."""


# ---------------------------------------------------------------------------- config files


def nested_keys(assignments: list[str]) -> dict:
    """``["analysis.n_bootstrap=500", "sample.per_task.piqa=8"]`` as one nested mapping (values as YAML)."""
    merged: dict = {}
    for assignment in assignments:
        key, sep, text = assignment.partition("=")
        if not sep or not key or any(not part for part in key.split(".")):
            raise UsageError(f"--set {assignment!r}: expected KEY.PATH=VALUE, e.g. analysis.n_bootstrap=500")
        *parents, leaf = key.split(".")
        node = merged
        for part in parents:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise UsageError(f"--set {assignment!r}: {part!r} was set to a value above")
        node[leaf] = yaml.safe_load(text) if text else None
    return merged


def write_config(mapping: dict, stem: str, folder: Path = CLI_DIR) -> Path:
    """``mapping`` as ``folder/<stem>.yaml`` (content-addressed where the stem is not a study's name)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(mapping, sort_keys=False, allow_unicode=True)
    path = folder / f"{stem}.yaml"
    path.write_text(f"# written by `benchval` ({__name__}); rerun the printed command to reuse it\n{text}")
    return path


def study_target(study: str) -> str:
    """The rule that builds one study (workflow/rules/analysis.smk: ``study_<name>``)."""
    return "study_" + re.sub(r"\W", "_", study)


def study_name(candidate: str) -> str:
    name = re.sub(r"\W", "_", candidate).strip("_")
    name = name if name[:1].isalpha() else f"study_{name}"
    if not NAME.match(name):
        raise UsageError(f"--name {candidate!r}: a study name is letters, digits and _ (starting with a letter)")
    return name


def roles(assignments: list[str], known: list[str], what: str) -> dict[str, str]:
    """``COLUMN=ROLE`` pairs, each naming one of ``known`` (else a UsageError naming it); the rest of
    ``known`` is left out of the study and said so on stderr."""
    given = {}
    for assignment in assignments:
        key, sep, role = assignment.partition("=")
        if not sep or key not in known:
            raise UsageError(f"--role {assignment!r}: expected {what}=ROLE with {what} one of {known}")
        given[key] = role
    if not given:
        raise UsageError(
            f"no --role: give each {what} of {known} that enters the study a role "
            "(cs_original, cs_reworked, downstream, control)"
        )
    left_out = [k for k in known if k not in given]
    if left_out:
        print(f"benchval: left out of the study (no --role): {left_out}", file=sys.stderr)
    return given


# ---------------------------------------------------------------------------- studies from files


def csv_study(path: Path, name: str, role_args: list[str], scale: float | None) -> dict:
    """A ``source: csv`` study of ``path``: columns model, family, size_b and one per task."""
    import pandas as pd

    header = list(pd.read_csv(path, nrows=0).columns)
    missing = [c for c in CSV_ID_COLUMNS.values() if c not in header]
    if missing:
        raise UsageError(
            f"{path}: line 1 lacks the column(s) {missing} (a row per model: model, family, size_b, tasks)"
        )
    columns = [c for c in header if c not in CSV_ID_COLUMNS.values()]
    given = roles(role_args, columns, "COLUMN")
    tasks = {re.sub(r"\W", "_", c).lower(): {"column": c, "role": r, "label": c} for c, r in given.items()}
    study = {"source": "csv", "path": str(path), "columns": dict(CSV_ID_COLUMNS), "tasks": tasks}
    return {"studies": {name: study | ({"scale": scale} if scale else {})}}


def lmeval_runs(folder: Path) -> tuple[dict[str, str], list[str], bool]:
    """The models (``model_args`` pretrained value -> name), tasks and whether samples files exist."""
    models, tasks = {}, []
    for results in sorted(folder.rglob("results_*.json")):
        payload = json.loads(results.read_text(encoding="utf-8"))
        args = str((payload.get("config") or {}).get("model_args") or "")
        pretrained = dict(p.split("=", 1) for p in args.split(",") if "=" in p).get("pretrained")
        if not pretrained:
            raise UsageError(f"{results}: config.model_args names no pretrained=... model")
        models[pretrained] = re.sub(r"[^A-Za-z0-9_.-]", "-", pretrained.rsplit("/", 1)[-1])
        tasks += [t for t in payload.get("results", {}) if t not in tasks]
    if not models:
        raise UsageError(f"{folder}: no lm-eval results_*.json found (give lm_eval's --output_path folder)")
    return models, tasks, any(folder.rglob("samples_*.json*"))


def lmeval_study(args, name: str) -> dict:
    folder = Path(args.source)
    models, tasks, has_samples = lmeval_runs(folder)
    given = roles(args.role or [], tasks, "TASK")
    families = dict(pair.partition("=")[::2] for pair in args.family or [])
    unknown = sorted(set(families) - set(models))
    if unknown:
        raise UsageError(f"--family {unknown}: not a model of {folder} (its models: {sorted(models)})")
    study = {
        "source": "lm_eval",
        "path": str(folder),
        "family_rules": args.family_rules,
        "models": {
            pretrained: {"name": short} | ({"family": families[pretrained]} if pretrained in families else {})
            for pretrained, short in models.items()
        },
        "tasks": {
            re.sub(r"\W", "_", t): {"harness_task": t, "role": r}
            | ({} if has_samples else {"metrics": {"accuracy": "acc,none"}})
            for t, r in given.items()
        },
    }
    if has_samples:
        study["samples"] = {"normalisation": args.normalisation}
    return {"studies": {name: study}}


def model_entry(args) -> dict:
    """The model under ``models:`` and the scored study's model list with it."""
    base = yaml.safe_load(Path(BASE_CONFIG).read_text(encoding="utf-8"))
    study = base["studies"].get(args.study)
    if not study or study.get("source") != "scored":
        scored = [s for s, v in base["studies"].items() if v.get("source") == "scored"]
        raise UsageError(f"--study {args.study!r}: not a scored study of {BASE_CONFIG} (scored: {scored})")
    source = {"type": "hf", "id": args.hf} if args.hf else {"type": "local", "path": args.local}
    model = {"family": args.family, "size_b": args.size_b, "dtype": "float32", "device": "cpu", "source": source}
    models = [m for m in study["models"] if m != args.name] + [args.name]
    return {"models": {args.name: model}, "studies": {args.study: {"models": models}}}


# ---------------------------------------------------------------------------- the command


def snakemake_command(args, targets: list[str], configfiles: list[Path | str]) -> list[str]:
    """Targets before ``--configfile`` (which takes every word after it as a file)."""
    files = [BASE_CONFIG, *map(str, configfiles), *map(str, args.configfile or [])]
    overrides = nested_keys(args.set or [])
    if overrides:
        digest = hashlib.sha256(json.dumps(overrides, sort_keys=True).encode()).hexdigest()[:10]
        files.append(str(write_config(overrides, f"set-{digest}")))
    flags = ["--dry-run"] if args.dry_run else []
    return [snakemake_executable(), "--cores", str(args.cores), *flags, *targets, "--configfile", *files]


def snakemake_executable() -> str:
    """``snakemake`` where it is on the PATH (an activated environment), else the one beside this Python."""
    beside = Path(sys.executable).with_name("snakemake")
    return "snakemake" if shutil.which("snakemake") or not beside.exists() else str(beside)


def plan(args) -> list[str]:
    """The Snakemake command a parsed command line stands for (writing its generated config files)."""
    if args.command == "run":
        config = yaml.safe_load(Path(args.file).read_text(encoding="utf-8")) or {}
        base = yaml.safe_load(Path(BASE_CONFIG).read_text(encoding="utf-8"))
        new = [s for s in (config.get("studies") or {}) if s not in base["studies"]]
        targets = args.targets or [study_target(s) for s in new] or ["results/figures"]
        return snakemake_command(args, targets, [args.file])
    if args.command in ("csv", "lmeval"):
        source = Path(args.source)
        name = study_name(args.name or source.stem)
        if args.command == "csv":
            study = csv_study(source, name, args.role or [], args.scale)
        else:
            study = lmeval_study(args, name)
        targets = [study_target(name), f"results/explorer/{name}.html"]
        return snakemake_command(args, targets, [write_config(study, name)])
    if args.command == "model":
        return snakemake_command(args, ["results/figures"], [write_config(model_entry(args), f"model-{args.name}")])
    if args.command == "report":
        return snakemake_command(args, ["--report", "results/report.html"], [])
    if args.command == "explorer" and args.study:
        return snakemake_command(args, [f"results/explorer/{study_name(args.study)}.html"], [])
    target = {
        "atlas": "results/atlas/report.md",
        "findings": "results/findings.md",
        "explorer": "results/explorer/index.html",
    }
    return snakemake_command(args, [target[args.command]], [])


def parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--set", action="append", metavar="KEY.PATH=VALUE", help="a nested config key (YAML value)")
    common.add_argument("--configfile", action="append", metavar="FILE", help="another config file, applied last")
    common.add_argument("--cores", type=int, default=2)
    common.add_argument("--dry-run", "-n", action="store_true", help="print Snakemake's plan, run nothing")
    top = argparse.ArgumentParser(prog="benchval", description=__doc__.split("\n\n")[0])
    sub = top.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", parents=[common], help="run the workflow with a config file")
    run.add_argument("file")
    run.add_argument("targets", nargs="*")
    for kind, what in (("csv", "a score table (a row per model)"), ("lmeval", "an lm-eval --output_path folder")):
        study = sub.add_parser(kind, parents=[common], help=f"analyse {what} as a study")
        study.add_argument("source")
        study.add_argument("--name", help="the study's name (default: the file or folder name)")
        study.add_argument("--role", action="append", metavar="TASK=ROLE", help="each task's role (repeat)")
        if kind == "csv":
            study.add_argument("--scale", type=float, help="multiplies every score (0.01 for percentages)")
        else:
            study.add_argument("--normalisation", default="sum", choices=["sum", "per_char", "per_byte", "per_token"])
            study.add_argument("--family-rules", default="config/atlas/registry_rules.yaml")
            study.add_argument("--family", action="append", metavar="MODEL=FAMILY", help="a model's family (repeat)")
    model = sub.add_parser("model", parents=[common], help="add a model to a scored study and run it")
    model.add_argument("name")
    where = model.add_mutually_exclusive_group(required=True)
    where.add_argument("--hf", metavar="ORG/NAME", help="a Hugging Face id (needs the Hub)")
    where.add_argument("--local", metavar="DIR", help="a save_pretrained folder")
    model.add_argument("--family", required=True)
    model.add_argument("--size-b", type=float, required=True)
    model.add_argument("--study", default="default")
    for page in ("atlas", "findings", "explorer", "report"):
        built = sub.add_parser(page, parents=[common], help=f"build the {page} page")
        if page == "explorer":
            built.add_argument("--study", help="one study's explorer (default: the atlas's)")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if not Path("workflow/Snakefile").is_file():
            raise UsageError(f"run it from the repository root (no workflow/Snakefile in {Path.cwd()})")
        command = plan(args)
    except (UsageError, OSError, yaml.YAMLError) as error:
        print(f"benchval {args.command}: {error}", file=sys.stderr)
        return 2
    print(shlex.join(command), flush=True)
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
