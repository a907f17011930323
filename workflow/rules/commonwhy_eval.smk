# CommonWhy evaluation (paper section 4): answer the why-questions with the configured models or
# OpenAI-compatible endpoints, score them (BERTScore, ROUGE-L, BLEU, METEOR), judge correctness
# (and check the judge), FActScore against the KG source, Table 2 + figure, the KB-Binder-/KGR-style
# baselines, and the criterion rows for the validity analysis.
# Config: the `commonwhy_eval:` block (workflow/schemas/commonwhy_eval.schema.yaml); docs/commonwhy-eval.md.
# Inputs from the CommonWhy part: results/commonwhy/{published,constructed}.parquet and the KG store.
# Every rule passes its stage only the `commonwhy_eval` keys it reads (benchval.commonwhy.eval.stage_keys);
# its files are named in benchval.jobs.layout (the CommonWhy block).


from benchval.jobs.cluster_resources import rule_resources as _cwe_rule_resources
from benchval.commonwhy.eval.settings import answering_endpoints as _cwe_answering_endpoints
from benchval.commonwhy.eval.settings import check_names as _cwe_check_names
from benchval.commonwhy.eval.settings import reads_with_llm as _cwe_reads_with_llm
from benchval.jobs.layout import (
    COMMONWHY_CONSTRUCTED,
    COMMONWHY_PUBLISHED,
    CWE_CRITERION_ROWS,
    CWE_CRITERION_TASKS,
    CWE_ENCODER_MANIFEST,
    CWE_JUDGE_VALIDITY,
    CWE_RESULTS,
    CWE_TABLE2,
    CWE_TABLE2_FIGURE,
    JUDGE_CHECK_PAGE,
    WHEELS_DIR,
)
from benchval.plumbing.folders import REPO_ROOT as _CWE_REPO_ROOT
from benchval.plumbing.folders import workflow_root
from benchval.jobs.layout import alternatives, fill, workflow_layout
from benchval.jobs.reruns import file_digests, script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.jobs.commonwhy_eval_functions import CommonWhyEvalFunctions
from benchval.jobs.layout import COMMONWHY_EVAL_DIR
from benchval.jobs.layout import JUDGE_CHECK_DIR
from benchval.jobs.rule_files import raw_content_of

# The files these rules write, beside them (relative to the working directory; other rule files name
# them as rules.<rule>.output.<key>)
CWE_ANSWERS = f"{COMMONWHY_EVAL_DIR}/answers/{{system}}.parquet"
CWE_ANSWERS_CHECKPOINT = f"{COMMONWHY_EVAL_DIR}/answers/{{system}}.checkpoint.jsonl"
CWE_ANSWERS_TIMING = f"{COMMONWHY_EVAL_DIR}/answers/{{system}}.timing.json"
CWE_BERTSCORE_BASELINE = f"{COMMONWHY_EVAL_DIR}/bertscore_baseline.csv"
CWE_BERTSCORE_BASELINE_REPORT = f"{COMMONWHY_EVAL_DIR}/bertscore_baseline.json"
CWE_CANARY_SCORES = f"{JUDGE_CHECK_DIR}/canaries.csv"
CWE_CANARY_VALIDITY = f"{JUDGE_CHECK_DIR}/canaries.json"
CWE_CHECK_ANSWERS = f"{JUDGE_CHECK_DIR}/answers/{{system}}.parquet"
CWE_CHECK_ANSWERS_CHECKPOINT = f"{JUDGE_CHECK_DIR}/answers/{{system}}.checkpoint.jsonl"
CWE_CHECK_ANSWERS_TIMING = f"{JUDGE_CHECK_DIR}/answers/{{system}}.timing.json"
CWE_CHECK_QUESTIONS = f"{JUDGE_CHECK_DIR}/check_questions.parquet"
CWE_CHECK_QUESTIONS_REPORT = f"{JUDGE_CHECK_DIR}/check_questions_report.json"
CWE_CHECK_SET = f"{JUDGE_CHECK_DIR}/check_set.parquet"
CWE_CHECK_SET_REPORT = f"{JUDGE_CHECK_DIR}/check_set_report.json"
CWE_FACTSCORE = f"{COMMONWHY_EVAL_DIR}/factscore/{{system}}.parquet"
CWE_FACTSCORE_REFERENCES = f"{COMMONWHY_EVAL_DIR}/factscore_references.csv"
CWE_FACTSCORE_SUMMARY = f"{COMMONWHY_EVAL_DIR}/factscore_summary.csv"
CWE_JUDGED = f"{COMMONWHY_EVAL_DIR}/judged/{{system}}.parquet"
CWE_JUDGE_CHECK_TABLE = f"{JUDGE_CHECK_DIR}/judge_check.csv"
CWE_JUDGE_SCORES = f"{JUDGE_CHECK_DIR}/{{judge}}.csv"
CWE_JUDGE_VERDICTS = f"{JUDGE_CHECK_DIR}/{{judge}}.parquet"
CWE_METRICS = f"{COMMONWHY_EVAL_DIR}/metrics/{{system}}.parquet"
CWE_QUESTIONS = f"{COMMONWHY_EVAL_DIR}/questions.parquet"
CWE_QUESTIONS_REPORT = f"{COMMONWHY_EVAL_DIR}/questions_report.json"

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
# the one way a rule names its config keys; `commonwhy_eval:` as resolved, with its defaults
config_provider = config_provider_for(config, commonwhy_eval=workflow_layout(config).commonwhy_eval)
LAYOUT = workflow_layout(config)
raw_content = raw_content_of(LAYOUT)  # raw inputs by content (benchval.jobs.rule_files.raw_content)

