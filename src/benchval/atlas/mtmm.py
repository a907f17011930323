"""The atlas as a multitrait-multimethod matrix (Campbell and Fiske 1959; docs/atlas.md, "Method apart from
trait"): every pair of pairs.csv labelled by whether its two columns measure the same trait (benchmark) and
whether they share a method (benchval.atlas.methods), summarised per (method, method) block.

Campbell and Fiske's four kinds of correlation, here with their names in ``block``:

* ``monotrait-heteromethod``: one benchmark measured by two methods (the validity diagonal);
* ``monotrait-monomethod``: one benchmark on two boards with one method (a reliability-like value);
* ``heterotrait-monomethod``: two benchmarks sharing a method: what a shared method alone can produce;
* ``heterotrait-heteromethod``: two benchmarks, two methods: the baseline.

Convergent validity needs the validity diagonal above the heterotrait values; a heterotrait-monomethod
median above the heterotrait-heteromethod one is method variance. Pairs of which a column has no method
are left out and counted.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

BLOCKS = ("monotrait-heteromethod", "monotrait-monomethod", "heterotrait-monomethod", "heterotrait-heteromethod")


def labelled_pairs(pairs: pd.DataFrame, methods: pd.DataFrame, traits: dict | None = None) -> pd.DataFrame:
    """pairs.csv's column_a, column_b, rho, n_models with each side's trait and method and the block
    (``traits``: column -> trait with exact copies merged; the table's traits by default)."""
    trait = traits or methods["trait"].to_dict()
    method = methods["method"].to_dict()
    out = pairs[["column_a", "column_b", "rho", "n_models"]].copy()
    for side in ("a", "b"):
        out[f"trait_{side}"] = out[f"column_{side}"].map(trait)
        out[f"method_{side}"] = out[f"column_{side}"].map(method)
    known = out[["method_a", "method_b"]].notna().all(axis=1)
    same_trait = out["trait_a"] == out["trait_b"]
    same_method = out["method_a"] == out["method_b"]
    out["block"] = np.select(
        [same_trait & ~same_method, same_trait & same_method, ~same_trait & same_method],
        BLOCKS[:3],
        default=BLOCKS[3],
    )
    out.loc[~known, "block"] = "no method"
    return out


def method_blocks(labelled: pd.DataFrame) -> pd.DataFrame:
    """Per unordered (method, method) and block: pairs, median rho, and its quartiles."""
    known = labelled[labelled["block"] != "no method"].copy()
    ordered = np.sort(known[["method_a", "method_b"]].to_numpy(str), axis=1)
    known["method_1"], known["method_2"] = ordered[:, 0], ordered[:, 1]
    summary = known.groupby(["method_1", "method_2", "block"])["rho"].agg(
        n_pairs="size", median_rho="median", q1=lambda s: s.quantile(0.25), q3=lambda s: s.quantile(0.75)
    )
    return summary.reset_index()


def block_summary(labelled: pd.DataFrame) -> pd.DataFrame:
    """Per block of :data:`BLOCKS` (and the pairs without a method): pairs, median rho, quartiles."""
    grouped = labelled.groupby("block")["rho"]
    summary = grouped.agg(
        n_pairs="size", median_rho="median", q1=lambda s: s.quantile(0.25), q3=lambda s: s.quantile(0.75)
    )
    summary = summary.reindex([*BLOCKS, "no method"]).reset_index().fillna({"n_pairs": 0})
    return summary.astype({"n_pairs": int})
