"""Each CommonWhy stage gets only the `commonwhy_eval` keys it reads, and fails loudly on any other."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from benchval.commonwhy.eval import stage_keys
from benchval.commonwhy.eval.settings import resolve
from benchval.commonwhy.eval.stage_keys import STAGE_KEYS, UndeclaredSetting, stage_section, stage_settings
from benchval.commonwhy.eval.steps.commonwhy_eval_criterion import stage_criterion


def test_every_declared_key_is_in_the_section():
    section = resolve({})
    for stage in STAGE_KEYS:
        assert stage_section(section, stage), stage  # a typo in STAGE_KEYS raises KeyError here


def test_a_stage_gets_exactly_its_keys():
    section = resolve({})
    judge = stage_section(section, "judge")
    print("judge:", judge)
    assert set(judge) == {"endpoints", "generation", "judge"}
    assert set(judge["generation"]) == {"use_chat_template"} and set(judge["judge"]) == {
        "decision",
        "prompt",
        "batch_size",
    }
    answer = stage_section(section, "answer")
    assert set(answer) == {"endpoints", "generation"} and answer["generation"] == section["generation"]


def test_a_stage_given_too_few_keys_fails_loudly(tmp_path):
    with pytest.raises(ValueError, match=r"stage 'criterion'.*missing \['criterion'\]") as error:
        stage_criterion(str(tmp_path / "results.csv"), {}, {}, str(tmp_path / "rows.csv"), str(tmp_path / "t.csv"))
    print(error.value)
    given = stage_section(resolve({}), "judge")
    del given["judge"]["prompt"]
    with pytest.raises(ValueError, match=r"missing \['judge.prompt'\]"):
        stage_settings(given, "judge")


def test_a_stage_given_too_many_keys_fails_loudly():
    given = stage_section(resolve({}), "criterion") | {"judge": {"decision": "logprob"}}
    with pytest.raises(ValueError, match=r"not declared \['judge'\]"):
        stage_settings(given, "criterion")


def test_a_stage_reading_an_undeclared_key_fails_loudly(tmp_path, monkeypatch):
    settings = stage_settings(stage_section(resolve({}), "judge"), "judge")
    with pytest.raises(UndeclaredSetting, match=r"reads commonwhy_eval.generation.max_new_tokens"):
        settings["generation"]["max_new_tokens"]
    with pytest.raises(UndeclaredSetting, match=r"reads commonwhy_eval.factscore"):
        settings.get("factscore", {})  # no silent default
    with pytest.raises(UndeclaredSetting):
        "factscore" in settings  # noqa: B015
    # a stage whose declaration lacks what its code reads: the run stops at the read, naming the key
    monkeypatch.setitem(stage_keys.STAGE_KEYS, "criterion", ())
    with pytest.raises(UndeclaredSetting, match=r"stage 'criterion' reads commonwhy_eval.criterion") as error:
        stage_criterion(str(tmp_path / "results.csv"), {}, {}, str(tmp_path / "rows.csv"), str(tmp_path / "t.csv"))
    print(error.value)


def _rule_params(section_overrides: dict):
    """The params functions of commonwhy_eval.smk over a section resolved from `section_overrides`."""
    from benchval.jobs.rule_settings import config_provider_for
    from benchval.jobs.commonwhy_eval_functions import CommonWhyEvalFunctions

    section = resolve(section_overrides)
    provider = config_provider_for({}, commonwhy_eval=section)
    layout = SimpleNamespace(commonwhy_eval=section)
    return CommonWhyEvalFunctions({"models": {}}, layout, provider, lambda name: name, ".", ".")


JUDGE_API = {"base_url": "http://127.0.0.1:9/v1", "model": "gpt-x", "api_key_env": None, "answers": False}


def test_a_judge_endpoint_leaves_the_answering_rules_settings_alone():
    # before: every rule that loads a generator read the whole `endpoints` section, so declaring a judge-only
    # endpoint changed the answering rules' settings param and reran every model's answers
    plain = _rule_params({})
    judged = _rule_params({"endpoints": {"judge-api": JUDGE_API}, "judge": {"system": "judge-api"}})
    job = SimpleNamespace(system="smollm2-135m")
    assert plain.settings("answer", wildcard="system")(job) == judged.settings("answer", wildcard="system")(job)
    assert plain.settings("kbbinder", "smollm2-135m") == judged.settings("kbbinder", "smollm2-135m")
    judge = judged.settings("judge", "judge-api")
    assert set(judge["endpoints"]) == {"judge-api"} and judge["endpoints"]["judge-api"]["model"] == "gpt-x"
    # an answering endpoint's own entry still reaches its answering job
    asked = judged.settings("answer", wildcard="system")(SimpleNamespace(system="judge-api"))
    assert asked["endpoints"]["judge-api"]["base_url"] == JUDGE_API["base_url"]
