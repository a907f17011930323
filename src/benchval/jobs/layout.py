"""The workflow's file layout: where every file lives, and which studies, models, tasks and pairs a config asks for.

"Layout" means the files only; how a model's scoring is cut into jobs is its *scoring jobs*
(:meth:`Layout.scoring_jobs`, config ``scoring.jobs``), and a model job's share of the cores its
*threads* (benchval.plumbing.job_threads). The top folders (results/, resources/) and the raw-data
mirror are benchval.plumbing.folders'; this module is the jobs wing's (tests/test_import_graph.py):
it may import stage modules' constants; nothing below the wing imports it.

Every rule file (workflow/rules/*.smk), the Snakefile and the test Snakefiles take their paths, name
patterns and study sets from here, so that no rule file reads another's globals:

    from benchval.jobs.layout import workflow_layout
    LAYOUT = workflow_layout(config)

Paths are relative to the working directory (Snakemake's ``--directory``). A pattern keeps its
``{wildcards}``; :func:`fill` replaces some of them and leaves the others (docs/workflow.md, "Layout").
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Mapping

from benchval.analysis.outputs import FIGURE_STEMS, TABLE_NAMES
from benchval.lmeval import samples_studies
from benchval.plumbing.config import fill_defaults
from benchval.plumbing.folders import MODELS_DIR, RESULTS, raw_root, resolve_mirror
from benchval.plumbing.job_threads import MODEL_JOB_SLOTS, TORCH_THREADS, model_job_threads

# ---- file names below the top folders (results/, resources/: benchval.plumbing.folders) ------
MODEL_MANIFEST_NAME = "benchval-model.json"
WHEELS_DIR = f"{MODELS_DIR}/_wheels"  # downloaded model wheels, reused (not a rule output)

# ---- name patterns ---------------------------------------------------------------------------
MODEL_MANIFEST = f"{MODELS_DIR}/{{model}}/{MODEL_MANIFEST_NAME}"
TASK_ITEMS = f"{RESULTS}/tasks/{{task}}.parquet"
TASK_META = f"{RESULTS}/tasks/{{task}}.meta.json"
TASK_FILTERS = f"{RESULTS}/tasks/{{task}}.filters.json"
SCORES = f"{RESULTS}/scores/{{model}}/{{task}}.parquet"
CALIBRATED = f"{RESULTS}/calibrated/{{model}}/{{task}}.parquet"
METRICS = f"{RESULTS}/metrics/{{model}}/{{task}}.csv"
STUDY_DIR = f"{RESULTS}/studies/{{study}}"
SCORE_TABLE = f"{STUDY_DIR}/score_table.csv"
STUDY_TASKS = f"{STUDY_DIR}/tasks.csv"
STUDY_TABLE = f"{STUDY_DIR}/tables/{{name}}.csv"
UNADJUSTED_TABLE = f"{STUDY_DIR}/unadjusted/{{name}}.csv"  # p-values before the FDR step
STUDY_FIGURE = f"{STUDY_DIR}/figures/{{stem}}.{{fmt}}"
SCOREBOARD_TABLE = f"{STUDY_DIR}/tables/scoreboard.csv"
PAIRED_TABLE = f"{STUDY_DIR}/tables/paired_comparisons.csv"  # every pair of models, per task and pooled
# robustness of every study (workflow/rules/robustness.smk)
TASK_RELIABILITY_TABLE = f"{STUDY_DIR}/tables/task_reliability.csv"
POWER_TABLE = f"{STUDY_DIR}/tables/power.csv"
SPECIFICATION_TABLE = f"{STUDY_DIR}/tables/specification_robustness.csv"
ROBUSTNESS_TABLES = (TASK_RELIABILITY_TABLE, POWER_TABLE, SPECIFICATION_TABLE)
TASK_SIZES = f"{RESULTS}/summary/task_sizes.csv"
REPORT_DIR = f"{RESULTS}/report"
REPORT_STUDY_FIGURE = f"{REPORT_DIR}/{{study}}/figures/{{stem}}.png"
REPORT_STUDY_TABLE = f"{REPORT_DIR}/{{study}}/tables/{{name}}.html"
# one study's findings page (rule study_findings), beside its figures/ and tables/: what its study target gives
STUDY_FINDINGS_MARKDOWN = f"{STUDY_DIR}/findings.md"
STUDY_FINDINGS_HTML = f"{STUDY_DIR}/findings.html"
COMMONWHY_DIR = f"{RESULTS}/commonwhy"
COMMONWHY_EVAL_DIR = f"{RESULTS}/commonwhy_eval"
COMMONWHY_CRITERION_FILES = (f"{COMMONWHY_EVAL_DIR}/criterion_rows.csv", f"{COMMONWHY_EVAL_DIR}/criterion_tasks.csv")
JUDGE_CHECK_DIR = f"{COMMONWHY_EVAL_DIR}/judge_check"
JUDGE_CHECK_PAGE = f"{JUDGE_CHECK_DIR}/judge_check.html"

_WILDCARD = re.compile(r"\{(\w+)\}")


def fill(pattern: str, **values) -> str:
    """``pattern`` with the named wildcards replaced; the other wildcards stay (``fill(SCORES, model="m")``
    gives ``results/scores/m/{task}.parquet``)."""
    return _WILDCARD.sub(lambda match: str(values.get(match[1], match[0])), pattern)


def model_manifest(model: str = "{model}") -> str:
    """The prepared model's manifest (the output of rule prepare_model; weights and tokenizer beside it)."""
    return fill(MODEL_MANIFEST, model=model)


