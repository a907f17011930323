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


def _hand_written_logs(bodies: list[RuleBody]) -> list[str]:
    """Rules that write a log or benchmark path by hand: every rule's come from its name
    (benchval.jobs.job_logs, docs/workflow.md "Conventions"), so that its name is written once."""
    return [
        f"{body}: {directive}" for body in bodies for directive in ("log:", "benchmark:") if directive in body.lines
    ]


def test_no_rule_writes_its_log_or_benchmark_by_hand():
    found = _hand_written_logs(bodies_of(RULE_FILES))
    assert not found, "\n".join(found)


def test_a_hand_written_log_is_rejected():
    text = """
rule atlas_pairs:
    log:
        "logs/atlas_pairs/atlas_pairs.log",
    output:
        "x.csv",
"""
    assert _hand_written_logs(rule_bodies(text, "m")) == ["rule atlas_pairs (m:2): log:"]


def test_every_rule_file_gives_its_rules_logs_and_benchmarks():
    """Each rule file ends with the one call that gives its rules their log and benchmark files."""
    call = "add_logs_and_benchmarks(workflow.rules, workflow.current_basedir, workflow.modifier.path_modifier)"
    missing = [
        path.name
        for path in RULE_FILES[1:]
        if rule_bodies(path.read_text(), path.name) and not path.read_text().rstrip().endswith(call)
    ]
    assert not missing, missing
