"""The one way a rule names its config keys (benchval.jobs.rule_settings), the files a job reads as inputs
(benchval.jobs.rule_files) and every rule's log and benchmark from its name (benchval.jobs.job_logs)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
import yaml

from benchval.jobs.job_logs import check_logs_and_benchmarks, convention_breaks, log_path, ordered_wildcards
from benchval.jobs.rule_files import outside_repository, prompt_files, prompt_keys
from benchval.jobs.rule_settings import ConfigProvider
from benchval.plumbing.folders import REPO_ROOT

RULES = REPO_ROOT / "workflow" / "rules"
CONFIG = {
    "seed": 7,
    "analysis": {"ridge_alpha": 1.0, "fdr": {"alpha": 0.05, "families": "by_table"}, "figures": {"dpi": 300}},
    "models": {"Qwen2.5-0.5B": {"family": "qwen", "size_b": 0.5, "job_size_b": 1, "cpu_offload_gb": 2}},
    "studies": {"s": {"source": "csv", "notice": "n"}, "t": {"source": "csv"}},
}


def test_a_path_gives_its_value_and_keys_give_only_those():
    provide = ConfigProvider(CONFIG)
    assert provide("seed") == 7
    assert provide("analysis.figures.dpi") == 300
    assert provide("analysis", "ridge_alpha", "fdr.alpha") == {"fdr": {"alpha": 0.05}, "ridge_alpha": 1.0}
    assert list(provide("analysis", "ridge_alpha", "fdr")) == ["fdr", "ridge_alpha"]  # canonical: keys sorted
    assert provide("analysis", "ridge_alpha", "min_models") == {"ridge_alpha": 1.0}  # an optional key: left out
    assert provide("analysis", "ridge_alpha", defaults={"seed": "seed"}) == {"ridge_alpha": 1.0}
    assert provide("analysis", "seed", defaults={"seed": "seed"}) == {"seed": 7}


def test_a_wildcard_path_is_a_function_of_the_jobs_wildcards():
    provide = ConfigProvider(CONFIG)
    entry = provide("models.{model}", "family", "size_b")
    assert callable(entry)
    assert entry(SimpleNamespace(model="Qwen2.5-0.5B")) == {"family": "qwen", "size_b": 0.5}  # a name with dots
    notice = provide("studies.{study}.notice", default=None)
    assert notice(SimpleNamespace(study="s")) == "n" and notice(SimpleNamespace(study="t")) is None
    assert provide(("models", "Qwen2.5-0.5B"), "family") == {"family": "qwen"}


def test_a_missing_path_is_an_error_naming_it():
    provide = ConfigProvider(CONFIG)
    with pytest.raises(KeyError, match=r"config: no key 'analysis.fdr.alhpa'"):
        provide("analysis.fdr.alhpa")
    with pytest.raises(KeyError, match=r"config: no key 'robustness'"):
        provide("robustness", "power")
    assert provide("robustness", "power", default={}) == {}


def test_resolved_sections_replace_the_configs_own():
    provide = ConfigProvider(CONFIG, {"commonwhy_eval": {"judge": {"prompt": "p.txt", "decision": "logprob"}}})
    assert provide("commonwhy_eval", "judge.prompt") == {"judge": {"prompt": "p.txt"}}


# --- every key of a closed schema is named by the rules that read it, or declared read by none ---------------


def _schema_keys(name: str, definition: str | None = None) -> set[str]:
    schema = yaml.safe_load((REPO_ROOT / "workflow" / "schemas" / f"{name}.schema.yaml").read_text())
    return set((schema["$defs"][definition] if definition else schema)["properties"])


def unclassified(schema_keys: set[str], *groups) -> tuple[list[str], list[str]]:
    """(schema keys in no group, keys in a group but not in the schema or in two groups)."""
    named = [key for group in groups for key in group]
    doubled = sorted({key for key in named if named.count(key) > 1})
    return sorted(schema_keys - set(named)), sorted((set(named) - schema_keys) | set(doubled))


def test_every_model_scoring_and_task_key_is_classified():
    from benchval.models.registry import PLACEMENT_KEYS, PLANNING_KEYS, RESULT_KEYS
    from benchval.scoring import config_keys as scoring
    from benchval.tasks import config_keys as tasks

    assert unclassified(_schema_keys("models", "model"), RESULT_KEYS, PLANNING_KEYS, PLACEMENT_KEYS) == ([], [])
    assert unclassified(
        _schema_keys("scoring"), scoring.SCORE_KEYS, scoring.EVALUATION_KEYS, scoring.PLANNING_KEYS
    ) == ([], [])
    assert unclassified(_schema_keys("tasks", "task"), tasks.ITEM_KEYS, tasks.PRESENTATION_KEYS) == ([], [])


def test_a_new_schema_key_in_no_group_is_rejected():
    from benchval.models.registry import PLACEMENT_KEYS, PLANNING_KEYS, RESULT_KEYS

    keys = _schema_keys("models", "model") | {"quantisation"}
    assert unclassified(keys, RESULT_KEYS, PLANNING_KEYS, PLACEMENT_KEYS) == (["quantisation"], [])
    assert unclassified(keys - {"quantisation"}, RESULT_KEYS, PLANNING_KEYS, PLACEMENT_KEYS + ("dtype",)) == (
        [],
        ["dtype"],
    )


# --- one way: no rule's params read the config but through config_provider -------------------------------------

_DIRECTIVE = re.compile(r"^(?P<indent> +)(?P<name>\w+):\s*$")
_RAW_CONFIG = re.compile(r"\bconfig(\[|\.get\()")


def raw_config_params(text: str, source: str) -> list[str]:
    """Lines of a rule file's ``params:`` blocks that read ``config[...]`` / ``config.get(...)`` directly."""
    found, lines = [], text.splitlines()
    for start, line in enumerate(lines):
        match = _DIRECTIVE.match(line)
        if not match or match["name"] != "params":
            continue
        indent = len(match["indent"])
        for number, following in enumerate(lines[start + 1 :], start=start + 2):
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            if _RAW_CONFIG.search(following.split("#")[0]):
                found.append(f"{source}:{number}: {following.strip()}")
    return found


