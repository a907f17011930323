"""Claims in the docs about the code (which rules a key's edit plans, which modules do a thing), each read
from the doc and checked against the code or the test that measures it, so that the sentence cannot drift.

File and module names the docs give are checked in tests/test_docs_references.py; the pages drawn from the
code (docs/architecture.md, config/README.md's tables) in tests/test_generated_files.py and
tests/test_configuration_docs.py."""

from __future__ import annotations

import ast
import re

from benchval.plumbing.folders import REPO_ROOT

DOCS = REPO_ROOT / "docs"


def paragraph_text(path) -> str:
    """The page as one line of text (a sentence may wrap)."""
    return " ".join(line.strip() for line in path.read_text(encoding="utf-8").splitlines())


def rules_named_in(sentence: str) -> set[str]:
    """The rule names (backticked snake_case words without dots) a sentence gives."""
    return {name for name in re.findall(r"`([a-z][a-z0-9_]*)`", sentence) if "_" in name}


def ridge_alpha_sentence(text: str) -> str:
    match = re.search(
        r"Editing `analysis\.ridge_alpha` plans the rules that name it, (.+?), and what follows them", text
    )
    assert match, "docs/workflow.md no longer says which rules an edit of analysis.ridge_alpha plans"
    return match.group(1)


def test_the_rules_an_edit_of_ridge_alpha_plans_are_those_the_dry_run_finds():
    from tests.test_rule_family_reruns import EDITS

    key, _, naming_rules, _ = EDITS["analysis"]
    assert key == "analysis.ridge_alpha"
    named = rules_named_in(ridge_alpha_sentence(paragraph_text(DOCS / "workflow.md")))
    assert named == naming_rules, f"docs/workflow.md names {sorted(named)}; the dry run plans {sorted(naming_rules)}"


def test_the_ridge_alpha_check_rejects_the_old_sentence():
    old = "Editing `analysis.ridge_alpha` plans the rules that name it, `analysis_lofo`, and what follows them"
    assert rules_named_in(ridge_alpha_sentence(old)) == {"analysis_lofo"}  # power_planning missing: != EDITS


