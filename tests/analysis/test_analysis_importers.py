import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from benchval.analysis.study_import import StudyImportError, expand_path
from benchval.lmeval.steps.import_score_table import import_study
from benchval.analysis.study_table import load_study
from benchval.plumbing.folders import REPO_ROOT, default_mirror

CSV_STUDY = {
    "source": "csv",
    "path": "{mirror}/scores.csv",
    "columns": {"model": "Model", "family": "Fam", "size_b": "Size"},
    "tasks": {
        "hs": {"column": "HS", "role": "cs_original", "axes": ["event"], "label": "HellaSwag"},
        "gs": {"column": "GS", "role": "cs_reworked", "pairs_with": "hs"},
        "trip": {"column": "TRIP", "role": "downstream", "axes": ["event"], "metric": "macro_f1"},
    },
}


def test_csv_importer(tmp_path):
    pd.DataFrame(
        {
            "Model": ["m1", "m2", "m3"],
            "Fam": ["a", "a", "b"],
            "Size": [1.0, 7.0, 3.0],
            "HS": [0.5, 0.6, None],
            "GS": [0.4, 0.5, 0.6],
            "TRIP": [0.3, 0.2, 0.1],
        }
    ).to_csv(tmp_path / "scores.csv", index=False)
    import_study("x", CSV_STUDY, tmp_path, tmp_path / "out/score_table.csv", tmp_path / "out/tasks.csv")
    study = load_study(tmp_path / "out/score_table.csv", tmp_path / "out/tasks.csv")
    assert study.metrics == ["accuracy", "macro_f1"]
    assert study.wide("accuracy").shape == (3, 2)
    assert pd.isna(study.wide("accuracy").at["m3", "hs"])  # missing cell -> no row
    assert study.wide("macro_f1").at["m2", "trip"] == 0.2
    assert study.tasks.at["gs", "pairs_with"] == "hs" and study.tasks.at["hs", "label"] == "HellaSwag"
    assert study.models.at["m2", "size_b"] == 7.0


def test_csv_importer_keeps_near_duplicates_distinct_unless_rounding_is_asked(tmp_path, caplog):
    """%.10g used to write 0.6 and 0.6 + 1e-12 as the same number: a tie that changes the ranks."""
    near = [0.6, 0.6 + 1e-12, 0.6 + 3e-12]
    pd.DataFrame(
        {
            "Model": ["m1", "m2", "m3"],
            "Fam": ["a", "a", "b"],
            "Size": [1.0, 7.0, 3.0],
            "HS": near,
            "GS": [0.4, 0.5, 0.6],
            "TRIP": [0.3, 0.2, 0.1],
        }
    ).to_csv(tmp_path / "scores.csv", index=False)
    import_study("x", CSV_STUDY, tmp_path, tmp_path / "full/score_table.csv", tmp_path / "full/tasks.csv")
    hs = load_study(tmp_path / "full/score_table.csv", tmp_path / "full/tasks.csv").wide("accuracy")["hs"]
    assert hs.tolist() == pd.read_csv(tmp_path / "scores.csv")["HS"].tolist()  # bit-identical round trip
    assert hs.rank().tolist() == [1.0, 2.0, 3.0]
    with caplog.at_level("INFO"):
        import_study(
            "x", {**CSV_STUDY, "round_digits": 10}, tmp_path, tmp_path / "r/score_table.csv", tmp_path / "r/tasks.csv"
        )
    rounded = load_study(tmp_path / "r/score_table.csv", tmp_path / "r/tasks.csv").wide("accuracy")["hs"]
    assert rounded.rank().tolist() == [2.0, 2.0, 2.0]
    assert "tied scores 0 -> 3" in caplog.text


