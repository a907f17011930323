"""The registry's rules against ObsScaling's curated family and size labels (docs/atlas.md).

Family: the registry's family is the pretraining lineage, coarser than ObsScaling's (Llama, Llama-2 and
Llama-3 are one lineage), so a model agrees when the registry gives it the family that the registry gives
most of the models of its ObsScaling family; an unresolved family disagrees. Size: agrees when both are
known and differ by at most ``tolerance`` (relative; names round, 6.7 is ``7b``). Every disagreement is
listed with the rule that decided the registry's value. Because a coarser partition always passes the
family check, the summary also gives the adjusted Rand index of the two partitions (sklearn) and
:func:`merged_lineages` lists every registry family that joins several ObsScaling families.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import adjusted_rand_score


def merged_lineages(obs: pd.DataFrame, models: pd.DataFrame) -> pd.DataFrame:
    """Registry families that join several ObsScaling families (the lineage is coarser), one row each."""
    ours = models[["family"]].rename(columns={"family": "family_registry"})
    joined = obs.join(ours, on="canonical_id").dropna(subset=["family_registry"])
    grouped = joined.groupby("family_registry")["family"].agg(lambda s: sorted(set(s)))
    grouped = grouped[grouped.map(len) > 1]
    return pd.DataFrame({"registry_family": grouped.index, "obsscaling_families": grouped.map(" | ".join).to_numpy()})


def _disagreement_reason(field: str, theirs, ours, row, expected_family, relative: float, tolerance: float) -> str:
    """Why the registry's ``field`` of one model differs from ObsScaling's."""
    if field == "family" and pd.notna(ours):
        return f"the registry puts it in {ours!r} but most of ObsScaling's {theirs!r} in {expected_family!r}"
    if pd.isna(ours):
        return "no registry rule decides it"
    if field == "size_b" and pd.notna(row.get("active_b")) and abs(row["active_b"] - theirs) <= tolerance * theirs:
        return "ObsScaling gives the active parameters of this mixture of experts; the registry the total"
    return f"relative difference {relative:.2f} > {tolerance}"


def obs_agreement(obs: pd.DataFrame, models: pd.DataFrame, tolerance: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(summary, disagreements) of the registry against ObsScaling's labels (columns canonical_id, family, size_b)."""
    fields = ["family", "family_rule", "size_b", "active_b", "size_rule"]
    ours = models[fields].rename(columns={"family": "family_registry", "size_b": "size_b_registry"})
    joined = obs.join(ours, on="canonical_id")
    majority = (
        joined.dropna(subset=["family_registry"])
        .groupby("family")["family_registry"]
        .agg(lambda s: s.value_counts().index[0])
    )
    expected = joined["family"].map(majority)
    family_ok = joined["family_registry"].notna() & (joined["family_registry"] == expected)
    both = joined["size_b"].notna() & joined["size_b_registry"].notna()
    relative = (joined["size_b_registry"] - joined["size_b"]).abs() / joined["size_b"]
    size_ok = both & (relative <= tolerance)
    rows = []
    for index in joined.index[~family_ok | ~size_ok]:
        row = joined.loc[index]
        for field, ok, theirs, ours, rule in (
            ("family", family_ok[index], row["family"], row["family_registry"], row["family_rule"]),
            ("size_b", size_ok[index], row["size_b"], row["size_b_registry"], row["size_rule"]),
        ):
            if ok:
                continue
            why = _disagreement_reason(field, theirs, ours, row, expected[index], relative[index], tolerance)
            rows.append(
                {
                    "model": row["raw_name"],
                    "canonical_id": row["canonical_id"],
                    "field": field,
                    "obsscaling": theirs,
                    "registry": ours,
                    "registry_rule": rule,
                    "why": why,
                }
            )
    resolved = joined["family_registry"].notna()
    ari = adjusted_rand_score(joined.loc[resolved, "family"], joined.loc[resolved, "family_registry"])
    overridden = {
        "family": int(joined["family_rule"].str.startswith("override").sum()),
        "size_b": int(joined["size_rule"].str.startswith("override").sum()),
    }
    summary = pd.DataFrame(
        [
            {
                "field": "family",
                "n_models": len(joined),
                "n_agree": int(family_ok.sum()),
                "rate": float(family_ok.mean()),
            },
            {"field": "size_b", "n_models": len(joined), "n_agree": int(size_ok.sum()), "rate": float(size_ok.mean())},
        ]
    ).assign(n_decided_by_override=lambda f: f["field"].map(overridden))
    summary["adjusted_rand_index"] = [float(ari), np.nan]
    columns = ["model", "canonical_id", "field", "obsscaling", "registry", "registry_rule", "why"]
    return summary, pd.DataFrame(rows, columns=columns).replace({np.nan: None})
