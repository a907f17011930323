"""Re-normalisation on hand-made samples records, where per character and per byte disagree."""

from __future__ import annotations

import json

import pytest
import yaml

from benchval.lmeval.errors import LmEvalImportError
from benchval.lmeval.recompute import predictions, with_lengths
from benchval.lmeval.samples import read_samples


def _record(doc_id, target, options):
    """A 0.4.13-style record; ``options``: (continuation, log-likelihood) pairs."""
    return {
        "doc_id": doc_id,
        "target": str(target),
        "arguments": {f"gen_args_{i}": {"arg_0": "Q:", "arg_1": c} for i, (c, _) in enumerate(options)},
        "filtered_resps": [[str(lp), "False"] for _, lp in options],
        "filter": "none",
        "doc_hash": f"h{doc_id}",
    }


def test_per_char_and_per_byte_differ_on_non_ascii_choices(tmp_path):
    # choice " éé" has 2 characters but 4 bytes; " ab" 2 and 2 (the delimiter " " is not counted)
    path = tmp_path / "samples_t_2024.jsonl"
    path.write_text(json.dumps(_record(0, 0, [(" éé", -3.0), (" abc", -4.0)])) + "\n")
    rows = with_lengths(read_samples(path), " ")
    assert list(rows["n_chars"]) == [2, 3] and list(rows["n_bytes"]) == [4, 3]
    # sum: -3 > -4 -> 0; per char: -1.5 < -1.33 -> 1; per byte: -0.75 > -1.33 -> 0
    assert predictions(rows, "sum", "plain")["prediction"].tolist() == [0]
    assert predictions(rows, "per_char", "plain")["prediction"].tolist() == [1]
    assert predictions(rows, "per_byte", "plain")["prediction"].tolist() == [0]


def test_unknown_normalisation_and_calibrated_without_priors_are_rejected(tmp_path):
    path = tmp_path / "samples_t_2024.jsonl"
    path.write_text(json.dumps(_record(0, 1, [(" a", -1.0), (" b", -2.0)])) + "\n")
    rows = with_lengths(read_samples(path), " ")
    with pytest.raises(LmEvalImportError, match="normalisation 'per_word' is not one of"):
        predictions(rows, "per_word", "plain", str(path))
    with pytest.raises(LmEvalImportError, match="calibrated task without the N/A prior requests"):
        predictions(rows, "sum", "calibrated", str(path))


@pytest.mark.parametrize(
    "edit, match",
    [
        (lambda r: r.update(target="7"), r"line 1: target 7 is not an option index \(0..1\)"),
        (lambda r: r.update(target=True), r"line 1: target True is not an option index"),
        (lambda r: r["filtered_resps"][0].__setitem__(1, "maybe"), r"line 1: option 0: greedy flag 'maybe'"),
        (lambda r: r["filtered_resps"][0].__setitem__(0, None), r"line 1: option 0: log-likelihood None"),
        (lambda r: r["filtered_resps"][0].__setitem__(0, "nan"), r"line 1: option 0: log-likelihood is NaN"),
        (lambda r: r.update(filter="strict-match"), r"line 1: filter 'strict-match': only multiple_choice"),
        (lambda r: r.pop("doc_id"), r"line 1: not a samples record \(no 'doc_id'\)"),
        (lambda r: r.update(arguments="x"), r"line 1: 'arguments' is not a list of \[context, continuation\] pairs"),
    ],
)
def test_bad_records_fail_naming_file_and_line(tmp_path, edit, match):
    record = _record(0, 1, [(" a", -1.0), (" b", -2.0)])
    edit(record)
    path = tmp_path / "samples_t_2024.jsonl"
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(LmEvalImportError, match="samples_t_2024.jsonl: " + match):
        read_samples(path)


def _schema_errors(study: dict) -> list[str]:
    from jsonschema import Draft202012Validator

    from benchval.plumbing.folders import REPO_ROOT

    schema = yaml.safe_load((REPO_ROOT / "workflow/schemas/studies.schema.yaml").read_text())
    errors = Draft202012Validator(schema).iter_errors({"s": study})
    return [inner.message for error in errors for inner in (error.context or [error])]


def test_schema_needs_metrics_without_samples_only():
    study = {
        "source": "lm_eval",
        "path": "runs",
        "models": {"m": {"name": "m", "family": "f"}},
        "tasks": {"t": {"harness_task": "t", "role": "control"}},
    }
    reasons = _schema_errors(study)  # results JSON only: the metrics mapping is needed (size_b: from the run)
    assert "'metrics' is a required property" in reasons and "'size_b' is a required property" not in reasons
    assert not _schema_errors({**study, "samples": {"normalisation": "per_char"}})
    assert any(
        "'per_word' is not one of" in r for r in _schema_errors({**study, "samples": {"normalisation": "per_word"}})
    )
    assert any("'f1' is not one of" in r for r in _schema_errors({**study, "samples": {"metrics": ["f1"]}}))
    complete = {
        **study,
        "models": {"m": {"name": "m", "family": "f", "size_b": 1}},
        "tasks": {"t": {"harness_task": "t", "role": "control", "metrics": {"accuracy": "acc,none"}}},
    }
    assert not _schema_errors(complete)
