"""No two rule bodies of the workflow share six or more consecutive lines (issue 22: "rule files that
repeat themselves"). A repeated block belongs in one rule declared in a loop (as score, calibrate and
evaluate are: benchval.jobs.layout.Layout.model_job_rules) or in a helper of the rule file.

Lines are compared with their whitespace normalised; blank lines and comment-only lines do not count.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path


REPO = Path(__file__).resolve().parents[1]
MIN_SHARED = 6
RULE_FILES = [REPO / "workflow" / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]
RULE_START = re.compile(r"^(?P<indent> *)(?:rule|checkpoint) ?(?P<name>\w*):[ \t]*(?:#.*)?$")
NAME_LINE = re.compile(r"^\s*name:\s*$")


@dataclass(frozen=True)
class RuleBody:
    where: str  # file:line of the rule keyword
    name: str  # the rule's name, or the expression after `name:` for a rule declared in a loop
    lines: tuple[str, ...]  # normalised: whitespace collapsed, blank and comment-only lines left out

    def __str__(self) -> str:
        return f"rule {self.name} ({self.where})"


def normalise(line: str) -> str:
    return " ".join(line.split())


def rule_bodies(text: str, source: str) -> list[RuleBody]:
    """Every ``rule`` (and ``checkpoint``) of a Snakefile's text with the lines of its body: the lines
    indented deeper than the keyword, up to the first line that is not."""
    lines = text.splitlines()
    bodies = []
    for start, line in enumerate(lines):
        match = RULE_START.match(line)
        if not match:
            continue
        indent = len(match["indent"])
        body = []
        for following in lines[start + 1 :]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            body.append(following)
        name = match["name"] or _loop_name(body)
        kept = tuple(normalise(b) for b in body if b.strip() and not b.strip().startswith("#"))
        kept = _without_environment(kept)
        bodies.append(RuleBody(f"{source}:{start + 1}", name, kept))
    return bodies


# the one software environment every rule declares (docs/workflow.md, "Conventions"): not a repeated block
ENVIRONMENT = ("conda:", '"../envs/benchval.yaml"')


def _without_environment(lines: tuple[str, ...]) -> tuple[str, ...]:
    for index in range(len(lines) - 1):
        if lines[index : index + 2] == ENVIRONMENT:
            return lines[:index] + lines[index + 2 :]
    return lines


def _loop_name(body: list[str]) -> str:
    """The expression under ``name:`` of an anonymous rule (e.g. ``"score" + _rule.suffix``)."""
    for index, line in enumerate(body[:-1]):
        if NAME_LINE.match(line):
            return normalise(body[index + 1])
    return "<anonymous>"


def shared_blocks(bodies: list[RuleBody], min_lines: int = MIN_SHARED) -> list[tuple[RuleBody, RuleBody, tuple]]:
    """(body, other body, lines) for each pair of bodies that share a run of ``min_lines`` consecutive
    lines: the first such run, extended as far as both go on together."""
    seen = defaultdict(list)  # window of min_lines lines -> [(body index, start)]
    for index, body in enumerate(bodies):
        for start in range(len(body.lines) - min_lines + 1):
            seen[body.lines[start : start + min_lines]].append((index, start))
    found = {}
    for places in seen.values():
        for i, (a, start_a) in enumerate(places):
            for b, start_b in places[i + 1 :]:
                if a == b or (a, b) in found:
                    continue
                run = min_lines
                lines_a, lines_b = bodies[a].lines, bodies[b].lines
                while (
                    start_a + run < len(lines_a)
                    and start_b + run < len(lines_b)
                    and lines_a[start_a + run] == lines_b[start_b + run]
                ):
                    run += 1
                found[(a, b)] = (bodies[a], bodies[b], lines_a[start_a : start_a + run])
    return list(found.values())


def bodies_of(paths: list[Path]) -> list[RuleBody]:
    return [body for path in paths for body in rule_bodies(path.read_text(), str(path.relative_to(REPO)))]


def report(shared) -> str:
    return "\n\n".join(f"{a} and {b} share {len(lines)} lines:\n    " + "\n    ".join(lines) for a, b, lines in shared)


MADE_UP = """
rule first:
    input:
        "a.txt",
    output:
        "b.txt",
    log:
        "logs/first/first.log",
    params:
        seed=config["seed"],
        alpha=config["alpha"],
        beta=config["beta"],
        code=script_code("x.py"),
    script:
        "../scripts/x.py"


for _x in range(2):

    rule:
        name:
            f"second_{_x}"
        log:
            "logs/second/second.log",
        params:
            seed=config["seed"],
              alpha=config["alpha"],
            beta=config["beta"],
            code=script_code("x.py"),
        script:
            "../scripts/x.py"