# Locally, a model-job slot (local.model_jobs_at_once of them) and torch threads (Layout.model_job_resources).
_MODEL_JOB = LAYOUT.model_job_resources(workflow)

CWE = LAYOUT.commonwhy_eval
_cwe_check_names(CWE, config["models"])
CWE_KG = LAYOUT.kg
CWE_DIRECT = list(CWE["models"]) + _cwe_answering_endpoints(CWE)  # systems that answer directly
CWE_BACKBONE = CWE["baselines"]["backbone"]
CWE_SYSTEMS = LAYOUT.commonwhy_eval_systems()
CWE_ENCODER = CWE["metrics"]["bertscore"]["dir"]
CWE_ENCODER_FILE = fill(CWE_ENCODER_MANIFEST, encoder_dir=CWE_ENCODER)
CWE_SOURCES = [s for s in ("published", "constructed") if CWE["sample"][s] != 0]
CWE_JUDGE = CWE["judge"]["system"]
CWE_CLAIMS_BY_LLM = _cwe_reads_with_llm(CWE["factscore"])  # claims split or entities named by the LLM
CWE_BS_BASELINE = CWE["metrics"]["bertscore"]["baseline"]  # the locally computed rescaling baseline
# the baseline corpus is a raw-data file: read from the mirror, or from the downloads with `mirror: null`
CWE_BS_CORPUS = workdir_relative(LAYOUT.raw_root / CWE_BS_BASELINE["corpus"]) if CWE_BS_BASELINE["corpus"] else None
CWE_CHECK_ANSWERERS = (
    list(CWE["models"]) if CWE["judge_check"]["answer_models"] is None else CWE["judge_check"]["answer_models"]
)

# the stages' settings, prompt files, model entries and files (benchval.jobs.commonwhy_eval_functions)
CWE_FUNCTIONS = CommonWhyEvalFunctions(
    config, LAYOUT, config_provider, script_code, _CWE_REPO_ROOT, workflow_root(workflow.basedir)
)


rule commonwhy_eval_encoder:
    output:
        CWE_ENCODER_FILE,
    log:
        logs("commonwhy_eval_encoder/commonwhy_eval_encoder.log"),
    benchmark:
        benchmarks("commonwhy_eval_encoder/commonwhy_eval_encoder.tsv")
    conda:
        "../envs/benchval.yaml"
    params:
        settings=CWE_FUNCTIONS.settings("encoder"),
        wheel_dir=WHEELS_DIR,
        dest=lambda w, output: CWE_FUNCTIONS.encoder_dir(output),  # CWE_ENCODER
        code=script_code("commonwhy_eval_encoder.py"),
    script:
        "../scripts/commonwhy_eval_encoder.py"