def test_no_rule_params_read_the_config_directly():
    found = [hit for path in sorted(RULES.glob("*.smk")) for hit in raw_config_params(path.read_text(), path.name)]
    assert not found, "\n".join(found)


# a param reading the config other than through config_provider: the config itself, a helper given it or the
# layout, a section kept in a global. Each says why (`# derived: ...`): a value computed from several keys (the
# helper's docstring names them), a path, or what the run builds. Their number may only fall.
_OTHER_READ = re.compile(r"\bconfig(\[|\.get\()|[(,]\s*config\b|\bLAYOUT\b|\bCWE\[|CW_CONFIG|ITEMS_CONFIG")
MOST_DERIVED_PARAMS = 50  # 47, and rule lmeval_scoreboard's three (issue 47), read as rule scoreboard reads them


def other_config_params(text: str, source: str) -> tuple[list[str], list[str]]:
    """(lines that read the config other than through config_provider and say why, lines that do not say why)."""
    said, unsaid = [], []
    for hit in _param_lines(text, source):
        code, _, comment = hit.partition("  # ")
        if _OTHER_READ.search(code.split(": ", 1)[1]):
            (said if comment.startswith("derived:") else unsaid).append(hit)
    return said, unsaid


def _param_lines(text: str, source: str) -> list[str]:
    found, lines = [], text.splitlines()
    for start, line in enumerate(lines):
        match = _DIRECTIVE.match(line)
        if not match or match["name"] != "params":
            continue
        for number, following in enumerate(lines[start + 1 :], start=start + 2):
            if following.strip() and len(following) - len(following.lstrip()) <= len(match["indent"]):
                break
            found.append(f"{source}:{number}: {following.strip()}")
    return found


def test_every_other_config_read_in_params_says_why_and_they_do_not_grow():
    said, unsaid = [], []
    for path in sorted(RULES.glob("*.smk")):
        these = other_config_params(path.read_text(), path.name)
        said += these[0]
        unsaid += these[1]
    print(f"{len(said)} params read the config other than through config_provider, each saying why")
    assert not unsaid, "\n".join(unsaid)
    assert len(said) <= MOST_DERIVED_PARAMS, "\n".join(said)


def test_an_other_config_read_without_its_reason_is_rejected():
    text = (
        "rule r:\n    params:\n        tasks=lambda w: LAYOUT.study_tasks(w.study),\n"
        "        sample=lambda w: task_sample(config, w.task),  # derived: keys named in its docstring\n"
        '        dpi=config_provider("analysis.figures.dpi"),\n'
    )
    said, unsaid = other_config_params(text, "r.smk")
    assert unsaid == ["r.smk:3: tasks=lambda w: LAYOUT.study_tasks(w.study),"]
    assert said == ["r.smk:4: sample=lambda w: task_sample(config, w.task),  # derived: keys named in its docstring"]


def test_a_raw_config_read_in_params_is_rejected():
    text = 'rule r:\n    params:\n        seed=config["seed"],\n        dpi=config_provider("analysis.figures.dpi"),\n'
    assert raw_config_params(text, "r.smk") == ['r.smk:3: seed=config["seed"],']


# --- files a job reads --------------------------------------------------------------------------------------------


def test_every_prompt_setting_is_found(tmp_path):
    settings = {
        "generation": {"prompt": "config/prompts/a.txt", "max_new_tokens": 8},
        "baselines": {"kgr_prompt": "config/prompts/b.txt", "prompts_seen": 3},
        "judge": {"decision": "logprob"},
    }
    assert prompt_keys(settings) == {
        "baselines.kgr_prompt": "config/prompts/b.txt",
        "generation.prompt": "config/prompts/a.txt",
    }
    (tmp_path / "config/prompts").mkdir(parents=True)
    (tmp_path / "config/prompts/a.txt").write_text("a local copy")
    files = prompt_files(settings, REPO_ROOT, workdir=tmp_path)
    # the working directory's copy where there is one (as PromptTemplate.from_file reads it), else the repository's
    local, shipped = sorted(files, key=lambda path: path.startswith(".."))
    assert local == "config/prompts/a.txt"
    assert shipped.startswith("..") and shipped.endswith("config/prompts/b.txt")


