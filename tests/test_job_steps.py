"""One step module per rule script, beside its domain: ``workflow/scripts/<name>.py`` imports, and so hashes
(benchval.jobs.reruns), only the step module named like it, ``benchval.<domain>.steps.<name>``, so that editing
one step reruns only its rule; and a rule's name says where its step lives (DOMAINS).

A rule family whose scripts share their code has one module named after the family (FAMILIES); a step that
builds on another step's tables imports it (SHARES); what several steps of one domain share is a module of
that steps package named like no script (SHARED)."""

from __future__ import annotations

from pathlib import Path

from benchval.jobs.reruns import PACKAGE_DIR, module_dependencies
from benchval.plumbing.folders import REPO_ROOT

SCRIPTS = REPO_ROOT / "workflow" / "scripts"
#: script -> the step module of its rule family
FAMILIES = {
    "commonwhy_eval_kbbinder": "commonwhy_eval_baselines",
    "commonwhy_eval_kgr": "commonwhy_eval_baselines",
    "items_irt_recovery": "items_irt",
}
#: step -> other steps it imports (the same two input tables)
SHARES = {"commonwhy_eval_check_set": {"commonwhy_eval_check_questions"}}
#: modules of a steps package that several of its steps share (named like no script)
SHARED = {"atlas_common", "commonwhy_eval_stage_io"}
#: rule-name prefix -> the steps package of its domain (the longest prefix wins); steps of other rules live in
#: analysis/steps or, where they read lm_eval output, lmeval/steps
DOMAINS = {
    "atlas_": "atlas/steps",
    "commonwhy_eval_": "commonwhy/eval/steps",
    "commonwhy_": "commonwhy/steps",
    "items_": "items/steps",
}
OTHER_STEPS = ("analysis/steps", "lmeval/steps")


def step_modules(package_dir: Path) -> dict[str, list[Path]]:
    """{step name: the files of that name in any ``steps`` package below ``package_dir``}."""
    found: dict[str, list[Path]] = {}
    for path in sorted(package_dir.glob("**/steps/*.py")):
        if path.stem != "__init__":
            found.setdefault(path.stem, []).append(path)
    return found


def home_of(step: str) -> tuple[str, ...]:
    """The steps packages (relative to the package dir) where the step of rule ``step`` may live."""
    prefixes = sorted((p for p in DOMAINS if step.startswith(p)), key=len, reverse=True)
    return (DOMAINS[prefixes[0]],) if prefixes else OTHER_STEPS


def step_problems(scripts: Path, package_dir: Path, families=FAMILIES, shares=SHARES, shared=SHARED) -> list[str]:
    """Step modules named like no script, twice or in another domain's folder, and scripts that hash a step
    other than their own."""
    steps = step_modules(package_dir)
    names = {path.stem for path in scripts.glob("*.py")}
    problems = [
        f"step {step} is named like no script" for step in sorted(set(steps) - names - set(families.values()) - shared)
    ]
    problems += [f"step {step} is in {len(paths)} steps packages" for step, paths in steps.items() if len(paths) > 1]
    for step, paths in sorted(steps.items()):
        folder = paths[0].parent.relative_to(package_dir).as_posix()
        if step not in shared and folder not in home_of(step):
            problems.append(f"step {step} is in {folder}, not in {' or '.join(home_of(step))}")
    for script in sorted(scripts.glob("*.py")):
        own = families.get(script.stem, script.stem)
        allowed = {"__init__", own, *shares.get(own, ()), *shared}
        hashed = {path.stem for path in module_dependencies(script, package_dir) if path.parent.name == "steps"}
        problems += [f"script {script.name} hashes step {step}" for step in sorted(hashed - allowed)]
    return problems


def test_each_script_hashes_only_its_own_step():
    steps = step_modules(PACKAGE_DIR)
    scripts_with_a_step = [p.stem for p in SCRIPTS.glob("*.py") if FAMILIES.get(p.stem, p.stem) in steps]
    print(f"{len(scripts_with_a_step)} of {len(list(SCRIPTS.glob('*.py')))} scripts call a step module")
    assert len(scripts_with_a_step) >= 40  # atlas, CommonWhy evaluation, items, scoreboard, ... were read
    assert not (PACKAGE_DIR / "jobs" / "steps").exists()  # the wing keeps the Snakemake kit only
    assert step_problems(SCRIPTS, PACKAGE_DIR) == []


def test_a_misnamed_misplaced_step_and_a_script_using_another_step_are_named(tmp_path):
    package = tmp_path / "src" / "benchval"
    atlas_steps, items_steps = package / "atlas" / "steps", package / "items" / "steps"
    for folder in (atlas_steps, items_steps):
        folder.mkdir(parents=True)
    for init in (package, package / "atlas", atlas_steps, package / "items", items_steps):
        (init / "__init__.py").write_text("")
    (atlas_steps / "atlas_pairs.py").write_text("def write_pairs(): ...\n")
    (atlas_steps / "atlas_forest.py").write_text("from benchval.atlas.steps.atlas_pairs import write_pairs\n")
    (atlas_steps / "pairs.py").write_text("")  # the old name, left behind
    (items_steps / "atlas_report.py").write_text("")  # an atlas step in the items folder
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "atlas_pairs.py").write_text("from benchval.atlas.steps.atlas_pairs import write_pairs\n")
    (scripts / "atlas_forest.py").write_text("from benchval.atlas.steps.atlas_forest import x\n")
    (scripts / "atlas_report.py").write_text("from benchval.items.steps.atlas_report import x\n")
    problems = step_problems(scripts, package, families={}, shares={}, shared=set())
    print(problems)
    assert problems == [
        "step pairs is named like no script",
        "step atlas_report is in items/steps, not in atlas/steps",
        "step pairs is in atlas/steps, not in analysis/steps or lmeval/steps",
        "script atlas_forest.py hashes step atlas_pairs",
    ]