"""


def test_a_made_up_pair_sharing_six_lines_is_rejected():
    bodies = rule_bodies(MADE_UP, "made-up.smk")
    assert [body.name for body in bodies] == ["first", 'f"second_{_x}"']
    shared = shared_blocks(bodies)
    print(report(shared))
    assert len(shared) == 1
    first, second, lines = shared[0]
    assert (first.name, second.name) == ("first", 'f"second_{_x}"')
    # whitespace normalised: the odd indentation of alpha does not hide the repeat
    assert lines == (
        "params:",
        'seed=config["seed"],',
        'alpha=config["alpha"],',
        'beta=config["beta"],',
        'code=script_code("x.py"),',
        "script:",
        '"../scripts/x.py"',
    )
    assert 'rule first (made-up.smk:2) and rule f"second_{_x}" (made-up.smk:' in report(shared)


def test_shared_lines_that_are_not_six_in_a_row_pass():
    """Change one line of the seven in the middle: runs of four and two lines are left."""
    bodies = rule_bodies(
        MADE_UP.replace('            code=script_code("x.py"),', '            code=script_code("y.py"),'), "m"
    )
    assert len(bodies) == 2 and shared_blocks(bodies) == []


def test_every_rule_file_is_split_into_rule_bodies():
    bodies = bodies_of(RULE_FILES)
    names = {body.name for body in bodies}
    assert {"all", "prepare_task", "score_table", 'f"score{_rule.suffix}"', 'f"evaluate{_rule.suffix}"'} <= names
    assert all(body.lines for body in bodies), [str(b) for b in bodies if not b.lines]


def test_no_two_rule_bodies_share_six_lines():
    """Every rule file and the Snakefile."""
    shared = shared_blocks(bodies_of(RULE_FILES))
    assert not shared, report(shared)


JOB_DIRECTIVES = ("script:", "shell:", "run:", "wrapper:", "notebook:", "cwl:")
# the attributes of Snakemake's Rule objects a rule file or module once changed after the rule was declared
RULE_ATTRIBUTE_CHANGE = re.compile(
    r"\.(set_(log|input|output|params|wildcard_constraints)\(|(log|benchmark|log_modifier|benchmark_modifier)\s*=[^=])"
)


def _logs_not_in_the_rule(bodies: list[RuleBody]) -> list[str]:
    """Rules that run a job but do not write ``log: logs(...)`` and ``benchmark: benchmarks(...)`` in the
    rule, and target rules that write either (benchval.jobs.job_logs, docs/workflow.md "Conventions")."""
    found = []
    for body in bodies:
        runs = any(line in JOB_DIRECTIVES for line in body.lines)
        for directive, helper in (("log:", "logs("), ("benchmark:", "benchmarks(")):
            index = body.lines.index(directive) if directive in body.lines else None
            written = index is not None and body.lines[index + 1].startswith(helper)
            if runs and not written:
                found.append(f"{body}: no {directive} {helper}...)")
            elif not runs and index is not None:
                found.append(f"{body}: a target rule with {directive}")
    return found


def test_every_rule_that_runs_a_job_writes_its_log_and_benchmark_through_the_helpers():
    found = _logs_not_in_the_rule(bodies_of(RULE_FILES))
    assert not found, "\n".join(found)


def test_a_rule_without_its_log_or_with_a_log_by_hand_is_rejected():
    text = """
rule atlas_pairs:
    output:
        "x.csv",
    log:
        "logs/atlas_pairs/atlas_pairs.log",
    script:
        "x.py"


rule all:
    input:
        "x.csv",
    benchmark:
        benchmarks("all/all.tsv")
