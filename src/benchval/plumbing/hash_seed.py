"""A fixed string-hash seed for every job, so that a job whose library orders work by a ``set`` of strings
gives the same bytes on every run.

Python salts ``hash(str)`` per process unless ``PYTHONHASHSEED`` is set, and a ``set``'s iteration order
follows the hashes. bert-score deduplicates its sentences through a ``set`` before sorting them by length
(``bert_score.utils.dedup_and_sort``), so sentences of equal length fall into batches in a per-process order;
batch composition changes the padding and the matrix shapes, and the BERTScore rescaling baseline
(rule commonwhy_eval_bertscore_baseline) came out different in the 8th digit on every run. The hash seed must be
in the environment before the job's interpreter starts, so the Snakefile sets it for every job it starts. It
only fixes an order that was arbitrary: no result depends on which fixed order it is.
"""

from __future__ import annotations

from collections.abc import MutableMapping

HASH_SEED = "PYTHONHASHSEED"


def fixed_hash_seed(environ: MutableMapping[str, str]) -> str:
    """Set ``PYTHONHASHSEED=0`` in ``environ`` unless it already names one; return the value in force."""
    return environ.setdefault(HASH_SEED, "0")
