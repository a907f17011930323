"""benchval.jobs.layout (paths and sets from one config) and benchval.plumbing.config's schema-default filling."""

import yaml

from benchval.plumbing.config import (
    SCHEMA_DIR,
    _fill,
    allowed_values,
    fill_defaults,
    section_defaults,
)
from benchval.jobs.layout import SCORES, Layout, fill, model_manifest, workflow_layout


def _schema(name):
    return yaml.safe_load((SCHEMA_DIR / name).read_text())


def test_fill_keeps_the_wildcards_it_is_not_given():
    assert fill(SCORES, model="m") == "results/scores/m/{task}.parquet"
    assert model_manifest("m") == "resources/models/m/benchval-model.json"


def test_nested_defaults_are_filled_through_the_section_files():
    config = {"local": {}, "commonwhy": {"kg": {"source": "local"}}, "scoring": {"engine": "reference"}}
    fill_defaults(config)
    assert (
        config["local"]["model_jobs_at_once"]
        == _schema("local.schema.yaml")["properties"]["model_jobs_at_once"]["default"]
    )
    kg = _schema("commonwhy.schema.yaml")["properties"]["kg"]["properties"]
    assert config["commonwhy"]["kg"]["store"] == kg["store"]["default"]
    assert config["scoring"]["engine"] == "reference"  # a value set is kept
    assert (
        config["scoring"]["normalisation"] == _schema("scoring.schema.yaml")["properties"]["normalisation"]["default"]
    )


def test_a_oneof_value_gets_the_defaults_of_the_branch_it_matches_only():
    # the workflow's schemas put no default in a oneOf branch yet (studies.schema.yaml says why), so an inline one
    schema = {
        "oneOf": [
            {"type": "object", "properties": {"source": {"const": "a"}, "x": {"default": 1}}, "required": ["source"]},
            {"type": "object", "properties": {"source": {"const": "b"}, "y": {"default": 2}}, "required": ["source"]},
        ]
    }
    value = {"source": "b"}
    _fill(value, schema, (SCHEMA_DIR / "config.schema.yaml").as_uri())
    assert value == {"source": "b", "y": 2}


def test_two_entries_never_share_a_default_object():
    config = {"commonwhy": {}}
    fill_defaults(config)
    again = {"commonwhy": {}}
    fill_defaults(again)
    config["commonwhy"]["annotations"].append("x")
    assert again["commonwhy"]["annotations"] == []


def test_section_defaults_and_allowed_values_come_from_the_schema():
    scoring = _schema("scoring.schema.yaml")["properties"]
    assert section_defaults("scoring")["engine"] == scoring["engine"]["default"]
    assert section_defaults("scoring", {"batch_tokens": 7})["batch_tokens"] == 7
    assert allowed_values("scoring", "normalisation") == scoring["normalisation"]["enum"]


def test_layout_sets_follow_the_studies():
    config = {
        "models": {"a": {}, "b": {"scoring_jobs": "per_model"}},
        "scoring": {"jobs": "per_task"},
        "studies": {
            "s1": {"source": "scored", "models": ["a", "b"], "tasks": ["t2", "t1"]},
            "s2": {"source": "scored", "models": ["a"], "tasks": ["t1"]},
            "imp": {"source": "csv", "path": "x.csv", "tasks": {}},
        },
    }
    layout = Layout(config)
    assert layout.scored_studies == ["s1", "s2"] and layout.imported_studies == ["imp"]
    assert layout.scored_pairs() == [("a", "t1"), ("a", "t2"), ("b", "t1"), ("b", "t2")]
    assert layout.models_with_scoring_jobs("per_model") == ["b"]
    assert layout.tasks_scored_with("b") == ["t1", "t2"]


def test_workflow_layout_is_one_object_per_config_and_fills_its_defaults():
    config = {"analysis": {}}
    layout = workflow_layout(config)
    assert workflow_layout(config) is layout
    formats = _schema("analysis.schema.yaml")["properties"]["figures"]["properties"]["formats"]["default"]
    assert layout.figure_formats == formats
    assert layout.study_figure_files("s", ["f"]) == [f"results/studies/s/figures/f.{fmt}" for fmt in formats]


def test_larger_models_score_first_and_before_commonwhy_but_after_preparation():
    config = {
        "models": {"small": {"size_b": 0.1}, "large": {"size_b": 7.0}, "unsized": {}},
        "studies": {"s": {"source": "scored", "models": ["small", "large", "unsized"], "tasks": ["t"]}},
    }
    layout = Layout(config)
    priorities = {model: layout.model_job_priority(model) for model in config["models"]}
    assert sorted(priorities, key=priorities.get) == ["unsized", "small", "large"]
    assert all(0 < p < 10 for p in priorities.values())  # CommonWhy's model jobs 0, prepare_model 10


def test_without_a_mirror_the_layout_leaves_the_atlas_studies_out_and_the_config_as_loaded(capsys):
    """With ``mirror: null`` the atlas studies (their tables come from the mirror only) are not built: said once
    on stderr, and the config keeps them (atlas.smk once deleted them from config["studies"])."""
    studies = {"open_llm": {"source": "csv"}, "default": {"source": "scored", "models": ["m"], "tasks": ["t"]}}
    config = {"mirror": None, "atlas": {"study_tables": {"open_llm": {}}}, "studies": dict(studies)}
    layout = Layout(config)
    assert list(layout.studies) == ["default"] and layout.imported_studies == []
    assert list(layout.studies) == ["default"]  # said once
    assert capsys.readouterr().err == "atlas: mirror: null - study 'open_llm' and the atlas are not built\n"
    assert config["studies"] == studies
