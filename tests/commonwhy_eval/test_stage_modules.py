"""Each CommonWhy evaluation script hashes its own stage module and no other stage's (per-module code hashing)."""

from __future__ import annotations

import ast

from benchval.plumbing.folders import REPO_ROOT
from benchval.plumbing.reruns import PACKAGE_DIR, module_dependencies

SCRIPTS = REPO_ROOT / "workflow/scripts"
EVAL = PACKAGE_DIR / "commonwhy/eval"
#: stage modules that several stages share: file helpers, loading a model, loading the judge, the CommonWhy tables
SHARED = {"__init__", "stage_io", "systems", "judges"}
SCRIPT_STAGES = {  # script -> the stage modules it may hash beyond SHARED
    "commonwhy_eval_answer.py": {"answer"},
    "commonwhy_eval_bertscore_baseline.py": {"bertscore_baseline"},
    "commonwhy_eval_check_questions.py": {"check_questions"},
    "commonwhy_eval_check_set.py": {"check_set", "check_questions"},  # the same two input tables
    "commonwhy_eval_criterion.py": {"criterion"},
    "commonwhy_eval_encoder.py": {"encoder"},
    "commonwhy_eval_factscore.py": {"factscore"},
    "commonwhy_eval_judge.py": {"judge"},
    "commonwhy_eval_judge_canaries.py": {"canaries"},
    "commonwhy_eval_judge_check.py": {"judge_check"},
    "commonwhy_eval_judge_check_report.py": {"judge_check_report"},
    "commonwhy_eval_kbbinder.py": {"baselines"},
    "commonwhy_eval_kgr.py": {"baselines"},
    "commonwhy_eval_sample.py": {"sample"},
    "commonwhy_eval_score.py": {"score"},
    "commonwhy_eval_table2.py": {"table2"},
}


def _stage_modules(script: str) -> set[str]:
    return {p.stem for p in module_dependencies(SCRIPTS / script) if p.parent == EVAL / "stages"}


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
    for init in (EVAL / "__init__.py", EVAL / "stages/__init__.py"):
        tree = ast.parse(init.read_text())
        assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))], init