def test_csv_importer_errors_name_the_column(tmp_path):
    pd.DataFrame({"Model": ["m1"], "Fam": ["a"], "Size": [1.0], "HS": [50.0], "GS": [0.4]}).to_csv(
        tmp_path / "scores.csv", index=False
    )
    with pytest.raises(StudyImportError, match=r"tasks.trip.column"):
        import_study("x", CSV_STUDY, tmp_path, tmp_path / "s.csv", tmp_path / "t.csv")
    study = {**CSV_STUDY, "tasks": {k: v for k, v in CSV_STUDY["tasks"].items() if k != "trip"}}
    with pytest.raises(StudyImportError, match=r"outside \[0, 1\]"):
        import_study("x", study, tmp_path, tmp_path / "s.csv", tmp_path / "t.csv")
    # mirror: null -> {mirror} is the download cache that rule fetch_raw_file fills (issue 15)
    assert expand_path("{mirror}/obsscaling/a.csv", None) == Path("resources/data/obsscaling/a.csv")


def write_result(path, model_args, results):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"results": results, "config": {"model_args": model_args}}))


def test_lm_eval_importer(tmp_path):
    runs = tmp_path / "runs"
    write_result(
        runs / "pythia/results_2024-01-01.json",
        "pretrained=EleutherAI/pythia-160m,dtype=float32",
        {"hellaswag": {"acc,none": 0.30, "acc_norm,none": 0.31}, "arc_challenge": {"acc,none": 0.2}},
    )
    write_result(
        runs / "pythia/results_2024-02-01.json",
        "pretrained=EleutherAI/pythia-160m,dtype=float32",
        {"hellaswag": {"acc,none": 0.32, "acc_norm,none": 0.33}},
    )  # later run overrides
    write_result(
        runs / "qwen/results.json",
        {"pretrained": "Qwen/Qwen2.5-0.5B"},
        {"hellaswag": {"acc,none": 0.40, "acc_norm,none": 0.5}, "arc_challenge": {"acc,none": 0.3}},
    )
    write_result(runs / "other/results.json", "pretrained=unknown/model", {"hellaswag": {"acc,none": 0.9}})
    (runs / "other/samples.json").write_text(json.dumps([1, 2]))
    study = {
        "source": "lm_eval",
        "path": str(runs),
        "models": {
            "EleutherAI/pythia-160m": {"name": "pythia-160m", "family": "pythia", "size_b": 0.16},
            "Qwen/Qwen2.5-0.5B": {"name": "qwen-0.5b", "family": "qwen", "size_b": 0.5},
        },
        "tasks": {
            "hellaswag": {"harness_task": "hellaswag", "role": "cs_original", "metrics": {"accuracy": "acc_norm,none"}},
            "arc": {
                "harness_task": "arc_challenge",
                "role": "downstream",
                "axes": ["event"],
                "metrics": {"accuracy": "acc,none"},
            },
        },
    }
    import_study("lm", study, None, tmp_path / "out/score_table.csv", tmp_path / "out/tasks.csv")
    loaded = load_study(tmp_path / "out/score_table.csv", tmp_path / "out/tasks.csv")
    wide = loaded.wide("accuracy")
    assert wide.at["pythia-160m", "hellaswag"] == 0.33 and wide.at["qwen-0.5b", "hellaswag"] == 0.5
    assert wide.at["pythia-160m", "arc"] == 0.2
    assert set(wide.index) == {"pythia-160m", "qwen-0.5b"}
    study["tasks"]["arc"]["metrics"] = {"accuracy": "acc_norm,none"}
    with pytest.raises(StudyImportError, match="has no key 'acc_norm,none'"):
        import_study("lm", study, None, tmp_path / "s.csv", tmp_path / "t.csv")


def test_obsscaling_study_from_config(tmp_path):
    mirror = default_mirror()
    if mirror is None or not (mirror / "obsscaling/base_llm_benchmark_eval.csv").is_file():
        pytest.skip(f"raw-data mirror with obsscaling not found (looked beside {REPO_ROOT})")
    config = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())
    import_study("obsscaling", config["studies"]["obsscaling"], mirror, tmp_path / "s.csv", tmp_path / "t.csv")
    study = load_study(tmp_path / "s.csv", tmp_path / "t.csv")
    assert len(study.models) == 148 and study.models.family.nunique() == 47
    wide = study.wide("score")
    assert wide.notna().sum().to_dict() == {
        "hellaswag": 148,
        "winogrande": 148,
        "xwinograd": 132,
        "mmlu": 148,
        "arc_challenge": 145,
        "truthfulqa": 148,
        "gsm8k": 148,
        "humaneval": 127,
    }
    assert study.tasks_with_role("downstream") == ["arc_challenge", "truthfulqa", "gsm8k", "humaneval"]


