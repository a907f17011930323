"""Seeded random generators for task preparation (subsampling, per-item choices)."""

from __future__ import annotations

import zlib

import numpy as np


def task_rng(seed: int, task: str, purpose: str = "subsample") -> np.random.Generator:
    """A generator that depends only on the global seed, the task name and the purpose, so that
    changing one task's settings never changes another task's random draws."""
    return np.random.default_rng([int(seed), zlib.crc32(task.encode("utf-8")), zlib.crc32(purpose.encode("utf-8"))])
