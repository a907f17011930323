"""Each CommonWhy evaluation script hashes its own stage module and no other stage's (per-module code hashing)."""

from __future__ import annotations

import ast

from benchval.plumbing.folders import REPO_ROOT
from benchval.jobs.reruns import PACKAGE_DIR, module_dependencies

SCRIPTS = REPO_ROOT / "workflow/scripts"
EVAL = PACKAGE_DIR / "commonwhy/eval"
STEPS = EVAL / "steps"
#: what several stages share (the tables they pass each other); the package file imports nothing
SHARED = {"__init__", "commonwhy_eval_stage_io"}
SCRIPT_STAGES = {  # script -> the step modules (benchval.commonwhy.eval.steps) it may hash beyond SHARED
    "commonwhy_eval_answer.py": {"commonwhy_eval_answer"},
    "commonwhy_eval_bertscore_baseline.py": {"commonwhy_eval_bertscore_baseline"},
    "commonwhy_eval_check_questions.py": {"commonwhy_eval_check_questions"},
    "commonwhy_eval_check_set.py": {
        "commonwhy_eval_check_set",
        "commonwhy_eval_check_questions",
    },  # the same two input tables
    "commonwhy_eval_criterion.py": {"commonwhy_eval_criterion"},
    "commonwhy_eval_encoder.py": {"commonwhy_eval_encoder"},
    "commonwhy_eval_factscore.py": {"commonwhy_eval_factscore"},
    "commonwhy_eval_judge.py": {"commonwhy_eval_judge"},
    "commonwhy_eval_judge_canaries.py": {"commonwhy_eval_judge_canaries"},
    "commonwhy_eval_judge_check.py": {"commonwhy_eval_judge_check"},
    "commonwhy_eval_judge_check_report.py": {"commonwhy_eval_judge_check_report"},
    "commonwhy_eval_kbbinder.py": {"commonwhy_eval_baselines"},
    "commonwhy_eval_kgr.py": {"commonwhy_eval_baselines"},
    "commonwhy_eval_sample.py": {"commonwhy_eval_sample"},
    "commonwhy_eval_score.py": {"commonwhy_eval_score"},
    "commonwhy_eval_table2.py": {"commonwhy_eval_table2"},
}


def _stage_modules(script: str) -> set[str]:
    return {p.stem for p in module_dependencies(SCRIPTS / script) if p.parent == STEPS}


def test_each_script_hashes_only_its_stage():
    assert set(SCRIPT_STAGES) == {p.name for p in SCRIPTS.glob("commonwhy_eval_*.py")}
    for script, stages in SCRIPT_STAGES.items():
        found = _stage_modules(script) - SHARED
        print(script, sorted(found))
        assert found == stages, script


def test_factscore_modules_only_in_factscore():
    for script in SCRIPT_STAGES:
        uses = EVAL / "factscore.py" in module_dependencies(SCRIPTS / script)
        assert uses == (script == "commonwhy_eval_factscore.py"), script


def test_package_inits_import_nothing():
    for init in (EVAL / "__init__.py", STEPS / "__init__.py"):
        tree = ast.parse(init.read_text())
        assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))], init
