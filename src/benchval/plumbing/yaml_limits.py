"""What a config file may expand to, bounded before anything reads its values (workflow/rules/common.smk calls
:func:`check_yaml_limits` on every config file first): its size, its nesting depth and the values its aliases
expand to. A 1.2 kB alias bomb in a study's ``missing_values`` (nine anchors, each ten uses of the one before:
10**9 strings) once took 2 min 19 s and 4.4 GB before the schema refused it, since validation expands every
alias. The count here is made on the composed node graph, where an alias is the node it names, computed once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import yaml

# libyaml's composer where PyYAML has it (as benchval.plumbing.strict_yaml)
_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: a config file's limits (this repository's largest config file has 21 kB, 10 levels, about 4,000 values)
MAX_YAML_BYTES = 1_000_000
MAX_YAML_DEPTH = 64
MAX_YAML_VALUES = 200_000


class YamlLimitError(ValueError):
    """A YAML file larger, deeper or expanding to more values than a config may; the message names file and line."""


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def expanded_sizes(root: yaml.Node) -> dict[int, tuple[int, int]]:
    """{id(node): (values it expands to, depth)} of every node under ``root``; a node an alias names again is
    counted at every use but computed once, so the count itself expands nothing."""
    sizes: dict[int, tuple[int, int]] = {}

    def visit(node: yaml.Node) -> tuple[int, int]:
        if id(node) not in sizes:
            sizes[id(node)] = (0, 0)  # a node that contains itself adds nothing more
            children = [visit(child) for child in _children(node)]
            sizes[id(node)] = (1 + sum(c[0] for c in children), 1 + max((c[1] for c in children), default=0))
        return sizes[id(node)]

    visit(root)
    return sizes


def _innermost(node: yaml.Node, over: Callable[[yaml.Node], bool]) -> yaml.Node:
    """The node over a limit whose children are each within it (where the expansion happens)."""
    while True:
        worse = [child for child in _children(node) if over(child)]
        if not worse:
            return node
        node = worse[0]


def _composed(path: Path) -> yaml.Node | None:
    with open(path, encoding="utf-8") as handle:
        try:
            return yaml.compose(handle, Loader=_BASE)
        except RecursionError:
            raise YamlLimitError(f"{path}: nested deeper than {MAX_YAML_DEPTH} levels") from None


def check_yaml_limits(paths: Iterable[str | Path]) -> None:
    """Every file within :data:`MAX_YAML_BYTES`, :data:`MAX_YAML_DEPTH` levels and :data:`MAX_YAML_VALUES` values
    (aliases expanded); else a :class:`YamlLimitError` naming file and line."""
    for path in map(Path, paths):
        size = path.stat().st_size
        if size > MAX_YAML_BYTES:
            raise YamlLimitError(f"{path}: {size:,} bytes, more than a config file may have ({MAX_YAML_BYTES:,})")
        root = _composed(path)
        if root is None:
            continue
        try:
            sizes = expanded_sizes(root)
        except RecursionError:
            raise YamlLimitError(f"{path}: nested deeper than {MAX_YAML_DEPTH} levels") from None
        for limit, index, what in (
            (MAX_YAML_VALUES, 0, "values with its aliases expanded"),
            (MAX_YAML_DEPTH, 1, "levels"),
        ):
            if sizes[id(root)][index] > limit:
                node = _innermost(root, lambda child: sizes[id(child)][index] > limit)  # noqa: B023 (used at once)
                raise YamlLimitError(
                    f"{path}: line {node.start_mark.line + 1}: expands to {sizes[id(node)][index]:,} {what}, more "
                    f"than a config may ({limit:,}); an alias (*name) repeats all its anchor holds: write it out"
                )