def alternatives(names) -> str:
    """A regex matching exactly these names (never matching anything when there are none)."""
    return "|".join(re.escape(name) for name in names) or "(?!x)x"


@dataclass(frozen=True)
class ModelJobRule:
    """One rule of a model-job family (:meth:`Layout.model_job_rules`), named family + ``suffix``.
    ``models``: the regex its ``{model}`` wildcard is held to (None: the configured models);
    ``tasks``: the tasks of its one model (None: a ``{task}`` wildcard, one job per (model, task))."""

    suffix: str
    models: str | None
    tasks: tuple[str, ...] | None

    def files(self, pattern: str) -> list[str]:
        """The files of one job: ``pattern`` once, or once per task with ``{model}`` kept."""
        return [pattern] if self.tasks is None else [fill(pattern, task=task) for task in self.tasks]

    @property
    def wildcard_path(self) -> str:
        """``{model}/{task}`` (one job per model and task) or ``{model}`` (one job per model): the part of
        a job's log and benchmark path after the rule's name (benchval.jobs.job_logs)."""
        return "{model}/{task}" if self.tasks is None else "{model}"

    @property
    def n_tasks(self) -> int:
        return 1 if self.tasks is None else len(self.tasks)

    @property
    def wildcard_constraints(self) -> dict[str, str]:
        return {} if self.models is None else {"model": self.models}


