"""The correctness judge and its self-check."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pandas as pd
import pytest

from benchval.commonwhy.eval.judge import Judge, judge_answers, parse_verdict
from benchval.generation.prompts import PromptTemplate, user
from benchval.plumbing.folders import REPO_ROOT

PROMPT = PromptTemplate.from_file(
    REPO_ROOT / "config/prompts/commonwhy_judge.txt", required={"question", "reference", "answer"}
)
QUESTIONS = pd.DataFrame(
    {
        "id": ["q1", "q2", "q3"],
        "question": ["Why couldn't A attend X?", "Why does B need no visa?", "Why is C old?"],
        "references": [
            ["Because A died before X."],
            ["Because B is a citizen.", "Because B is a diplomat."],
            ["Because C was born in 1900."],
        ],
        "rule": ["r1", "r2", "r3"],
    }
)


def reference_and_answer(messages) -> tuple[str, str]:
    """The reference and the graded answer as the judge prompt states them."""
    text = messages[-1]["content"]
    return (re.search(r"Reference answer: (.*)\n", text).group(1), re.search(r"Answer to grade: (.*)\n", text).group(1))


class ExactMatchJudgeModel:
    """Says Yes exactly when the graded answer equals the reference (a perfect judge for the checks)."""

    name = "exact"

    def generate(self, prompts, max_new_tokens):
        out = []
        for messages in prompts:
            ref, ans = reference_and_answer(messages)
            out.append("Yes." if ref == ans else "No, it differs.")
        return out


class ConstantModel:
    name = "constant"

    def __init__(self, text):
        self.text = text

    def generate(self, prompts, max_new_tokens):
        return [self.text] * len(prompts)


def test_parse_verdict():
    assert parse_verdict(" Yes, it does") is True
    assert parse_verdict("no.") is False
    assert parse_verdict("Not sure") is None
    assert parse_verdict("I think yes") is True
    assert parse_verdict(" 1\n") is True and parse_verdict("0") is False  # the authors' GPT-4o judge replies 1/0
    assert parse_verdict("10") is None


def test_correct_when_any_reference_is_equivalent():
    judge = Judge(ExactMatchJudgeModel(), PROMPT, decision="generate")
    answers = pd.DataFrame(
        {
            "id": ["q1", "q2", "q3"],
            "answer": ["Because A died before X.", "Because B is a diplomat.", "Because C is tall."],
        }
    )
    table = judge_answers(judge, QUESTIONS, answers)
    assert table["correct"].tolist() == [True, True, False]
    assert table["n_references"].tolist() == [1, 2, 1]
    assert table["n_yes"].tolist() == [1, 1, 0]


def test_unknown_answer_id_is_an_error():
    judge = Judge(ExactMatchJudgeModel(), PROMPT, decision="generate")
    with pytest.raises(KeyError, match="unknown question ids"):
        judge_answers(judge, QUESTIONS, pd.DataFrame({"id": ["zz"], "answer": ["x"]}))


def test_logprob_decision_with_a_local_model(tiny_generator):
    judge = Judge(tiny_generator, PROMPT, decision="logprob")
    verdicts = judge.decide([("Why?", "Because A.", "Because A."), ("Why?", "Because A.", "No idea.")])
    assert len(verdicts) == 2 and all(v["parsed"] for v in verdicts)
    assert all((float(v["raw"]) > 0) == v["yes"] for v in verdicts)


def test_logprob_needs_a_local_model():
    with pytest.raises(ValueError, match="local model"):
        Judge(ConstantModel("Yes"), PROMPT, decision="logprob")


class MarginModel:
    """A fake local judge: log p(Yes) - log p(No) = bias + 1 when answer == reference, bias - 1 otherwise,
    and bias + 0.5 for the content-free answer 'N/A' — so it always says No unless calibrated."""

    name = "margin"

    def first_token_choice(self, prompts, options):
        out = []
        for messages in prompts:
            ref, ans = reference_and_answer(messages)
            margin = -5 + (0.5 if ans == "N/A" else 1 if ans == ref else -1)
            out.append({"Yes": margin, "No": 0.0})
        return out


def test_calibration_removes_a_constant_lean():
    triples = [("Why?", "Because A.", "Because A."), ("Why?", "Because A.", "Because B.")]
    raw = Judge(MarginModel(), PROMPT, decision="logprob").decide(triples)
    assert [v["yes"] for v in raw] == [False, False]  # the constant lean towards No
    cal = Judge(MarginModel(), PROMPT, decision="calibrated").decide(triples)
    assert [v["yes"] for v in cal] == [True, False]


def test_each_prompt_is_scored_once_per_judge_and_decisions_share_the_margins():
    model = MarginModel()
    asked = []
    scored = model.first_token_choice
    model.first_token_choice = lambda prompts, options: asked.extend(prompts) or scored(prompts, options)
    judge = Judge(model, PROMPT, decision="calibrated")
    triples = [
        ("Why?", "Because A.", "Because A."),
        ("Why?", "Because A.", "Because B."),
        ("Why?", "Because A.", "Because A."),
    ]
    calibrated = [v["yes"] for v in judge.decide(triples)]
    assert len(asked) == 3  # two distinct answers + one content-free "N/A" for the shared (question, reference)
    judge.decision = "logprob"
    assert [v["yes"] for v in judge.decide(triples)] == [False, False, False] and len(asked) == 3
    assert calibrated == [True, False, True]


def test_packed_prompts_give_the_verdicts_of_one_prompt_a_row(tiny_generator):
    """A local model's prompts of one question and reference are packed behind their shared prefix (the fast
    engine, benchval.scoring.next_token): the margins of one prompt a row within float rounding, the same
    verdicts, and fewer tokens fed than the prompts hold."""
    answers = ["Because A died before X.", "Because A was ill.", "He was busy.", "", "Because of the rain in X."]
    triples = [(q, refs[0], a) for q, refs in zip(QUESTIONS["question"], QUESTIONS["references"]) for a in answers]
    one_a_row = Judge(tiny_generator, PROMPT, decision="calibrated")
    one_a_row.shared_prefixes = False
    packed = Judge(tiny_generator, PROMPT, decision="calibrated")
    expected, got = one_a_row.decide(triples), packed.decide(triples)
    assert one_a_row._scorer is None and packed._scorer is not None
    assert set(packed._margins) == set(one_a_row._margins)  # answers and content-free prompts alike
    assert max(abs(packed._margins[t] - one_a_row._margins[t]) for t in triples) < 1e-4
    assert [v["yes"] for v in got] == [v["yes"] for v in expected]
    assert len({v["yes"] for v in got}) == 2  # both verdicts occur, so the comparison can fail
    # each (question, reference) group is fed its common token prefix once, then every prompt's own tail
    groups: dict[tuple[str, str], list[list[int]]] = {}
    for (q, r, _answer), ids in zip(
        packed._margins,
        tiny_generator.prompt_ids(
            [user(PROMPT.fill(question=q, reference=r, answer=a)) for q, r, a in packed._margins]
        ),
    ):
        groups.setdefault((q, r), []).append(ids)
    shared = {key: len(os.path.commonprefix(prompts)) for key, prompts in groups.items()}
    once = sum(shared[key] + sum(len(p) - shared[key] for p in prompts) for key, prompts in groups.items())
    assert packed._scorer.stats.real_tokens == once < sum(len(p) for prompts in groups.values() for p in prompts)


NO_MODEL_SCRIPT = """
import json, sys
from pathlib import Path
import pandas as pd
from benchval.commonwhy.eval.settings import resolve
from benchval.commonwhy.eval.stage_keys import stage_section
from benchval.commonwhy.eval.steps.commonwhy_eval_judge import stage_judge

