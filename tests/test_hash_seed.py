"""Every job hashes strings with one seed, so that bert-score's batches (and the BERTScore baseline) are the
same on every run (benchval.plumbing.hash_seed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from benchval.plumbing.hash_seed import HASH_SEED, fixed_hash_seed

# The sentences of bert-score's first embedding batch, as bert_score.utils.bert_cos_score_idf forms them
# (its dedup_and_sort: a set, then a stable sort by word count). Equal word counts: the set decides the order.
FIRST_BATCH = """
import json, sys
import bert_score.utils as utils

class FirstBatch(Exception):
    pass

def record(sen_batch, *args, **kwargs):
    raise FirstBatch(sen_batch)

utils.get_bert_embedding = record
sentences = [f"sentence {i} of four" for i in range(40)]
try:
    utils.bert_cos_score_idf(None, sentences[:20], sentences[20:], None, {}, batch_size=8, device="cpu")
except FirstBatch as batch:
    print(json.dumps(batch.args[0]))
"""


def first_batch(environ: dict[str, str]) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", FIRST_BATCH], env=environ, capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def test_the_seed_is_fixed_unless_the_user_chose_one():
    environ = {}
    assert fixed_hash_seed(environ) == "0" and environ == {HASH_SEED: "0"}
    chosen = {HASH_SEED: "random"}  # a user's own choice is kept
    assert fixed_hash_seed(chosen) == "random" and chosen == {HASH_SEED: "random"}


def test_bert_scores_batches_follow_the_hash_seed_and_a_jobs_environment_fixes_them():
    unset = {key: value for key, value in os.environ.items() if key != HASH_SEED}
    job_environment = dict(unset)
    fixed_hash_seed(job_environment)
    first, again = first_batch(job_environment), first_batch(job_environment)
    assert first == again and len(first) == 8
    # without a fixed seed each process salts its hashes: another seed gives other batches (the old behaviour)
    assert first_batch({**unset, HASH_SEED: "1"}) != first


def test_the_snakefile_fixes_the_seed_for_the_jobs_it_starts():
    snakefile = (Path(__file__).resolve().parents[1] / "workflow" / "Snakefile").read_text(encoding="utf-8")
    assert "\nfixed_hash_seed(os.environ)\n" in snakefile
