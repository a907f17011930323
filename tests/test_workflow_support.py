"""benchval.jobs.reruns: canonical params, code digests, working-directory-relative paths."""

from __future__ import annotations

from benchval.jobs.reruns import canonical, code_digest, imported_modules, module_dependencies, workdir_relative


def test_canonical_sorts_keys_recursively_and_keeps_list_order():
    a = canonical({"b": 1, "a": {"y": [3, 1], "x": (2,)}})
    b = canonical({"a": {"x": [2], "y": [3, 1]}, "b": 1})
    assert repr(a) == repr(b) == "{'a': {'x': [2], 'y': [3, 1]}, 'b': 1}"


def test_imports_found_anywhere_and_relative_ones_resolved():
    source = "import os\nfrom benchval.analysis import lofo\ndef f():\n    from . import sibling\n"
    assert imported_modules(source, "benchval.analysis.chain") == {
        "benchval.analysis",
        "benchval.analysis.lofo",
        "benchval.analysis.sibling",
    }


def _package(root):
    package = root / "benchval"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "a.py").write_text("from benchval.sub.b import value\n")
    (package / "sub" / "b.py").write_text("value = 1\n")
    (package / "sub" / "unused.py").write_text("value = 2\n")
    script = root / "script.py"
    script.write_text("from benchval.sub import a\n")
    return package, script


def test_code_digest_covers_the_transitive_imports_only(tmp_path):
    package, script = _package(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in module_dependencies(script, package)] == [
        "benchval/__init__.py",
        "benchval/sub/__init__.py",
        "benchval/sub/a.py",
        "benchval/sub/b.py",
    ]
    before = code_digest(script, package)
    assert set(before) == {
        "script:script.py",
        "benchval/__init__.py",
        "benchval/sub/__init__.py",
        "benchval/sub/a.py",
        "benchval/sub/b.py",
    }
    moved = tmp_path / "moved"
    moved.mkdir()
    package2, script2 = _package(moved)
    assert code_digest(script2, package2) == before  # content, not location
    (package2 / "sub" / "b.py").write_text("value = 3\n")
    from benchval.jobs import reruns

    reruns._file_hash.cache_clear()
    after = code_digest(script2, package2)
    assert {key for key in after if after[key] != before[key]} == {"benchval/sub/b.py"}


def test_workdir_relative(tmp_path):
    (tmp_path / "data").mkdir()
    assert workdir_relative(tmp_path / "data" / "x.csv", tmp_path / "work") == "../data/x.csv"
    assert workdir_relative(None) is None
