"""Local greedy generation and the resumable runner."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from benchval.generation.hf import HFGenerator, cut_answer, decide_chat
from benchval.generation.prompts import PromptTemplate, plain_text, user
from benchval.generation.runner import generate_resumable

PROMPTS = [
    user("why could he not attend the race ?"),
    user("why is paris the capital ?"),
    user("why was she born in berlin ?", system="answer with because"),
    user("why ?"),
]


def test_chat_template_is_used_when_present(tiny_generator):
    assert tiny_generator.chat
    text = tiny_generator.render(PROMPTS[2])
    assert text.startswith("<|system|> answer with because <|end|>")
    assert text.endswith("<|assistant|> ")


def test_plain_text_without_template(tiny_lm_builder, tmp_path):
    folder = tiny_lm_builder(tmp_path / "base", chat_template=None)
    tok = AutoTokenizer.from_pretrained(folder)
    assert decide_chat(tok, "auto") is False
    with pytest.raises(ValueError, match="no chat template"):
        decide_chat(tok, True)
    generator = HFGenerator(AutoModelForCausalLM.from_pretrained(folder), tok)
    assert (
        generator.render(PROMPTS[2]) == plain_text(PROMPTS[2]) == "answer with because\n\nwhy was she born in berlin ?"
    )


def test_greedy_is_deterministic_batched_equals_single_and_respects_length(tiny_generator):
    first = tiny_generator.generate(PROMPTS, max_new_tokens=6)
    assert first == tiny_generator.generate(PROMPTS, max_new_tokens=6)
    single = HFGenerator(tiny_generator.model, tiny_generator.tokenizer, batch_size=1)
    assert single.generate(PROMPTS, max_new_tokens=6) == first
    for text in first:  # each word of the word-level vocabulary is one token
        assert len(text.split()) <= 6
    assert any(text for text in first)


def test_first_token_choice_matches_the_argmax_of_generation(tiny_generator):
    """The chosen option is what greedy generation writes when it may only write an option's first
    token, and each score is the log-softmax of the model's next-token logits, unbatched."""
    model, tok = tiny_generator.model, tiny_generator.tokenizer
    options = ["correct", "paris", "no"]  # the tiny random model prefers paris after one prompt only
    option_ids = [tok.convert_tokens_to_ids(option) for option in options]  # one word, one token
    scores = tiny_generator.first_token_choice(PROMPTS, options)
    assert [set(s) for s in scores] == [set(options)] * len(PROMPTS)
    generated = []
    for prompt, score in zip(PROMPTS, scores):
        ids = tok(tiny_generator.render(prompt), add_special_tokens=False, return_tensors="pt")["input_ids"]
        with torch.no_grad():  # one prompt, no padding: the reference the batched scores must equal
            expected = torch.log_softmax(model(input_ids=ids).logits[0, -1].double(), dim=-1)[option_ids]
        np.testing.assert_allclose([score[o] for o in options], expected.numpy(), atol=1e-5)
        out = model.generate(
            ids,
            max_new_tokens=1,
            do_sample=False,
            pad_token_id=tok.pad_token_id,
            prefix_allowed_tokens_fn=lambda batch, sent: option_ids,
        )
        generated.append(tok.decode(out[0, ids.shape[1] :]))
    assert [max(score, key=score.get) for score in scores] == generated
    assert len(set(generated)) > 1  # the prompts disagree, so a constant choice would not pass
    with pytest.raises(ValueError, match="share a first token"):
        tiny_generator.first_token_choice(PROMPTS, ["yes", "yes no"])
    # batches are formed by prompt length; the results come back in the prompts' order, as one by one
    single = HFGenerator(tiny_generator.model, tiny_generator.tokenizer, batch_size=1)
    for one, batched in zip(single.first_token_choice(PROMPTS, options), scores):
        assert one == pytest.approx(batched, abs=1e-5)


def test_cut_answer():
    assert cut_answer("  Because X.\n\nQuestion: next") == "Because X."
    assert cut_answer("\n Because Y.\nAnswer: more") == "Because Y."
    assert cut_answer("  \n") == ""


def test_prompt_template_placeholders(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("Q: $question\nSELECT ?x WHERE { ?x ?p ?o } costs $$5")
    template = PromptTemplate.from_file(path, required={"question"})
    assert template.fill(question="why?") == "Q: why?\nSELECT ?x WHERE { ?x ?p ?o } costs $5"
    with pytest.raises(ValueError, match=r"\$reference"):
        PromptTemplate.from_file(path, required={"question", "reference"})
    with pytest.raises(KeyError, match="question"):
        template.fill()


class CountingGenerator:
    name = "counting"

    def __init__(self, fail_after_calls: int | None = None):
        self.calls, self.fail_after_calls, self.seen = 0, fail_after_calls, []

    def generate(self, prompts, max_new_tokens):
        if self.fail_after_calls is not None and self.calls >= self.fail_after_calls:
            raise KeyboardInterrupt("simulated interruption")
        self.calls += 1
        self.seen.extend(p[-1]["content"] for p in prompts)
        return [f"because {p[-1]['content']}" for p in prompts]


def test_runner_resumes_after_an_interruption(tmp_path):
    ids = [f"q{i}" for i in range(7)]
    prompts = [user(f"question {i}") for i in range(7)]
    checkpoint = tmp_path / "ckpt.jsonl"
    with pytest.raises(KeyboardInterrupt):
        generate_resumable(CountingGenerator(fail_after_calls=2), ids, prompts, checkpoint, 8, batch_size=3)
    assert len(checkpoint.read_text().splitlines()) == 1 + 6  # settings line + two batches
    resumed = CountingGenerator()
    table = generate_resumable(resumed, ids, prompts, checkpoint, 8, batch_size=3)
    assert resumed.seen == ["question 6"]  # only the unfinished item
    assert table["id"].tolist() == ids
    assert table["answer"].tolist() == [f"because question {i}" for i in range(7)]
    # other settings -> start over
    again = CountingGenerator()
    generate_resumable(again, ids, prompts, checkpoint, 16, batch_size=3)
    assert len(again.seen) == 7
    assert json.loads(checkpoint.read_text().splitlines()[0])["settings"]["max_new_tokens"] == 16


def test_runner_rejects_duplicate_ids(tmp_path):
    with pytest.raises(ValueError, match="unique"):
        generate_resumable(CountingGenerator(), ["a", "a"], [user("x"), user("y")], tmp_path / "c", 4)


def test_shipped_prompts_are_found_from_any_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # as under `snakemake --directory elsewhere`
    template = PromptTemplate.from_file("config/prompts/commonwhy_answer.txt", required={"question"})
    assert "$question" in template.text
    (tmp_path / "config" / "prompts").mkdir(parents=True)
    (tmp_path / "config" / "prompts" / "commonwhy_answer.txt").write_text("Mine: $question")
    assert PromptTemplate.from_file("config/prompts/commonwhy_answer.txt").text == "Mine: $question"
    with pytest.raises(FileNotFoundError, match=r"missing\.txt or .*config/prompts/missing\.txt"):
        PromptTemplate.from_file("config/prompts/missing.txt")
