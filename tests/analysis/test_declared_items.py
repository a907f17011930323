"""benchval.analysis.declared_items: the item counts an imported study declares."""

from benchval.analysis.declared_items import declared_item_counts


def test_declared_counts_leave_out_tasks_without_one():
    spec = {"tasks": {"a": {"n_items": 500}, "b": {"label": "B"}}}
    assert declared_item_counts(spec) == {"a": 500}
    assert declared_item_counts({"tasks": ["a", "b"]}) == {}  # a list of tasks declares no counts
    assert declared_item_counts({}) == {}
