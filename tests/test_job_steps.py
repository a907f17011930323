"""One step module per rule script (benchval.jobs.steps): ``workflow/scripts/<name>.py`` imports, and so hashes
(benchval.jobs.reruns), only the step module named like it, so that editing one step reruns only its rule.

A rule family whose scripts share their code has one module named after the family (FAMILIES); a step that
builds on another step's tables imports it (SHARES). What several steps share is in jobs/steps/shared/."""

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


def step_problems(scripts: Path, package_dir: Path, families=FAMILIES, shares=SHARES) -> list[str]:
    """Step modules named like no script, and scripts that hash a step other than their own."""
    steps_dir = package_dir / "jobs" / "steps"
    steps = {path.stem for path in steps_dir.glob("*.py")} - {"__init__"}
    names = {path.stem for path in scripts.glob("*.py")}
    problems = [f"step {step} is named like no script" for step in sorted(steps - names - set(families.values()))]
    for script in sorted(scripts.glob("*.py")):
        own = families.get(script.stem, script.stem)
        allowed = {"__init__", own, *shares.get(own, ())}
        hashed = {path.stem for path in module_dependencies(script, package_dir) if path.parent == steps_dir}
        problems += [f"script {script.name} hashes step {step}" for step in sorted(hashed - allowed)]
    return problems


def test_each_script_hashes_only_its_own_step():
    scripts_with_a_step = [
        p.stem
        for p in SCRIPTS.glob("*.py")
        if (PACKAGE_DIR / "jobs" / "steps" / f"{FAMILIES.get(p.stem, p.stem)}.py").is_file()
    ]
    print(f"{len(scripts_with_a_step)} of {len(list(SCRIPTS.glob('*.py')))} scripts call a step module")
    assert len(scripts_with_a_step) >= 40  # atlas, CommonWhy evaluation, items, scoreboard, ... were read
    assert step_problems(SCRIPTS, PACKAGE_DIR) == []


def test_a_misnamed_step_and_a_script_using_another_step_are_named(tmp_path):
    package = tmp_path / "src" / "benchval"
    steps = package / "jobs" / "steps"
    steps.mkdir(parents=True)
    for init in (package, package / "jobs", steps):
        (init / "__init__.py").write_text("")
    (steps / "atlas_pairs.py").write_text("def write_pairs(): ...\n")
    (steps / "atlas_forest.py").write_text("from benchval.jobs.steps.atlas_pairs import write_pairs\n")
    (steps / "pairs.py").write_text("")  # the old name, left behind
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "atlas_pairs.py").write_text("from benchval.jobs.steps.atlas_pairs import write_pairs\n")
    (scripts / "atlas_forest.py").write_text("from benchval.jobs.steps.atlas_forest import x\n")
    problems = step_problems(scripts, package, families={}, shares={})
    print(problems)
    assert problems == ["step pairs is named like no script", "script atlas_forest.py hashes step atlas_pairs"]