"""
    assert _logs_not_in_the_rule(rule_bodies(text, "m")) == [
        "rule atlas_pairs (m:2): no log: logs(...)",
        "rule atlas_pairs (m:2): no benchmark: benchmarks(...)",
        "rule all (m:11): a target rule with benchmark:",
    ]


def _rule_attribute_changes(path: Path) -> list[str]:
    return [
        f"{path.name}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if RULE_ATTRIBUTE_CHANGE.search(line) and not line.lstrip().startswith("#")
    ]


def test_no_rule_file_or_module_changes_snakemakes_rule_objects():
    """A rule is what its text says: no ``rule.set_log(...)``, ``rule.benchmark = ...`` afterwards."""
    files = [*RULE_FILES, *sorted((REPO / "src" / "benchval" / "jobs").rglob("*.py"))]
    found = [change for path in files for change in _rule_attribute_changes(path)]
    assert not found, "\n".join(found)


def test_a_rule_attribute_change_is_rejected(tmp_path):
    module = tmp_path / "x.py"
    module.write_text("rule.set_log(path)\nrule.benchmark = b\nrule.log_modifier = m\nif rule.log == []:\n")
    found = [line.split(": ", 1)[1] for line in _rule_attribute_changes(module)]
    assert found == ["rule.set_log(path)", "rule.benchmark = b", "rule.log_modifier = m"]


ASSIGNED = re.compile(r"^([A-Za-z_]\w*)\s*=(?!=)", re.MULTILINE)


def _foreign_globals(texts: dict[str, str]) -> list[str]:
    """``<name> (from <file>) in <file>``: a name one rule file assigns at top level and another uses without
    assigning or importing it itself (it would only work with the files included in that order)."""
    assigned = {name: file for file, text in texts.items() for name in ASSIGNED.findall(text)}
    found = []
    for file, text in texts.items():
        own = set(ASSIGNED.findall(text)) | set(re.findall(r"\bimport\b[^\n]*?\b(\w+)\s*$", text, re.MULTILINE))
        own |= {
            name
            for line in re.findall(r"^from .* import (.*)$", text, re.MULTILINE)
            for name in re.findall(r"\w+", line)
        }
        own |= {
            name
            for block in re.findall(r"^from .* import \(([^)]*)\)", text, re.MULTILINE)
            for name in re.findall(r"\w+", block)
        }
        for name, origin in sorted(assigned.items()):
            if origin != file and name not in own and re.search(rf"(?<![\w.]){name}\b", text):
                found.append(f"{name} (from {origin}) in {file}")
    return found


def test_no_rule_file_reads_another_rule_files_globals():
    """Each rule file (and the Snakefile) imports or assigns every name it uses (docs/workflow.md, "Layout")."""
    found = _foreign_globals({path.name: path.read_text() for path in RULE_FILES})
    assert not found, found


def test_a_rule_file_reading_another_files_global_is_rejected():
    texts = {
        "atlas.smk": "atlas_outputs = partial(outputs, config)\nLAYOUT = workflow_layout(config)\n",
        "report.smk": 'from x import workflow_layout\nLAYOUT = workflow_layout(config)\na=globals()["atlas_outputs"]\n',
        "publish.smk": "item=lambda w: atlas_outputs()\n",
    }
    assert _foreign_globals(texts) == [
        "atlas_outputs (from atlas.smk) in report.smk",
        "atlas_outputs (from atlas.smk) in publish.smk",
    ]


# Rule files share one namespace: a helper two files assign is the later file's in both, as their functions read
# it when a job is planned (helpers several files need live in a module: benchval.jobs.study_inputs). Each
# file's kit (LAYOUT, config_provider, script_code) is assigned in every file on purpose.
OWN_IN_EVERY_FILE = {"LAYOUT", "config_provider", "script_code"}


def _assignments(text: str) -> dict[str, str]:
    """{name: its statement} of every top-level assignment (continuation lines included)."""
    found, lines = {}, text.splitlines()
    for start, line in enumerate(lines):
        match = ASSIGNED.match(line)
        if not match:
            continue
        block = [line]
        for following in lines[start + 1 :]:
            if following and not following[0].isspace() and not following.startswith((")", "]", "}")):
                break
            block.append(following)
        found[match[1]] = "\n".join(block).strip()
    return found


def _diverging_helpers(texts: dict[str, str]) -> list[str]:
    definitions: dict[str, dict[str, list[str]]] = {}
    for file, text in texts.items():
        for name, statement in _assignments(text).items():
            definitions.setdefault(name, {}).setdefault(statement, []).append(file)
    return [
        f"{name}: {sorted(f for files in statements.values() for f in files)}"
        for name, statements in sorted(definitions.items())
        if len(statements) > 1 and name not in OWN_IN_EVERY_FILE
    ]


def test_a_helper_two_rule_files_assign_is_the_same_in_both():
    assert not _diverging_helpers({path.name: path.read_text() for path in RULE_FILES})


def test_a_helper_assigned_differently_in_two_rule_files_is_rejected():
    texts = {
        "a.smk": "_pairs = lambda study: [study]\nLAYOUT = workflow_layout(config)\n",
        "b.smk": "_pairs = lambda study: []\nLAYOUT = workflow_layout(config)  # here too\n",
        "c.smk": "_same = (\n    1,\n)\n",
        "d.smk": "_same = (\n    1,\n)\n",
    }
    assert _diverging_helpers(texts) == ["_pairs: ['a.smk', 'b.smk']"]