class Layout:
    """Paths and sets that follow from one loaded config (defaults filled: :func:`workflow_layout`)."""

    def __init__(self, config: Mapping):
        self.config = config

    # ---- the raw-data mirror -----------------------------------------------------------------
    @cached_property
    def mirror(self) -> Path | None:
        """The raw-data mirror folder (absolute), or None (``mirror: null``: raw files are downloaded)."""
        return resolve_mirror(self.config.get("mirror"))

    @cached_property
    def raw_root(self) -> Path:
        """Where raw files are read: the mirror, or the download folder rule fetch_raw_file fills."""
        return raw_root(self.mirror)

    def raw_file_check(self, wildcards, input) -> dict:  # noqa: A002  (Snakemake passes `input` by this name)
        """What a job's raw-file check reads (benchval.plumbing.raw_file_checks.verify_raw_files): the raw-data
        root and the catalogue's datasets. As a rule's param (``raw_files=LAYOUT.raw_file_check``) it takes
        ``input``, so Snakemake leaves it out of the rerun trigger: a checksum declaration checks a result,
        it changes none (the input files themselves are the trigger)."""
        return {"raw_root": str(self.raw_root), "datasets": self.config.get("datasets", {})}

    # ---- studies, models, tasks --------------------------------------------------------------
    @property
    def studies(self) -> Mapping:
        """The studies this run builds: the config's, less the atlas studies when there is no mirror (their
        leaderboard tables come from the mirror only, no download is declared for them), said once on stderr.
        The config itself is left as loaded: every rule file reads the studies from here."""
        studies = self.config["studies"]
        if self.mirror is None:
            left_out = self.atlas_studies_left_out
            studies = {name: spec for name, spec in studies.items() if name not in left_out}
        return studies

    @cached_property
    def atlas_studies_left_out(self) -> list[str]:
        """The atlas studies (``atlas.study_tables``) of the config a run without a mirror leaves out."""
        if self.mirror is not None:
            return []
        atlas = self.config.get("atlas")  # an optional section
        tables = atlas["study_tables"] if atlas else {}
        left_out = sorted(set(tables) & set(self.config["studies"]))
        for study in left_out:
            print(f"atlas: mirror: null - study {study!r} and the atlas are not built", file=sys.stderr)
        return left_out

    @property
    def scored_studies(self) -> list[str]:
        return [name for name, spec in self.studies.items() if spec["source"] == "scored"]

    @property
    def imported_studies(self) -> list[str]:
        return [name for name, spec in self.studies.items() if spec["source"] != "scored"]

    def study_models(self, study: str) -> list[str]:
        return self.studies[study]["models"]

    def study_tasks(self, study: str) -> list[str]:
        return self.studies[study]["tasks"]

    def scored_pairs(self) -> list[tuple[str, str]]:
        """Every (model, task) that some scored study needs, each once."""
        return sorted({(m, t) for s in self.scored_studies for m in self.study_models(s) for t in self.study_tasks(s)})

    def scored_tasks(self) -> list[str]:
        return sorted({t for s in self.scored_studies for t in self.study_tasks(s)})

    def scored_study_models(self) -> list[str]:
        """Every model some scored study lists (imported studies have no prepared models)."""
        return sorted({m for s in self.scored_studies for m in self.study_models(s)})

    def scored_models(self) -> list[str]:
        return sorted({m for m, _ in self.scored_pairs()})

    def tasks_scored_with(self, model: str) -> list[str]:
        return sorted({t for m, t in self.scored_pairs() if m == model})

    def task_labels(self, study: str) -> dict[str, str]:
        """How ``study``'s tasks are named in tables and figures (a task's ``label``, else its name)."""
        return {t: self.config["tasks"][t].get("label") or t for t in self.study_tasks(study)}

    def scoring_jobs(self, model: str) -> str:
        """How ``model``'s scoring (and its calibration and evaluation) is cut into jobs: per_task |
        per_model. A model entry's ``scoring_jobs`` (models.schema.yaml) overrides ``scoring.jobs``."""
        return self.config["models"][model].get("scoring_jobs", self.config["scoring"]["jobs"])

    def models_with_scoring_jobs(self, jobs: str) -> list[str]:
        """The scored models whose scoring is cut into ``jobs`` (per_task | per_model) jobs."""
        return [m for m in self.scored_models() if self.scoring_jobs(m) == jobs]

    # ---- model jobs ----------------------------------------------------------------------------
    @property
    def model_jobs_at_once(self) -> int:
        return self.config["local"]["model_jobs_at_once"]

    def model_job_resources(self, workflow) -> dict[str, int]:
        """The ``resources:`` a job that runs a language model adds locally (benchval.plumbing.job_threads):
        one of ``local.model_jobs_at_once`` model-job slots (:meth:`register_model_job_slots`) and its torch
        threads. Such a job declares one thread of the ``--cores`` budget, so that it never waits for
        several cores to be free at once while one-thread jobs keep taking each core that frees up (the
        starvation that held the first scoring job back for minutes on 2 cores). On a cluster (no local
        ``--cores``) it adds nothing: profiles/slurm sets these rules' threads."""
        from snakemake.exceptions import WorkflowError

        try:
            share = model_job_threads(workflow.cores, self.model_jobs_at_once)
        except WorkflowError:
            return {}
        return {MODEL_JOB_SLOTS: 1, TORCH_THREADS: share}

    def register_model_job_slots(self, workflow) -> None:
        """Locally, at most ``local.model_jobs_at_once`` jobs holding a model-job slot run at once (a global
        Snakemake resource, as ``--resources model_jobs=N`` would set, which takes precedence when given)."""
        if self.model_job_resources(workflow) and MODEL_JOB_SLOTS not in workflow.global_resources:
            workflow.register_resource(MODEL_JOB_SLOTS, self.model_jobs_at_once)

    def model_job_rules(self) -> list[ModelJobRule]:
        """The rules of each model-job family (score, calibrate, evaluate), as the scoring layout
        cuts them (:meth:`scoring_jobs`): rule <family> (suffix ""), one job per (model, task), where
        a scored model is per_task or ``scoring.jobs`` is; and <family>_model_<model> (non-word
        characters as ``_``), one job per model over all its tasks, for each per_model model. Beside
        per-model rules the per-task rule matches only the other scored models (no two rules may
        write one file)."""
        per_model = self.models_with_scoring_jobs("per_model")
        scored = self.scored_models()
        rules = []
        if len(per_model) < len(scored) or self.config["scoring"]["jobs"] == "per_task":
            others = alternatives([m for m in scored if m not in per_model]) if per_model else None
            rules.append(ModelJobRule("", others, None))
        for model in per_model:
            suffix = "_model_" + re.sub(r"\W", "_", model)
            rules.append(ModelJobRule(suffix, alternatives([model]), tuple(self.tasks_scored_with(model))))
        return rules

    def model_job_priority(self, model: str) -> float:
        """Scheduling priority of a model's scoring job: above CommonWhy's model jobs (0), below model
        preparation (10); a larger model (``size_b``) first, so that the longest job does not start
        last and leave a core idle at the end (longest-first). In [1, 2)."""
        sizes = [self.config["models"][m].get("size_b") or 0 for m in self.scored_models()]
        largest = max(sizes, default=0)
        return 1 + (self.config["models"][model].get("size_b") or 0) / (largest + 1)

    # ---- analysis outputs ----------------------------------------------------------------------
    @property
    def figure_formats(self) -> list[str]:
        return self.config["analysis"]["figures"]["formats"]

    def study_figure_files(self, study: str, stems=FIGURE_STEMS) -> list[str]:
        """Every format of each figure in ``stems`` (default: the analysis's figures) of ``study``."""
        return [fill(STUDY_FIGURE, study=study, stem=stem, fmt=fmt) for stem in stems for fmt in self.figure_formats]

    @staticmethod
    def study_table_files(study: str) -> list[str]:
        """The tables (CSV) the analysis writes for ``study``."""
        return [fill(STUDY_TABLE, study=study, name=name) for name in TABLE_NAMES]

    # ---- scoreboards (scored studies) and the partial-Spearman sensitivity table (every study) --
    def scoreboard_studies(self) -> list[str]:
        """The studies with a scoreboard and paired comparisons (the findings page reads them): the scored ones
        (rules scoreboard, paired_comparisons) and the lm_eval studies with samples (rule lmeval_scoreboard)."""
        return list(self.scored_studies) + samples_studies(self.studies)

    def scoreboard_figure_files(self, study: str) -> list[str]:
        return self.study_figure_files(study, ["scoreboard"])

    def published_figures(self) -> list[str]:
        """Every figure rule publish gathers into results/figures/."""
        return (
            [path for study in self.studies for path in self.study_figure_files(study)]
            + [path for study in self.scoreboard_studies() for path in self.scoreboard_figure_files(study)]
            + [path for study in self.studies for path in self.study_figure_files(study, ["specification_curve"])]
        )

    def published_tables(self) -> list[str]:
        """Every table rule publish gathers into results/tables/."""
        return (
            [path for study in self.studies for path in self.study_table_files(study)]
            + [fill(SCOREBOARD_TABLE, study=study) for study in self.scoreboard_studies()]
            + [fill(PAIRED_TABLE, study=study) for study in self.scoreboard_studies()]
            + [fill(table, study=study) for study in self.studies for table in ROBUSTNESS_TABLES]
        )

    def study_target_files(self, study: str) -> list[str]:
        """What the study target ``study_<name>`` (workflow/rules/analysis.smk) builds: every figure and table of
        the study that ``results/figures`` and ``results/tables`` publish, an lm_eval study's item intervals, and
        the study's findings page, whose every link points to one of these files (under results/studies/<name>/)."""
        figures = self.study_figure_files(study, (*FIGURE_STEMS, "specification_curve"))
        tables = self.study_table_files(study) + [fill(table, study=study) for table in ROBUSTNESS_TABLES]
        if study in self.scoreboard_studies():
            figures += self.scoreboard_figure_files(study)
            tables += [fill(SCOREBOARD_TABLE, study=study), fill(PAIRED_TABLE, study=study)]
        if study in samples_studies(self.studies):
            tables.append(fill(STUDY_TABLE, study=study, name="item_intervals"))
        return figures + tables + [fill(STUDY_FINDINGS_MARKDOWN, study=study), fill(STUDY_FINDINGS_HTML, study=study)]

    def scoreboard_report_files(self) -> list[str]:
        """What the report shows of the scoreboards and the sensitivity tables."""
        return [
            path
            for study in self.scoreboard_studies()
            for path in (
                fill(REPORT_STUDY_FIGURE, study=study, stem="scoreboard"),
                fill(REPORT_STUDY_TABLE, study=study, name="scoreboard"),
            )
        ] + [fill(REPORT_STUDY_TABLE, study=study, name="specification_robustness") for study in self.studies]

    # ---- CommonWhy -----------------------------------------------------------------------------
    @property
    def kg(self) -> Mapping:
        return self.config["commonwhy"]["kg"]

    @property
    def kg_store(self) -> str:
        """The local KG store folder (built by rule kg_store)."""
        return self.kg["store"]

    @property
    def kg_store_inputs(self) -> dict[str, str]:
        """``{"store": folder}`` for rules that read the KG when the source is the local store; else empty."""
        return {"store": self.kg_store} if self.kg["source"] == "local" else {}

    def commonwhy_criterion_inputs(self, study: str) -> list[str]:
        """The CommonWhy criterion rows and tasks when ``study`` asks for them (studies.schema.yaml)."""
        return list(COMMONWHY_CRITERION_FILES) if self.studies[study].get("commonwhy_criterion", False) else []

    def uses_commonwhy_criterion(self) -> bool:
        return any(self.studies[s].get("commonwhy_criterion", False) for s in self.scored_studies)

    @cached_property
    def commonwhy_eval(self) -> dict:
        """The ``commonwhy_eval:`` section, checked, with its defaults (benchval.commonwhy.eval.settings)."""
        from benchval.commonwhy.eval.settings import resolve

        return resolve(self.config.get("commonwhy_eval"))

    def commonwhy_eval_systems(self) -> list[str]:
        from benchval.commonwhy.eval.settings import all_systems

        return all_systems(self.commonwhy_eval)

    def commonwhy_in_default_target(self) -> bool:
        """CommonWhy is in the default target and the report only when a scored study uses it as a
        criterion (config/paper.yaml uses none: the paper's run computes the paper and nothing more).
        Its files can always be asked for by name (``snakemake results/commonwhy_eval/table2.png``)."""
        return self.uses_commonwhy_criterion() and bool(self.commonwhy_eval_systems())

    def commonwhy_eval_report_files(self) -> list[str]:
        """What the report shows of the CommonWhy evaluation."""
        return [JUDGE_CHECK_PAGE] if self.commonwhy_in_default_target() else []