rule commonwhy_eval_bertscore_baseline:
    # computed once per encoder, layer, corpus and seed (bert-score's method; docs/commonwhy-eval.md)
    input:
        corpus=ancient(CWE_BS_CORPUS or []),  # a raw file: by content
        encoder=[] if CWE["metrics"]["bertscore"]["model_type"] else CWE_ENCODER_FILE,
    output:
        baseline=CWE_BERTSCORE_BASELINE,
        report=CWE_BERTSCORE_BASELINE_REPORT,
    log:
        logs("commonwhy_eval_bertscore_baseline/commonwhy_eval_bertscore_baseline.log"),
    benchmark:
        benchmarks("commonwhy_eval_bertscore_baseline/commonwhy_eval_bertscore_baseline.tsv")
    conda:
        "../envs/benchval.yaml"
    resources:
        **_MODEL_JOB,
    params:
        settings=CWE_FUNCTIONS.settings("bertscore_baseline"),
        encoder_dir=lambda w, input: CWE_FUNCTIONS.encoder_dir(input),  # CWE_ENCODER
        seed=config_provider("seed", default=0),
        raw_content=raw_content(CWE_BS_CORPUS or []),  # derived: the declared sha256 of each raw input
        raw_files=LAYOUT.raw_file_check,  # derived: not a rerun trigger (its docstring)
        code=script_code("commonwhy_eval_bertscore_baseline.py"),
    script:
        "../scripts/commonwhy_eval_bertscore_baseline.py"


rule commonwhy_eval_sample:
    input:
        published=COMMONWHY_PUBLISHED if CWE["sample"]["published"] != 0 else [],
        constructed=COMMONWHY_CONSTRUCTED if CWE["sample"]["constructed"] != 0 else [],
    output:
        questions=CWE_QUESTIONS,
        report=CWE_QUESTIONS_REPORT,
    log:
        logs("commonwhy_eval_sample/commonwhy_eval_sample.log"),
    benchmark:
        benchmarks("commonwhy_eval_sample/commonwhy_eval_sample.tsv")
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        settings=CWE_FUNCTIONS.settings("sample"),
        seed=config_provider("seed"),
        code=script_code("commonwhy_eval_sample.py"),
    script:
        "../scripts/commonwhy_eval_sample.py"


rule commonwhy_eval_answer:
    input:
        prompts=ancient(CWE_FUNCTIONS.prompt_inputs("answer")),  # user prompt files; the content of every prompt is a param
        questions=CWE_QUESTIONS,
        model=lambda wc: CWE_FUNCTIONS.manifest(wc.system),
    output:
        answers=CWE_ANSWERS,
        timing=CWE_ANSWERS_TIMING,
    log:
        logs("commonwhy_eval_answer/{system}.log"),
    benchmark:
        benchmarks("commonwhy_eval_answer/{system}.tsv")
    wildcard_constraints:
        system=alternatives(CWE_DIRECT),
    conda:
        "../envs/benchval.yaml"
    resources:
        **_MODEL_JOB,
        **_cwe_rule_resources(config, "generate", wildcard="system"),
    params:
        **CWE_FUNCTIONS.answer_params(CWE_ANSWERS_CHECKPOINT),
    script:
        "../scripts/commonwhy_eval_answer.py"


rule commonwhy_eval_kbbinder:
    input:
        unpack(lambda wc: CWE_FUNCTIONS.kg_inputs()),
        prompts=ancient(CWE_FUNCTIONS.prompt_inputs("kbbinder")),  # user prompt files; the content of every prompt is a param
        questions=CWE_QUESTIONS,
        model=CWE_FUNCTIONS.manifest(CWE_BACKBONE) if CWE_BACKBONE else [],
    output:
        answers=fill(CWE_ANSWERS, system=f"kbbinder-{CWE_BACKBONE}"),
        timing=fill(CWE_ANSWERS_TIMING, system=f"kbbinder-{CWE_BACKBONE}"),
    log:
        logs("commonwhy_eval_kbbinder/commonwhy_eval_kbbinder.log"),
    benchmark:
        benchmarks("commonwhy_eval_kbbinder/commonwhy_eval_kbbinder.tsv")
    conda:
        "../envs/benchval.yaml"
    resources:
        **_MODEL_JOB,
        **_cwe_rule_resources(config, "generate", model=CWE_BACKBONE),
    params:
        settings=CWE_FUNCTIONS.settings("kbbinder", CWE_BACKBONE),
        prompt_files=CWE_FUNCTIONS.prompt_digests("kbbinder"),
        models=CWE_FUNCTIONS.models(CWE_BACKBONE),
        kg=config_provider("commonwhy.kg"),
        code=script_code("commonwhy_eval_kbbinder.py"),
    script:
        "../scripts/commonwhy_eval_kbbinder.py"


