"""An adapter module registers itself: a new module in benchval.tasks.downstream needs no registry list."""

from __future__ import annotations

import sys

import benchval.tasks.downstream
from benchval.tasks import base

MODULE = """
from benchval.tasks.base import Item, register


@register("selfregistered_toy")
def toy(source, report):
    return [Item("toy-1", "A toy context", [" yes", " no"], 0, 1)]
"""


def test_a_new_adapter_module_registers_itself(tmp_path, monkeypatch):
    base.import_adapter_modules()  # the real modules register into the real table first
    (tmp_path / "toy_adapter_module.py").write_text(MODULE, encoding="utf-8")
    package = benchval.tasks.downstream
    monkeypatch.setattr(package, "__path__", [*package.__path__, str(tmp_path)])
    monkeypatch.setattr(base, "_ADAPTERS", dict(base._ADAPTERS))
    monkeypatch.delitem(sys.modules, "benchval.tasks.downstream.toy_adapter_module", raising=False)
    try:
        adapter = base.get_adapter("selfregistered_toy")
        assert "selfregistered_toy" in base.known_adapters()
        items = list(adapter(base.AdapterInput("toy", {}, {}, 1), base.FilterReport("toy")))
        assert [item.id for item in items] == ["toy-1"]
    finally:
        sys.modules.pop("benchval.tasks.downstream.toy_adapter_module", None)


def test_every_adapter_module_is_found():
    """The paper's adapters, in commonsense.py and in downstream/, all register without a list."""
    names = set(base.known_adapters())
    assert {"winogrande", "hellaswag", "piqa_rup", "blimp", "timedial", "mmlu_redux"} <= names


def test_every_adapter_module_is_a_code_dependency_of_prepare_task():
    """Discovery by pkgutil is invisible to ast: benchval.jobs.reruns is told (IMPORTS_EVERY_MODULE_OF),
    so editing any adapter module reruns prepare_task."""
    from benchval.plumbing.folders import REPO_ROOT
    from benchval.jobs.reruns import module_dependencies

    files = {
        path.relative_to(REPO_ROOT / "src").as_posix()
        for path in module_dependencies(REPO_ROOT / "workflow" / "scripts" / "prepare_task.py")
    }
    adapters = {f"benchval/tasks/downstream/{name}.py" for name in ("blimp", "timedial", "trip")}
    assert {"benchval/tasks/commonsense.py", "benchval/tasks/options.py", *adapters} <= files