_LAYOUTS: dict[int, tuple[Mapping, Layout]] = {}


def workflow_layout(config: dict) -> Layout:
    """The layout of this Snakemake ``config`` (one per config object): on the first call its schema
    defaults are filled (benchval.plumbing.config.fill_defaults), so a rule file used on its own (tests) sees the
    same settings as in the whole workflow."""
    key = id(config)
    if key not in _LAYOUTS or _LAYOUTS[key][0] is not config:
        fill_defaults(config)
        _LAYOUTS[key] = (config, Layout(config))
    return _LAYOUTS[key][1]


# --- CommonWhy: the files of workflow/rules/commonwhy.smk and commonwhy_eval.smk that Python reads too ------
# ({judge}, {source}: wildcards; COMMONWHY_DIR, COMMONWHY_EVAL_DIR, JUDGE_CHECK_DIR above; the files only
# commonwhy_eval.smk names are at its top)
COMMONWHY_PUBLISHED = f"{COMMONWHY_DIR}/published.parquet"
COMMONWHY_PUBLISHED_REPORT = f"{COMMONWHY_DIR}/published_join_report.json"
COMMONWHY_CONSTRUCTED = f"{COMMONWHY_DIR}/constructed.parquet"
COMMONWHY_GROUNDING_REPORT = f"{COMMONWHY_DIR}/grounding_report.csv"
COMMONWHY_CONSTRUCTION_SUMMARY = f"{COMMONWHY_DIR}/construction_summary.json"
CWE_ENCODER_MANIFEST = "{encoder_dir}/benchval-encoder.json"
CWE_RESULTS = f"{COMMONWHY_EVAL_DIR}/results.csv"
CWE_TABLE2 = f"{COMMONWHY_EVAL_DIR}/table2_{{source}}.csv"
CWE_TABLE2_FIGURE = f"{COMMONWHY_EVAL_DIR}/table2.png"
CWE_CRITERION_ROWS, CWE_CRITERION_TASKS = COMMONWHY_CRITERION_FILES
CWE_JUDGE_VALIDITY = f"{JUDGE_CHECK_DIR}/{{judge}}.json"
# --- end of CommonWhy ---------------------------------------------------------------------------------