def test_csv_importer_uses_the_one_name_rule_for_duplicates(tmp_path):
    """'m1 ' and 'M1' are one model (benchval.analysis.model_names): a duplicate naming both lines."""
    pd.DataFrame(
        {
            "Model": ["m1 ", "M1"],
            "Fam": ["a", "a"],
            "Size": [1.0, 1.0],
            "HS": [0.5, 0.6],
            "GS": [0.4, 0.5],
            "TRIP": [0.3, 0.2],
        }
    ).to_csv(tmp_path / "scores.csv", index=False)
    with pytest.raises(StudyImportError, match=r"model 'M1' appears twice: line 2 and line 3 \(line 2 names it 'm1 '"):
        import_study("x", CSV_STUDY, tmp_path, tmp_path / "s.csv", tmp_path / "t.csv")


def test_csv_importer_keeps_models_without_a_size_and_any_scale_when_declared(tmp_path):
    pd.DataFrame(
        {
            "Model": ["m1", "m2", "m3", "m4", "m5", "m6"],
            "Fam": ["a", "a", "b", "b", "c", "c"],
            "Size": [1.0, None, 3.0, 4.0, 5.0, 6.0],
            "HS": [1010.0, 990.0, 1200.0, 1100.0, 1050.0, 1300.0],
            "GS": [0.4, 0.5, 0.6, 0.1, 0.2, 0.3],
            "TRIP": [0.3, 0.2, 0.1, 0.4, 0.6, 0.5],
        }
    ).to_csv(tmp_path / "scores.csv", index=False)
    with pytest.raises(StudyImportError, match=r"outside \[0, 1\]"):
        import_study("x", CSV_STUDY, tmp_path, tmp_path / "s.csv", tmp_path / "t.csv")
    import_study("x", {**CSV_STUDY, "value_range": "any"}, tmp_path, tmp_path / "s.csv", tmp_path / "t.csv")
    study = load_study(tmp_path / "s.csv", tmp_path / "t.csv")
    assert pd.isna(study.models.at["m2", "size_b"]) and study.wide("accuracy").at["m1", "hs"] == 1010.0
    bad = pd.read_csv(tmp_path / "scores.csv").assign(Size=[1.0, 0.0, 3.0, 4.0, 5.0, 6.0])
    bad.to_csv(tmp_path / "scores.csv", index=False)
    with pytest.raises(StudyImportError, match=r"line 3: size 0 is not a positive number"):
        import_study("x", CSV_STUDY, tmp_path, tmp_path / "s.csv", tmp_path / "t.csv")


def _results_only_study(runs, models):
    return {
        "source": "lm_eval",
        "path": str(runs),
        "models": models,
        "tasks": {
            "hellaswag": {"harness_task": "hellaswag", "role": "cs_original", "metrics": {"accuracy": "acc,none"}},
        },
    }