rule commonwhy_eval_kgr:
    input:
        unpack(lambda wc: CWE_FUNCTIONS.kg_inputs()),
        prompts=ancient(CWE_FUNCTIONS.prompt_inputs("kgr")),  # user prompt files; the content of every prompt is a param
        questions=CWE_QUESTIONS,
        drafts=fill(CWE_ANSWERS, system=CWE_BACKBONE),
        model=CWE_FUNCTIONS.manifest(CWE_BACKBONE) if CWE_BACKBONE else [],
        # the LLM's model when it splits claims or names entities (factscore.claims / entities: llm)
        claims=CWE_FUNCTIONS.manifest(CWE["factscore"]["claim_system"]) if CWE_CLAIMS_BY_LLM else [],
    output:
        answers=fill(CWE_ANSWERS, system=f"kgr-{CWE_BACKBONE}"),
        timing=fill(CWE_ANSWERS_TIMING, system=f"kgr-{CWE_BACKBONE}"),
    log:
        logs("commonwhy_eval_kgr/commonwhy_eval_kgr.log"),
    benchmark:
        benchmarks("commonwhy_eval_kgr/commonwhy_eval_kgr.tsv")
    conda:
        "../envs/benchval.yaml"
    resources:
        **_MODEL_JOB,
        **_cwe_rule_resources(config, "generate", model=CWE_BACKBONE),
    params:
        settings=CWE_FUNCTIONS.settings("kgr", CWE_BACKBONE, CWE["factscore"]["claim_system"]),  # derived: a commonwhy_eval system
        prompt_files=CWE_FUNCTIONS.prompt_digests("kgr"),
        models=CWE_FUNCTIONS.models(CWE_BACKBONE, *([CWE["factscore"]["claim_system"]] if CWE_CLAIMS_BY_LLM else [])),  # derived: a commonwhy_eval system
        kg=config_provider("commonwhy.kg"),
        code=script_code("commonwhy_eval_kgr.py"),
    script:
        "../scripts/commonwhy_eval_kgr.py"


rule commonwhy_eval_score:
    # all systems in one job: the encoder and the libraries load once
    input:
        questions=CWE_QUESTIONS,
        answers=CWE_FUNCTIONS.for_systems(CWE_ANSWERS),
        encoder=[] if CWE["metrics"]["bertscore"]["model_type"] else CWE_ENCODER_FILE,
        baseline=CWE_BERTSCORE_BASELINE if CWE_BS_CORPUS else [],
    output:
        CWE_FUNCTIONS.for_systems(CWE_METRICS),
    log:
        logs("commonwhy_eval_score/commonwhy_eval_score.log"),
    benchmark:
        benchmarks("commonwhy_eval_score/commonwhy_eval_score.tsv")
    conda:
        "../envs/benchval.yaml"
    resources:
        **_MODEL_JOB,
    params:
        settings=CWE_FUNCTIONS.settings("score"),
        encoder_dir=lambda w, input: CWE_FUNCTIONS.encoder_dir(input),  # CWE_ENCODER
        systems=CWE_SYSTEMS,
        code=script_code("commonwhy_eval_score.py"),
    script:
        "../scripts/commonwhy_eval_score.py"


rule commonwhy_eval_check_questions:
    # the check set's questions: seeded, at most judge_check.max_per_family per question family
    input:
        published=COMMONWHY_PUBLISHED,
        constructed=COMMONWHY_CONSTRUCTED,
        rule_queries=ancient(CWE_FUNCTIONS.rule_queries()),  # which rules' causes label pairs (a raw file: by content)
    output:
        questions=CWE_CHECK_QUESTIONS,
        report=CWE_CHECK_QUESTIONS_REPORT,
    log:
        logs("commonwhy_eval_check_questions/commonwhy_eval_check_questions.log"),
    benchmark:
        benchmarks("commonwhy_eval_check_questions/commonwhy_eval_check_questions.tsv")
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        settings=CWE_FUNCTIONS.settings("check_questions"),
        seed=config_provider("seed"),
        raw_content=raw_content(CWE_FUNCTIONS.rule_queries()),  # derived: the declared sha256 of each raw input
        raw_files=LAYOUT.raw_file_check,  # derived: not a rerun trigger (its docstring)
        code=script_code("commonwhy_eval_check_questions.py"),
    script:
        "../scripts/commonwhy_eval_check_questions.py"


