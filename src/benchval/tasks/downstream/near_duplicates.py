"""The shared near-duplicate rule: word-set Jaccard similarity with greedy keep-first.

Two texts are near-duplicates when the Jaccard similarity of their sets of lower-cased word
tokens (``\\w+``) is at least ``threshold``. Items are visited in a seeded random order (so
that which member of a cluster survives does not depend on the source's ordering, e.g. always
the first version of a paradigm); an item is dropped when it is a near-duplicate of an item
already kept. The result is deterministic for a given seed and threshold, and the kept items
are returned in their original order.
"""

from __future__ import annotations

import random
import re
from typing import Sequence

import numpy as np
from scipy import sparse

_WORD = re.compile(r"\w+")
_CHUNK = 2048


def word_set(text: str) -> frozenset[str]:
    """Lower-cased word tokens of ``text``."""
    return frozenset(_WORD.findall(text.lower()))


def jaccard(a: str, b: str) -> float:
    """Jaccard similarity of the word sets of two texts (1.0 for two empty texts)."""
    sa, sb = word_set(a), word_set(b)
    union = sa | sb
    return 1.0 if not union else len(sa & sb) / len(union)


def _incidence(texts: Sequence[str]) -> sparse.csr_matrix:
    vocabulary: dict[str, int] = {}
    rows, cols = [], []
    for row, text in enumerate(texts):
        for word in word_set(text):
            rows.append(row)
            cols.append(vocabulary.setdefault(word, len(vocabulary)))
    data = np.ones(len(rows), dtype=np.float32)
    return sparse.csr_matrix((data, (rows, cols)), shape=(len(texts), max(len(vocabulary), 1)))


def near_duplicate_of(texts: Sequence[str], threshold: float, seed: int) -> list[int | None]:
    """For each text, the index of the earlier-kept text it duplicates, or None if it is kept.

    ``threshold`` in (0, 1]: minimum Jaccard similarity for two texts to count as near-duplicates.
    """
    if not 0 < threshold <= 1:
        raise ValueError(f"near-duplicate threshold must be in (0, 1], got {threshold}")
    n = len(texts)
    order = list(range(n))
    random.Random(seed).shuffle(order)
    matrix = _incidence([texts[i] for i in order])
    sizes = np.asarray(matrix.sum(axis=1)).ravel()
    kept = np.zeros(n, dtype=bool)
    duplicate_of: list[int | None] = [None] * n
    for start in range(0, n, _CHUNK):
        stop = min(start + _CHUNK, n)
        overlap = (matrix[start:stop] @ matrix[:stop].T).toarray()
        union = sizes[start:stop, None] + sizes[None, :stop] - overlap
        similarity = np.divide(overlap, union, out=np.ones_like(overlap), where=union > 0)
        for local, position in enumerate(range(start, stop)):
            hits = np.flatnonzero(kept[:position] & (similarity[local, :position] >= threshold - 1e-9))
            if hits.size:
                duplicate_of[order[position]] = order[int(hits[0])]
            else:
                kept[position] = True
    return duplicate_of
