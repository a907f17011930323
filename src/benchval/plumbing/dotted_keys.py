"""Dotted config keys: pick the named keys of a config section, and guard what a job reads of them.

A key is a dotted path into a section: ``"generation"`` is the whole sub-section, ``"judge.prompt"`` one
entry of it. :func:`pick` takes the named keys (the value a rule passes to its job,
benchval.jobs.rule_settings); :func:`guarded` gives a job those keys and raises :class:`UndeclaredSetting`,
naming the key, when it reads any other (benchval.commonwhy.eval.stage_keys). This module imports nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping


class UndeclaredSetting(KeyError):
    """A job read a config key its rule does not pass."""

    def __str__(self) -> str:
        return str(self.args[0])


def key_tree(keys) -> dict:
    """Dotted keys as a tree; ``True`` marks a key passed whole."""
    tree: dict = {}
    for key in keys:
        node = tree
        *parents, last = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = True
    return tree


def pick(section: Mapping, keys, where: str, missing: str = "error") -> dict:
    """The named dotted ``keys`` of ``section`` (named ``where`` in errors), as nested dicts.

    ``missing="error"``: a key the section lacks is a KeyError naming it; ``"skip"``: it is left out (an
    optional key: adding it later changes the value, so it reruns the rule)."""
    return _pick(section, key_tree(keys), where, missing)


def _pick(section: Mapping, tree: Mapping, where: str, missing: str) -> dict:
    picked = {}
    for key, sub in tree.items():
        if key not in section:
            if missing == "skip":
                continue
            raise KeyError(f"{where}: no key {key!r}")
        picked[key] = section[key] if sub is True else _pick(section[key], sub, f"{where}.{key}", missing)
    return picked


class GuardedSettings(Mapping):
    """The settings one job may read; reading any other key raises :class:`UndeclaredSetting`."""

    def __init__(self, values: Mapping, tree: Mapping, hint, where: str = ""):
        self._values, self._tree, self._hint, self._where = values, tree, hint, where

    def _declared(self, key: str) -> None:
        if key not in self._tree:
            raise UndeclaredSetting(self._hint(f"{self._where}.{key}"))

    def __getitem__(self, key: str):
        self._declared(key)
        sub = self._tree[key]
        value = self._values[key]
        return value if sub is True else GuardedSettings(value, sub, self._hint, f"{self._where}.{key}")

    def get(self, key: str, default=None):
        return self[key]  # a declared key is always given (checked_keys checks); an undeclared one raises

    def __contains__(self, key) -> bool:
        self._declared(key)
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._tree)

    def __len__(self) -> int:
        return len(self._tree)


def given_keys(given: Mapping, tree: Mapping, where: str = "") -> tuple[list[str], list[str]]:
    """(declared keys missing from ``given``, keys of ``given`` not declared), as dotted paths."""
    missing = [f"{where}{k}" for k in tree if k not in given]
    extra = [f"{where}{k}" for k in given if k not in tree]
    for key, sub in tree.items():
        if sub is not True and key in given:
            if not isinstance(given[key], Mapping):
                missing.append(f"{where}{key}.*")
                continue
            more_missing, more_extra = given_keys(given[key], sub, f"{where}{key}.")
            missing += more_missing
            extra += more_extra
    return missing, extra


def guarded(given: Mapping, keys, hint) -> GuardedSettings:
    """``given`` (what a rule passed) as :class:`GuardedSettings` of the declared ``keys``.

    ``hint(key)`` is the message for a read of the undeclared dotted ``key``. A key too few or too many in
    ``given`` is a ValueError naming it (the rule and the declaration disagree)."""
    tree = key_tree(keys)
    missing, extra = given_keys(given, tree)
    if missing or extra:
        raise ValueError(
            f"the rule passes the wrong keys (missing {missing}, not declared {extra}); declared: {list(keys)}"
        )
    return GuardedSettings(given, tree, hint)


def required_setting(given: Mapping, section: str, dotted: str, rule_file: str):
    """``<section>.<dotted>`` of the keys a rule passed (``given``: the section as the rule gave it); a ConfigError
    naming the key where it is absent (the schema's default is filled before a rule passes it)."""
    from benchval.plumbing.config_error import ConfigError  # noqa: PLC0415  (only a missing key needs it)

    value = given
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            raise ConfigError(
                f"{section}.{dotted}: missing from the settings this rule was given (its params: "
                f"config_provider('{section}', ...) in {rule_file}; the schema's default is filled before)"
            )
        value = value[part]
    return value