rule commonwhy_eval_check_answer:
    # a configured model answers the check questions; its outputs become rule-labelled negatives
    input:
        prompts=ancient(CWE_FUNCTIONS.prompt_inputs("answer")),  # user prompt files; the content of every prompt is a param
        questions=CWE_CHECK_QUESTIONS,
        model=lambda wc: CWE_FUNCTIONS.manifest(wc.system),
    output:
        answers=CWE_CHECK_ANSWERS,
        timing=CWE_CHECK_ANSWERS_TIMING,
    log:
        logs("commonwhy_eval_check_answer/{system}.log"),
    benchmark:
        benchmarks("commonwhy_eval_check_answer/{system}.tsv")
    wildcard_constraints:
        system=alternatives(CWE["models"]),
    priority: 1  # the judge check chain, long: beside the scoring, not after it
    conda:
        "../envs/benchval.yaml"
    resources:
        **_MODEL_JOB,
        **_cwe_rule_resources(config, "generate", wildcard="system"),
    params:
        **CWE_FUNCTIONS.answer_params(CWE_CHECK_ANSWERS_CHECKPOINT),
    script:
        "../scripts/commonwhy_eval_answer.py"


rule commonwhy_eval_check_set:
    # the judge's labelled check set: built from the data, the KG and the models' answers, labelled by
    # rules, never by a judge
    input:
        unpack(lambda wc: CWE_FUNCTIONS.kg_inputs()),
        published=COMMONWHY_PUBLISHED,
        constructed=COMMONWHY_CONSTRUCTED,
        answers=expand(CWE_CHECK_ANSWERS, system=CWE_CHECK_ANSWERERS),
        rule_queries=ancient(CWE_FUNCTIONS.rule_queries()),  # which rules' queries never test their cause (by content)
        natural_labels=ancient(CWE_FUNCTIONS.natural_label_inputs()),  # a user's file; the content of every one is a param
    output:
        pairs=CWE_CHECK_SET,
        report=CWE_CHECK_SET_REPORT,
    log:
        logs("commonwhy_eval_check_set/commonwhy_eval_check_set.log"),
    benchmark:
        benchmarks("commonwhy_eval_check_set/commonwhy_eval_check_set.tsv")
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        settings=CWE_FUNCTIONS.settings("check_set"),
        kg=config_provider("commonwhy.kg"),
        seed=config_provider("seed"),
        systems=CWE_CHECK_ANSWERERS,
        natural_labels=CWE_FUNCTIONS.natural_label_digests(),
        natural_labels_file=config_provider("commonwhy_eval.judge_check.natural_labels"),
        raw_content=raw_content(CWE_FUNCTIONS.rule_queries()),  # derived: the declared sha256 of each raw input
        raw_files=LAYOUT.raw_file_check,  # derived: not a rerun trigger (its docstring)
        code=script_code("commonwhy_eval_check_set.py"),
    script:
        "../scripts/commonwhy_eval_check_set.py"


rule commonwhy_eval_judge_canaries:
    # rule-based canary judges (reference words, always yes/no, lexical overlap): each must fail the gate
    input:
        pairs=CWE_CHECK_SET,
    output:
        scores=CWE_CANARY_SCORES,
        validity=CWE_CANARY_VALIDITY,
    log:
        logs("commonwhy_eval_judge_canaries/commonwhy_eval_judge_canaries.log"),
    benchmark:
        benchmarks("commonwhy_eval_judge_canaries/commonwhy_eval_judge_canaries.tsv")
    priority: 5  # feeds the model jobs (docs/workflow.md "Scheduling")
    conda:
        "../envs/benchval.yaml"
    params:
        settings=CWE_FUNCTIONS.settings("judge_canaries"),
        seed=config_provider("seed"),
        code=script_code("commonwhy_eval_judge_canaries.py"),
    script:
        "../scripts/commonwhy_eval_judge_canaries.py"