def test_only_a_users_prompt_is_an_input_path(tmp_path):
    """A shipped prompt is code (its digest a param, its path no input: another clone plans nothing)."""
    mine = tmp_path / "mine.txt"
    shipped = REPO_ROOT / "config/prompts/commonwhy_judge.txt"
    assert outside_repository([str(mine), str(shipped)], REPO_ROOT) == [str(mine)]


# --- logs and benchmarks --------------------------------------------------------------------------------------------


class FakeRule:
    def __init__(self, name, output, log=(), benchmark=None, norun=False):
        self.name, self.output, self.norun = name, output, norun
        self.log, self.benchmark, self.is_handover = list(log), benchmark, False


def test_a_rules_log_and_benchmark_follow_its_name_and_wildcards():
    score = FakeRule(
        "score",
        ["results/scores/{model,a|b}/{task}.parquet"],
        log=["logs/score/{model,a|b}/{task}.log"],  # Snakemake writes the constraints into the patterns
        benchmark="logs/benchmarks/score/{model,a|b}/{task}.tsv",
    )
    pairs = FakeRule(
        "atlas_pairs",
        ["x.csv"],
        log=["logs/atlas_pairs/atlas_pairs.log"],
        benchmark="logs/benchmarks/atlas_pairs/atlas_pairs.tsv",
    )
    assert (
        convention_breaks(score) == convention_breaks(pairs) == convention_breaks(FakeRule("all", [], norun=True)) == []
    )
    assert ordered_wildcards(["a/{study,[^/]+}/{name}.csv", "{name}/{x}"]) == ["study", "name", "x"]
    assert log_path("fetch_raw_file", ["path"]) == "logs/fetch_raw_file/{path}.log"


def test_a_rule_without_its_log_or_benchmark_or_with_another_path_is_rejected():
    bad = [
        FakeRule("atlas_pairs", ["x.csv"]),  # none
        FakeRule(
            "atlas_pairs", ["x.csv"], log=["logs/mine.log"], benchmark="logs/benchmarks/atlas_pairs/atlas_pairs.tsv"
        ),
        FakeRule(  # a wildcard left out: two jobs would share one log
            "score",
            ["s/{model}/{task}.parquet"],
            log=["logs/score/{model}.log"],
            benchmark="logs/benchmarks/score/{model}.tsv",
        ),
        FakeRule("all", [], norun=True, log=["logs/all.log"]),
    ]
    assert [len(convention_breaks(rule)) for rule in bad] == [1, 1, 1, 1]
    with pytest.raises(ValueError, match=r"rule atlas_pairs: log \['logs/mine.log'\] and benchmark"):
        check_logs_and_benchmarks(bad[1:2])


# --- short params: a long section is a digest in Snakemake's record and a dry run's reason ----------------------------


def test_a_long_section_is_a_digest_to_snakemake_and_a_dict_to_the_job(tmp_path, monkeypatch):
    import pickle

    from benchval.jobs.reruns import LONGEST_SHOWN, Settings, changed_code

    monkeypatch.chdir(tmp_path)
    long = {"models": [f"model-{i}" for i in range(40)], "ridge_alpha": 1.0}
    provide = ConfigProvider({"analysis": long})
    value = provide("analysis")
    assert isinstance(value, Settings) and value == long and pickle.loads(pickle.dumps(value)) == long
    assert len(repr(value)) < 30 and repr(value).startswith("settings@")
    assert provide("analysis", "ridge_alpha") == {"ridge_alpha": 1.0}  # short: shown as is
    assert len(repr({"ridge_alpha": 1.0})) <= LONGEST_SHOWN
    edited = repr(ConfigProvider({"analysis": {**long, "ridge_alpha": 2.0}})("analysis"))
    assert edited != repr(value)
    assert changed_code(repr(value), edited) == ["changed: ridge_alpha 1.0 -> 2.0"]


def test_migrate_shortens_only_the_sections_the_workflow_now_gives_as_settings(tmp_path, monkeypatch):
    from benchval.jobs.reruns import migrated_params

    monkeypatch.chdir(tmp_path)
    section = {"models": [f"model-{i}" for i in range(40)]}
    other = {"file-" + str(i): "0" * 16 for i in range(40)}  # a dict param of another origin (digests, say)
    ConfigProvider({"analysis": section})("analysis")  # the dry run of the new code records it
    recorded = [repr(section), repr(other), "1.0"]
    assert migrated_params(recorded) == [repr(ConfigProvider({"a": section})("a")), repr(other), "1.0"]
