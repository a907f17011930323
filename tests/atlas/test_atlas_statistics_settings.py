"""benchval.atlas.statistics_settings: the named settings the atlas statistics get, read from the keys a rule
passes with no default restated (the schema's are filled before): a missing key is an error naming it."""

import copy

import pytest

from benchval.atlas.statistics_settings import AgreementSettings, IncrementalSettings, Measures, Resampling
from benchval.plumbing.config import section_defaults
from benchval.plumbing.config_error import ConfigError

#: the keys rule atlas_pairs passes (workflow/rules/atlas.smk, INCREMENTAL_KEYS), as a config might set them
ATLAS = {
    "aggregate_columns": {"lb": ["avg"]},
    "same_measure": {"x": "y"},
    "measure_groups": {"collections": ["BLZ"]},
    "general_factor": {"min_columns": 4, "uniqueness_floor": 0.1},
    "min_models": 10,
    "min_clusters": 5,
    "min_headline_n": 20,
    "n_bootstrap": 300,
}


def test_incremental_settings_read_every_key_the_rule_passes():
    settings = IncrementalSettings.from_config(ATLAS, seed=7, ci_level=0.9)
    assert settings == IncrementalSettings(
        min_models=10,
        min_clusters=5,
        min_headline_n=20,
        min_columns=4,
        uniqueness_floor=0.1,
        resampling=Resampling(n_bootstrap=300, ci_level=0.9, seed=7),
        measures=Measures(aggregates={"lb": ["avg"]}, same_measure={"x": "y"}, collections=("BLZ",)),
    )
    assert set(IncrementalSettings.KEYS) == set(ATLAS)
    assert settings.interval_options()["min_interval_n"] == 20  # the headline n, not min_models
    with pytest.raises(AttributeError):
        settings.min_models = 3  # frozen


@pytest.mark.parametrize("key", ["min_headline_n", "min_clusters", "general_factor.uniqueness_floor", "n_bootstrap"])
def test_a_key_the_rule_did_not_pass_is_named_not_replaced_by_a_default(key):
    """The old step read ``atlas.get("min_headline_n", atlas["min_models"])``: 10 where the schema says 20."""
    atlas = copy.deepcopy(ATLAS)
    *parents, last = key.split(".")
    section = atlas
    for parent in parents:
        section = section[parent]
    del section[last]
    with pytest.raises(ConfigError, match=rf"^atlas\.{key}: missing"):
        IncrementalSettings.from_config(atlas, seed=1, ci_level=0.95)


def test_the_schema_defaults_are_what_the_settings_get():
    """A config that sets none of these keys: the layout fills the schema's defaults, the settings read them."""
    atlas = section_defaults("atlas", {})
    settings = IncrementalSettings.from_config(atlas, seed=1, ci_level=0.95)
    assert (settings.min_models, settings.min_clusters, settings.min_headline_n) == (10, 3, 20)
    assert (settings.min_columns, settings.uniqueness_floor, settings.resampling.n_bootstrap) == (3, 0.05, 1000)
    assert settings.measures.collections == ()


def test_agreement_settings_read_the_agreement_keys_only():
    atlas = {
        "human_preference": {"criteria": ["elo"], "agreement_criterion": "elo"},
        "agreement_reference": ["a", "b"],
        "min_headline_n": 20,
        "n_bootstrap": 100,
        "same_measure": {},
        "measure_groups": {"collections": []},
    }
    settings = AgreementSettings.from_config(atlas, seed=3, ci_level=0.95)
    assert (settings.criterion, settings.reference, settings.min_headline_n) == ("elo", ("a", "b"), 20)
    assert settings.measures.aggregates == {}  # rule atlas_agreement does not pass atlas.aggregate_columns
    del atlas["human_preference"]["agreement_criterion"]
    with pytest.raises(ConfigError, match=r"^atlas\.human_preference\.agreement_criterion: missing"):
        AgreementSettings.from_config(atlas, seed=3, ci_level=0.95)


def test_the_rules_pass_exactly_the_keys_the_incremental_settings_read():
    """workflow/rules/atlas.smk's INCREMENTAL_KEYS (rules atlas_pairs, atlas_human_preference, atlas_g_choice):
    a key the rule stops passing fails from_config; one it passes but the settings never read reruns the rule
    for nothing."""
    import ast

    from benchval.plumbing.folders import REPO_ROOT

    text = (REPO_ROOT / "workflow" / "rules" / "atlas.smk").read_text()
    if "INCREMENTAL_KEYS = (" not in text:  # the rules name the settings' own keys
        assert "IncrementalSettings.KEYS" in text
        return
    start = text.index("INCREMENTAL_KEYS = (")
    passed = ast.literal_eval(text[start + len("INCREMENTAL_KEYS = ") : text.index(")", start) + 1])
    assert set(passed) == set(IncrementalSettings.KEYS)
