"""How many threads torch may use in one job."""

from __future__ import annotations

import os


def limit_torch_threads(threads: int) -> int:
    """Use ``threads`` torch threads, but never more than this machine's cores.

    Snakemake gives model jobs every core of its ``--cores`` budget so that two of them never
    share a small machine (torch jobs side by side oversubscribe it and run several times slower);
    that budget can exceed the cores really present, hence the cap.
    """
    import torch

    usable = max(1, min(int(threads), os.cpu_count() or 1))
    torch.set_num_threads(usable)
    return usable