def test_lm_eval_results_only_reads_the_size_from_the_run(tmp_path):
    """Provenance read, not retyped: without samples, size_b comes from config.model_num_parameters."""
    runs = tmp_path / "runs"
    runs.joinpath("a").mkdir(parents=True)
    runs.joinpath("a/results.json").write_text(
        json.dumps(
            {
                "results": {"hellaswag": {"acc,none": 0.3}},
                "config": {"model_args": "pretrained=org/a", "model_num_parameters": 160_000_000},
            }
        )
    )
    study = _results_only_study(runs, {"org/a": {"name": "a", "family": "fa"}})
    import_study("lm", study, None, tmp_path / "out/score_table.csv", tmp_path / "out/tasks.csv")
    scores = pd.read_csv(tmp_path / "out/score_table.csv")
    assert scores["size_b"].tolist() == [0.16]
    # neither the run nor the mapping gives a size: an error naming the file and the key to set
    runs.joinpath("a/results.json").write_text(
        json.dumps({"results": {"hellaswag": {"acc,none": 0.3}}, "config": {"model_args": "pretrained=org/a"}})
    )
    with pytest.raises(StudyImportError, match=r"a/results.json: no config.model_num_parameters; set .*size_b"):
        import_study("lm", study, None, tmp_path / "o2/score_table.csv", tmp_path / "o2/tasks.csv")


@pytest.mark.parametrize("value", ["N/A", True, "0.3"])
def test_lm_eval_results_only_rejects_a_value_that_is_not_a_number(tmp_path, value):
    runs = tmp_path / "runs"
    write_result(runs / "a/results.json", "pretrained=org/a", {"hellaswag": {"acc,none": value}})
    study = _results_only_study(runs, {"org/a": {"name": "a", "family": "fa", "size_b": 1.0}})
    with pytest.raises(
        StudyImportError, match=r"a/results.json: results\['hellaswag'\]\['acc,none'\] = .* not a number"
    ):
        import_study("lm", study, None, tmp_path / "out/score_table.csv", tmp_path / "out/tasks.csv")


def test_lm_eval_results_only_one_model_in_two_folders_is_an_error(tmp_path):
    runs = tmp_path / "runs"
    write_result(runs / "first/results.json", "pretrained=org/a", {"hellaswag": {"acc,none": 0.3}})
    write_result(runs / "second/results.json", "pretrained=org/a", {"hellaswag": {"acc,none": 0.4}})
    study = _results_only_study(runs, {"org/a": {"name": "a", "family": "fa", "size_b": 1.0}})
    with pytest.raises(StudyImportError, match=r"model 'a' .* two result folders: .*first.* and .*second"):
        import_study("lm", study, None, tmp_path / "out/score_table.csv", tmp_path / "out/tasks.csv")


def test_lm_eval_family_from_the_registry_rules_where_the_mapping_names_none(tmp_path):
    """One rule set: the model registry's family rules (config/atlas/registry_rules.yaml) decide a family
    the mapping leaves out; a third-party fine-tune of a Llama model is family llama; no match is an error."""
    runs = tmp_path / "runs"
    write_result(runs / "a/results.json", "pretrained=someorg/Llama-2-7b-chat-ft", {"hellaswag": {"acc,none": 0.3}})
    write_result(runs / "b/results.json", "pretrained=org/b", {"hellaswag": {"acc,none": 0.4}})
    rules = str(REPO_ROOT / "config/atlas/registry_rules.yaml")
    models = {
        "someorg/Llama-2-7b-chat-ft": {"name": "a", "size_b": 7.0},
        "org/b": {"name": "b", "family": "fb", "size_b": 1.0},
    }
    study = {**_results_only_study(runs, models), "family_rules": rules}
    import_study("lm", study, None, tmp_path / "out/score_table.csv", tmp_path / "out/tasks.csv")
    families = pd.read_csv(tmp_path / "out/score_table.csv").set_index("model")["family"]
    assert families.to_dict() == {"a": "llama", "b": "fb"}
    without_rules = _results_only_study(runs, models)
    with pytest.raises(StudyImportError, match=r"models.someorg/Llama-2-7b-chat-ft.family is not set"):
        import_study("lm", without_rules, None, tmp_path / "o2/score_table.csv", tmp_path / "o2/tasks.csv")
    unknown = {**study, "models": {**models, "org/b": {"name": "b", "size_b": 1.0}}}
    with pytest.raises(StudyImportError, match=r"no family rule of .* matches 'org/b'"):
        import_study("lm", unknown, None, tmp_path / "o3/score_table.csv", tmp_path / "o3/tasks.csv")
