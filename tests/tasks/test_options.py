"""Adapter options are read and checked one way for every adapter (benchval.tasks.options)."""

from __future__ import annotations

import pytest

from benchval.tasks.base import AdapterInput
from benchval.tasks.options import check_options, choice, option


def adapter_input(**options) -> AdapterInput:
    return AdapterInput("toy", {}, options, seed=1)


def test_unknown_option_names_task_and_key():
    with pytest.raises(KeyError, match=r"task 'toy': unknown option\(s\) \['tpyo'\]; known: \['a'\]"):
        check_options(adapter_input(a=1, tpyo=2), ["a"])
    check_options(adapter_input(a=1), ["a", "b"])


def test_required_option_and_default():
    assert option(adapter_input(a=0), "a") == 0
    assert option(adapter_input(), "a", None) is None
    with pytest.raises(KeyError, match=r"task 'toy': option 'a' is required"):
        option(adapter_input(), "a")


def test_choice_checks_the_allowed_values():
    assert choice(adapter_input(), "mode", ["keep", "drop"], "keep") == "keep"
    assert choice(adapter_input(mode="drop"), "mode", ["keep", "drop"], "keep") == "drop"
    with pytest.raises(KeyError, match=r"task 'toy': option 'mode' must be one of \['keep', 'drop'\], got 'dorp'"):
        choice(adapter_input(mode="dorp"), "mode", ["keep", "drop"], "keep")