rule commonwhy_eval_judge_check:
    # one judge on the check set; its outputs depend only on the set, the judge and its settings,
    # so the check runs once per judge (benchmarks/bench_commonwhy_judges.py measures every model)
    input:
        prompts=ancient(CWE_FUNCTIONS.prompt_inputs("judge_check")),  # user prompt files; the content of every prompt is a param
        pairs=CWE_CHECK_SET,
        canaries=CWE_CANARY_VALIDITY,
        model=lambda wc: CWE_FUNCTIONS.manifest(wc.judge),
    output:
        verdicts=CWE_JUDGE_VERDICTS,
        scores=CWE_JUDGE_SCORES,
        validity=CWE_JUDGE_VALIDITY,
    log:
        logs("commonwhy_eval_judge_check/{judge}.log"),
    benchmark:
        benchmarks("commonwhy_eval_judge_check/{judge}.tsv")
    wildcard_constraints:
        judge=alternatives([*config["models"], *CWE["endpoints"]]),
    priority: 1  # the judge check chain, long: beside the scoring, not after it
    conda:
        "../envs/benchval.yaml"
    resources:
        **_MODEL_JOB,
        **_cwe_rule_resources(config, "generate", wildcard="judge"),
    params:
        settings=CWE_FUNCTIONS.settings("judge_check", wildcard="judge"),
        prompt_files=CWE_FUNCTIONS.prompt_digests("judge_check"),
        models=lambda wc: CWE_FUNCTIONS.models(wc.judge),
        seed=config_provider("seed"),
        code=script_code("commonwhy_eval_judge_check.py"),
    script:
        "../scripts/commonwhy_eval_judge_check.py"


rule commonwhy_eval_judge_check_report:
    input:
        scores=[fill(CWE_JUDGE_SCORES, judge=CWE_JUDGE)],
        validity=[fill(CWE_JUDGE_VALIDITY, judge=CWE_JUDGE)],
        canary_scores=CWE_CANARY_SCORES,
        canary_validity=CWE_CANARY_VALIDITY,
        # every offline judge measured by benchmarks/bench_commonwhy_judges.py (committed tables)
        measured=ancient(CWE_FUNCTIONS.measured_judges()),  # repository files: their content is a param
    output:
        table=CWE_JUDGE_CHECK_TABLE,
        page=report(JUDGE_CHECK_PAGE, caption="../report/commonwhy_judge_check.rst", category="CommonWhy"),
    log:
        logs("commonwhy_eval_judge_check_report/commonwhy_eval_judge_check_report.log"),
    benchmark:
        benchmarks("commonwhy_eval_judge_check_report/commonwhy_eval_judge_check_report.tsv")
    conda:
        "../envs/benchval.yaml"
    params:
        measured=file_digests(CWE_FUNCTIONS.measured_judges(), workflow_root(workflow.basedir)),
        code=script_code("commonwhy_eval_judge_check_report.py"),
    script:
        "../scripts/commonwhy_eval_judge_check_report.py"


rule commonwhy_eval_judge:
    # runs the judge only when it passed its check; otherwise every verdict is missing with the reason
    input:
        prompts=ancient(CWE_FUNCTIONS.prompt_inputs("judge")),  # user prompt files; the content of every prompt is a param
        questions=CWE_QUESTIONS,
        answers=CWE_FUNCTIONS.for_systems(CWE_ANSWERS),
        validity=fill(CWE_JUDGE_VALIDITY, judge=CWE_JUDGE),
        model=CWE_FUNCTIONS.manifest(CWE_JUDGE),
    output:
        judged=CWE_FUNCTIONS.for_systems(CWE_JUDGED),
    log:
        logs("commonwhy_eval_judge/commonwhy_eval_judge.log"),
    benchmark:
        benchmarks("commonwhy_eval_judge/commonwhy_eval_judge.tsv")
    conda:
        "../envs/benchval.yaml"
    resources:
        **_MODEL_JOB,
        **_cwe_rule_resources(config, "generate", model=CWE_JUDGE),
    params:
        settings=CWE_FUNCTIONS.settings("judge", CWE_JUDGE),
        prompt_files=CWE_FUNCTIONS.prompt_digests("judge"),
        models=CWE_FUNCTIONS.models(CWE_JUDGE),
        systems=CWE_SYSTEMS,
        code=script_code("commonwhy_eval_judge.py"),
    script:
        "../scripts/commonwhy_eval_judge.py"


