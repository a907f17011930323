"""Every name registry rejects a misspelt name with the closest known one ("did you mean", difflib) and
names the registry; a name close to nothing gets no guess. (Tasks and adapters: tests/tasks/test_task_registry.py;
study models, tasks and metrics: tests/test_config_names_and_duplicate_keys.py.)"""

from __future__ import annotations

import pandas as pd
import pytest

from benchval.plumbing.config_error import ConfigError, unknown_name


def test_the_message_guesses_only_a_close_name():
    assert unknown_name("reader", "scroes", ["scores", "lm_eval"], "R") == (
        "unknown reader 'scroes'; did you mean 'scores'? (R: lm_eval, scores)"
    )
    assert "did you mean" not in unknown_name("reader", "xyz", ["scores", "lm_eval"], "R")


def test_scoring_engine():
    from benchval.scoring.scorer_factory import make_scorer

    with pytest.raises(ValueError, match=r"unknown scoring engine 'fats'; did you mean 'fast'\?.*ENGINES"):
        make_scorer("fats", None, None)


def test_scoring_mode():
    from benchval.scoring.requests import RequestError, build_requests

    items = pd.DataFrame({"id": ["a"], "context": ["C"], "options": [[" x"]], "label": [0], "target": [None]})
    with pytest.raises(RequestError, match=r"unknown scoring mode 'calibratd'; did you mean 'calibrated'\?"):
        build_requests(items, "calibratd")


def test_items_reader():
    from benchval.items.steps.items_responses import read_source

    with pytest.raises(ValueError, match=r"items.sources: unknown reader 'lm_evall'; did you mean 'lm_eval'\?"):
        read_source({"reader": "lm_evall", "paths": []}, None)


def test_metric():
    from benchval.evaluation.metrics import compute_metrics

    with pytest.raises(ValueError, match=r"unknown metric 'acuracy'; did you mean 'accuracy'\?.*METRICS"):
        compute_metrics(pd.DataFrame(), ["acuracy"])


def test_knowledge_graph_source():
    from benchval.commonwhy.kg import open_source

    with pytest.raises(ValueError, match=r"commonwhy.kg.source: unknown source 'remot'; did you mean 'remote'\?"):
        open_source({"source": "remot"})


def test_commonwhy_eval_models_judge_and_backbone():
    from benchval.commonwhy.eval.settings import check_names, resolve

    models = {"qwen2.5-coder-0.5b": {}, "smollm2-135m": {}}  # the default backbone among them
    chosen = {
        "models": ["smollm2-135m", "qwen2.5-coder-0.5b"],
        "judge": {"system": "smollm2-135m", "decision": "calibrated"},
    }
    settings = resolve(chosen)
    check_names(settings, models)  # the spelt-right settings pass
    with pytest.raises(
        ValueError, match=r"commonwhy_eval.models: unknown model 'smollm-135m'; did you mean 'smollm2-135m'\?"
    ):
        check_names({**settings, "models": ["smollm-135m"]}, models)
    judge = {"system": "smolm2-135m", "decision": "generate"}
    with pytest.raises(ValueError, match=r"judge.system: unknown judge 'smolm2-135m'; did you mean 'smollm2-135m'\?"):
        check_names({**settings, "judge": judge}, models)
    baselines = {**settings["baselines"], "backbone": "qwen2.5-coder-05b"}
    with pytest.raises(
        ValueError, match=r"backbone: unknown model 'qwen2.5-coder-05b'; did you mean 'qwen2.5-coder-0.5b'\?"
    ):
        check_names({**settings, "baselines": baselines}, models)


def test_test_architecture():
    from benchval.testing.architectures import architecture_config

    with pytest.raises(ValueError, match=r"unknown architecture 'lama'; did you mean 'llama'\?"):
        architecture_config("lama", 64)


def test_task_dataset_and_partner(default_config):
    import copy

    from benchval.plumbing.config import check_references

    config = copy.deepcopy(default_config)
    config["tasks"]["cei"]["dataset"] = "ceii"
    with pytest.raises(ConfigError, match=r"tasks.cei.dataset: unknown dataset 'ceii'; did you mean 'cei'\?"):
        check_references(config)
    config = copy.deepcopy(default_config)
    config["tasks"]["winowhat"]["pairs_with"] = "winogrand"
    with pytest.raises(ConfigError, match=r"tasks.winowhat.pairs_with: unknown task 'winogrand'; did you mean"):
        check_references(config)


def test_study(default_config):
    from benchval.lmeval.own_output import own_output_study
    from benchval.cluster_planning.gpu_hours import study_cost

    with pytest.raises(ConfigError, match=r"unknown study 'defualt'; did you mean 'default'\? \(the config's studies"):
        own_output_study(default_config, "defualt", "results/lmeval")
    with pytest.raises(ConfigError, match=r"unknown study 'defualt'; did you mean 'default'\?"):
        study_cost(default_config, "defualt")


def test_a_study_task_or_model_names_its_registry(default_config):
    import copy

    from benchval.plumbing.config import check_references

    config = copy.deepcopy(default_config)
    config["studies"]["default"]["tasks"] = ["winogrnde"]
    with pytest.raises(
        ConfigError,
        match=r"studies.default.tasks: unknown task .winogrnde.; did you mean .winogrande.\? "
        r"\(the tasks: one folder each, src/benchval/tasks/catalogue/<task>/",
    ):
        check_references(config)
    config = copy.deepcopy(default_config)
    config["studies"]["default"]["models"] = ["smollm2-135"]
    with pytest.raises(ConfigError, match=r"unknown model 'smollm2-135'; did you mean 'smollm2-135m'\? \(the config's"):
        check_references(config)