root = Path(sys.argv[1])
valid = sys.argv[2] == "valid"
pd.DataFrame({{"id": ["q1"], "source": ["published"], "split": ["head"], "question": ["Why?"],
              "references": [["Because."]], "rule": ["r"], "reasoning_category": ["c"], "popularity": [1.0],
              "anchor_qids": [["Q1"]]}}).to_parquet(root / "questions.parquet")
pd.DataFrame({{"id": ["q1"], "system": ["s"], "answer": ["Because."], "seconds": [0.1]}}).to_parquet(root / "s.parquet")
(root / "validity.json").write_text(json.dumps({{"judge": "m", "valid": valid, "reason": "below the bar"}}))
started = []
try:
    stage_judge(str(root / "questions.parquet"), {{"s": str(root / "s.parquet")}},
                stage_section(resolve({{}}), "judge"), {{}}, {{"s": str(root / "judged.parquet")}},
                str(root / "validity.json"), use_torch=lambda: started.append(True))
except KeyError:  # a valid judge named "m" is not among the (empty) models: it got as far as loading one
    pass
print(json.dumps({{"torch": "torch" in sys.modules, "use_torch_called": bool(started)}}))
"""


@pytest.mark.parametrize("validity", ["invalid", "valid"])
def test_the_judge_job_imports_torch_only_to_load_a_judge(tmp_path, validity):
    """Rule commonwhy_eval_judge with a judge that failed its check writes its missing verdicts without ever
    importing torch (its script starts the job with light=False, not torch=True); a valid judge asks for torch
    (the job's use_torch) before it loads the model."""
    script = tmp_path / "run.py"
    script.write_text(NO_MODEL_SCRIPT.format())
    out = subprocess.run([sys.executable, str(script), str(tmp_path), validity], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout.strip().splitlines()[-1])
    if validity == "invalid":
        assert found == {"torch": False, "use_torch_called": False}
        assert pd.read_parquet(tmp_path / "judged.parquet")["correct"].isna().all()
    else:
        assert found["use_torch_called"]