rule commonwhy_eval_factscore:
    # all systems in one job: the KG store opens once and entity look-ups are shared
    input:
        unpack(lambda wc: CWE_FUNCTIONS.kg_inputs()),
        prompts=ancient(CWE_FUNCTIONS.prompt_inputs("factscore")),  # user prompt files; the content of every prompt is a param
        answers=CWE_FUNCTIONS.for_systems(CWE_ANSWERS),
        judged=CWE_FUNCTIONS.for_systems(CWE_JUDGED),
        questions=CWE_QUESTIONS,
        claims=CWE_FUNCTIONS.manifest(CWE["factscore"]["claim_system"]) if CWE_CLAIMS_BY_LLM else [],
    output:
        systems=CWE_FUNCTIONS.for_systems(CWE_FACTSCORE),
        references=CWE_FACTSCORE_REFERENCES,
        summary=CWE_FACTSCORE_SUMMARY,
    log:
        logs("commonwhy_eval_factscore/commonwhy_eval_factscore.log"),
    benchmark:
        benchmarks("commonwhy_eval_factscore/commonwhy_eval_factscore.tsv")
    conda:
        "../envs/benchval.yaml"
    resources:
        **_MODEL_JOB,
    params:
        settings=CWE_FUNCTIONS.settings("factscore", CWE["factscore"]["claim_system"]),  # derived: a commonwhy_eval system
        prompt_files=CWE_FUNCTIONS.prompt_digests("factscore"),
        models=CWE_FUNCTIONS.models(CWE["factscore"]["claim_system"]) if CWE_CLAIMS_BY_LLM else {},  # derived: a commonwhy_eval system
        kg=config_provider("commonwhy.kg"),
        systems=CWE_SYSTEMS,
        code=script_code("commonwhy_eval_factscore.py"),
    script:
        "../scripts/commonwhy_eval_factscore.py"


rule commonwhy_eval_table2:
    input:
        questions=CWE_QUESTIONS,
        metrics=CWE_FUNCTIONS.for_systems(CWE_METRICS),
        judged=CWE_FUNCTIONS.for_systems(CWE_JUDGED),
        factscore=CWE_FUNCTIONS.for_systems(CWE_FACTSCORE),
        factscore_references=CWE_FACTSCORE_REFERENCES,
        validity=fill(CWE_JUDGE_VALIDITY, judge=CWE_JUDGE),
        judges=ancient(CWE_FUNCTIONS.judges_table()),  # a repository file: its content is a param
    output:
        results=CWE_RESULTS,
        tables=expand(CWE_TABLE2, source=CWE_SOURCES),
        figure=CWE_TABLE2_FIGURE,
    log:
        logs("commonwhy_eval_table2/commonwhy_eval_table2.log"),
    benchmark:
        benchmarks("commonwhy_eval_table2/commonwhy_eval_table2.tsv")
    conda:
        "../envs/benchval.yaml"
    params:
        systems=CWE_SYSTEMS,
        sources=CWE_SOURCES,
        judges_table=file_digests(CWE_FUNCTIONS.judges_table(), workflow_root(workflow.basedir)),
        code=script_code("commonwhy_eval_table2.py"),
        factscore_min_coverage=config_provider("commonwhy_eval.factscore.min_coverage"),
        bertscore_note=CWE_FUNCTIONS.bertscore_table_note(),
    script:
        "../scripts/commonwhy_eval_table2.py"


rule commonwhy_eval_criterion:
    input:
        results=CWE_RESULTS,
    output:
        rows=CWE_CRITERION_ROWS,
        tasks=CWE_CRITERION_TASKS,
    log:
        logs("commonwhy_eval_criterion/commonwhy_eval_criterion.log"),
    benchmark:
        benchmarks("commonwhy_eval_criterion/commonwhy_eval_criterion.tsv")
    conda:
        "../envs/benchval.yaml"
    params:
        settings=CWE_FUNCTIONS.settings("criterion"),
        # the family and size of every configured model: the rows of those found in results.csv
        models=CWE_FUNCTIONS.model_families(),
        code=script_code("commonwhy_eval_criterion.py"),
    script:
        "../scripts/commonwhy_eval_criterion.py"
