"""Rule atlas_identity: the registry against the labelled identity sample (the resolved labels, and the blind
labels alone), the two labellings' agreement, and leaderboard overlap counts."""

from __future__ import annotations

import pandas as pd

from benchval.atlas.steps.atlas_common import write_table


def write_identity(atlas: dict, seed: int, ci_level: float, inputs: dict, outputs: dict) -> None:
    """Rule atlas_identity (benchval.atlas.identity_check)."""
    from benchval.atlas.identity_check import (
        identity_scores,
        label_agreement,
        leaderboard_overlaps,
        load_disagreements,
        load_labels,
        resolution_problems,
    )

    models = pd.read_csv(inputs["models"]).set_index("canonical_id")
    settings = {
        "size_tolerance": float(atlas["size_tolerance"]),
        "n_bootstrap": int(atlas["n_bootstrap"]),
        "ci_level": ci_level,
        "seed": seed,
    }
    resolved, first, blind = (load_labels(inputs[k]) for k in ("labels", "labels_first", "labels_blind"))
    problems = resolution_problems(
        first, blind, resolved, load_disagreements(inputs["disagreements"]), settings["size_tolerance"]
    )
    if problems:
        raise ValueError(f"{inputs['labels']}: {len(problems)} label(s) without a resolution, e.g. {problems[:3]}")
    names = pd.read_csv(inputs["names"])
    summary, detail = identity_scores(resolved, names, models, settings)
    blind_summary, _ = identity_scores(blind, names, models, settings)
    overlaps = leaderboard_overlaps(pd.read_csv(inputs["cells"]), [tuple(p) for p in atlas["identity"]["overlaps"]])
    write_table(summary, outputs["summary"])
    write_table(detail, outputs["detail"])
    write_table(blind_summary, outputs["blind_summary"])
    write_table(label_agreement(first, blind, settings["size_tolerance"]), outputs["agreement"])
    write_table(overlaps, outputs["overlaps"])
    write_targeted(atlas["identity"], names, settings, inputs, outputs)


def write_targeted(identity: dict, names: pd.DataFrame, settings: dict, inputs: dict, outputs: dict) -> None:
    """The targeted and the random-join samples (benchval.atlas.identity_samples); a labelled file that is not
    the stated draw fails, naming the file and the first difference."""
    from benchval.atlas.identity_samples import draw_groups, draw_joined_pairs, sample_scores, targeted_pairs

    targeted, precision = identity["targeted"], identity["precision"]
    labels = pd.read_csv(inputs["targeted"], dtype=str, keep_default_na=False)
    drawn = draw_groups(names, int(targeted["groups"]), int(targeted["seed"]))
    if sorted(drawn["raw_name"]) != sorted(labels["raw_name"]):
        extra = sorted(set(labels["raw_name"]) ^ set(drawn["raw_name"]))[:3]
        raise ValueError(f"{inputs['targeted']}: not the draw of atlas.identity.targeted (differs in {extra})")
    joined_labels = pd.read_csv(inputs["precision"], dtype=str, keep_default_na=False)
    drawn_pairs = draw_joined_pairs(names, int(precision["pairs"]), int(precision["seed"]))
    if list(zip(drawn_pairs["raw_a"], drawn_pairs["raw_b"])) != list(
        zip(joined_labels["raw_a"], joined_labels["raw_b"])
    ):
        raise ValueError(
            f"{inputs['precision']}: not the draw of atlas.identity.precision from this registry (redraw and relabel)"
        )
    pairs = targeted_pairs(labels, names)
    scores = sample_scores(pairs, joined_labels, settings["ci_level"], settings["n_bootstrap"], settings["seed"])
    write_table(scores, outputs["targeted_summary"])
    write_table(pairs, outputs["targeted_detail"])