def modules_calling(function: str, package=REPO_ROOT / "src" / "benchval") -> set[str]:
    """Dotted names of the package modules (not benchval.testing) that call ``function``."""
    found = set()
    for path in sorted(package.rglob("*.py")):
        module = ".".join(path.relative_to(package.parent).with_suffix("").parts).removesuffix(".__init__")
        if module.startswith("benchval.testing"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == function:
                found.add(module)
    return found - {"benchval.plumbing.config"}  # its definition's own module


def test_the_library_places_that_fill_section_defaults_are_those_the_doc_names():
    text = paragraph_text(DOCS / "configuration.md")
    match = re.search(r"Besides benchmarks and tests it is called in (\w+) library places, (.+?)\. An enum", text)
    assert match, "docs/configuration.md no longer names the library callers of section_defaults"
    named = set(re.findall(r"`(benchval\.[a-z_.]+)`", match.group(2)))
    callers = modules_calling("section_defaults")
    assert named == callers, f"the doc names {sorted(named)}; the code calls it in {sorted(callers)}"
    words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    assert words.get(match.group(1)) == len(callers), f"the doc says {match.group(1)}; {len(callers)} modules"


def test_the_caller_scan_finds_a_call(tmp_path):
    package = tmp_path / "benchval"
    (package / "x").mkdir(parents=True)
    (package / "x" / "a.py").write_text("from m import f\nf('s')\n")
    (package / "x" / "b.py").write_text("import m\nm.f('s')\n")
    (package / "x" / "c.py").write_text("def f(): pass\n")
    assert modules_calling("f", package) == {"benchval.x.a", "benchval.x.b"}


def test_every_figure_has_its_own_module_and_script():
    """docs/workflow.md: "Each figure has its own module (benchval/analysis/figures/<stem>.py) and its own
    script (analysis_figure_<stem>.py)"."""
    from benchval.analysis.outputs import FIGURE_STEMS

    assert "Each figure has its own module" in paragraph_text(DOCS / "workflow.md")
    missing = [
        path
        for stem in FIGURE_STEMS
        for path in (f"src/benchval/analysis/figures/{stem}.py", f"workflow/scripts/analysis_figure_{stem}.py")
        if not (REPO_ROOT / path).is_file()
    ]
    assert not missing, missing


def section(text: str, heading_start: str) -> str:
    """The text of the docs/data-contract.md section whose heading starts with ``heading_start``."""
    match = re.search(rf"^{re.escape(heading_start)}.*?(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"no section {heading_start!r}"
    return match.group(0)


def test_the_metrics_files_columns_and_owner_are_those_the_code_writes():
    """docs/data-contract.md, "3. Metrics": the owner named is the module that defines the columns it writes,
    and the columns listed are those (the doc had named benchval.evaluation.metrics, which writes no file,
    and left out ``note``)."""
    from benchval.evaluation import evaluate

    text = section((DOCS / "data-contract.md").read_text(encoding="utf-8"), "## 3. Metrics")
    owner = re.search(r"\(owner: `(benchval\.[a-z_.]+)`\)", text).group(1)
    assert owner == evaluate.__name__
    listed = re.search(r"^`([a-z_, ]+)`", text, re.MULTILINE).group(1).split(", ")
    assert listed == evaluate.METRICS_COLUMNS


def test_every_owner_module_writes_its_format():
    """docs/data-contract.md: every section's owner module defines a ``write_*`` function or the columns constant
    of what it writes."""
    import importlib

    text = (DOCS / "data-contract.md").read_text(encoding="utf-8")
    owners = re.findall(r"\(owner: `(benchval\.[a-z_.]+)`", text)
    assert owners
    without = []
    for owner in owners:
        names = dir(importlib.import_module(owner))
        if not any(name.startswith("write_") or name.endswith("_COLUMNS") for name in names):
            without.append(owner)
    assert not without, f"owner modules that write nothing: {without}"


def test_the_model_counts_the_readmes_give_are_the_config_files():
    """README.md: "paper.yaml = the paper's 23-model study"; config/README.md: "config.yaml ... 3 small models"."""
    import yaml

    def declared(name: str) -> int:
        return len(yaml.safe_load((REPO_ROOT / "config" / name).read_text(encoding="utf-8"))["models"])

    readme, config_readme = paragraph_text(REPO_ROOT / "README.md"), paragraph_text(REPO_ROOT / "config" / "README.md")
    paper = {int(n) for n in re.findall(r"paper's (\d+)-model study", readme + " " + config_readme)}
    small = {int(n) for n in re.findall(r"(\d+) small models", config_readme)}
    assert paper == {declared("paper.yaml")}, paper
    assert small == {declared("config.yaml")}, small


def rules_reading_raw_files_by_content(rule_files) -> dict[str, tuple[bool, bool]]:
    """{rule: (its params give its raw inputs' content, its script checks them)} of every rule that does either
    (docs/workflow.md, "Raw files by content": the sha256 a param, the job's check; that the inputs are
    ancient() tests/test_rule_family_reruns.py shows: a mirror copied again plans nothing)."""
    found = {}
    for path in rule_files:
        for body in re.split(r"^(?=rule \w+:)", path.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]:
            name = re.match(r"rule (\w+):", body)[1]
            script = re.search(r'"\.\./scripts/(\w+\.py)"', body)
            code = (REPO_ROOT / "workflow/scripts" / script[1]).read_text(encoding="utf-8") if script else ""
            by_content = bool(re.search(r"^\s+(raw_content|lmeval_content|checksums)=", body, re.MULTILINE))
            checked = "verify_raw_content(" in code or "verify_raw_files(" in code or name == "prepare_task"
            if by_content or checked:
                found[name] = (by_content, checked)
    return found


def test_every_rule_that_reads_raw_files_by_content_checks_them_and_the_reverse():
    found = rules_reading_raw_files_by_content(sorted((REPO_ROOT / "workflow/rules").glob("*.smk")))
    assert {"commonwhy_published", "kg_store", "items_responses", "atlas_sources", "prepare_task"} <= set(found)
    assert {rule: both for rule, both in found.items() if both != (True, True)} == {}


def test_the_raw_content_check_rejects_a_rule_without_the_param(tmp_path):
    """A rule whose script checks its raw files but whose params do not give their content."""
    rules = tmp_path / "r.smk"
    rules.write_text(
        'rule kg_store:\n    input:\n        "x"\n    script:\n        "../scripts/commonwhy_kg_store.py"\n'
    )
    assert rules_reading_raw_files_by_content([rules]) == {"kg_store": (False, True)}
