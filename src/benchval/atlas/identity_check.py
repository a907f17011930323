"""The registry measured against a labelled sample of raw names (docs/atlas.md, "Identities that hold").

The sample (``config/atlas/identity_sample.csv``) is drawn by :func:`draw_sample` - distinct raw names of the
registry's names table, sorted, ``n`` of them without replacement by a generator seeded from the config - and
each row is labelled by hand with its evidence: ``same_as`` (every other raw name of the mirror that is the same
model, ``|``-separated; empty when none), ``family`` (the pretraining lineage; ``unknown`` where neither the name
nor its card says), ``size_b`` (total parameters in billions; empty where unknown) and ``evidence``.

Measured (:func:`identity_scores`):

* merges, over (sampled name, other raw name) pairs: precision = the registry's joins of a sampled name that
  the labels confirm / all its joins; recall = the labelled aliases the registry joins / all labelled aliases;
* family and size accuracy over the sampled names whose label is known (size: within ``size_tolerance``);

each with a percentile bootstrap interval over the sampled names (seeded), because pairs of one name are not
independent.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

LABEL_COLUMNS = ["raw_name", "source", "same_as", "family", "size_b", "evidence"]


def draw_sample(names: pd.DataFrame, n: int, seed: int) -> pd.DataFrame:
    """``n`` distinct raw names (with the first file that holds each), drawn without replacement."""
    first = names.sort_values(["raw_name", "source"]).drop_duplicates("raw_name")
    rng = np.random.default_rng(seed)
    picked = np.sort(rng.choice(len(first), size=n, replace=False))
    return first.iloc[picked][["raw_name", "source"]].reset_index(drop=True)


def load_labels(path) -> pd.DataFrame:
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in LABEL_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}")
    for index, row in table.iterrows():
        if not row["evidence"].strip() or not row["family"].strip():
            raise ValueError(f"{path}: line {index + 2}: every label needs family and evidence")
    return table


def _interval(per_name: pd.DataFrame, numerator: str, denominator: str, n_boot: int, level: float, seed: int):
    num, den = per_name[numerator].to_numpy(float), per_name[denominator].to_numpy(float)
    if den.sum() == 0:
        return np.nan, np.nan, np.nan
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(num), size=(n_boot, len(num)))
    with np.errstate(invalid="ignore", divide="ignore"):
        samples = num[draws].sum(axis=1) / den[draws].sum(axis=1)
    tail = (1 - level) / 2
    low, high = np.nanquantile(samples, [tail, 1 - tail])
    return num.sum() / den.sum(), float(low), float(high)


def _label_row(label, model: str, joined: set, record: pd.Series, size_tolerance: float) -> dict:
    """One labelled raw name against the registry: the names it joined (right or wrong), the aliases it missed,
    and whether its family and size agree with the label."""
    truth = {s.strip() for s in label.same_as.split("|") if s.strip()}
    size = float(label.size_b) if label.size_b.strip() else np.nan
    registry_size = float(record["size_b"]) if pd.notna(record["size_b"]) else np.nan
    return {
        "raw_name": label.raw_name,
        "canonical_id": model,
        "joined": len(joined),
        "joined_right": len(joined & truth),
        "aliases": len(truth),
        "wrong_joins": " | ".join(sorted(joined - truth)),
        "missed_aliases": " | ".join(sorted(truth - joined)),
        "family_known": label.family != "unknown",
        "family_right": label.family != "unknown" and label.family == record["family"],
        "registry_family": record["family"],
        "label_family": label.family,
        "size_known": np.isfinite(size),
        "size_right": bool(
            np.isfinite(size) and np.isfinite(registry_size) and abs(registry_size - size) <= size_tolerance * size
        ),
        "registry_size_b": registry_size,
        "label_size_b": size,
    }


def identity_scores(
    labels: pd.DataFrame, names: pd.DataFrame, models: pd.DataFrame, settings: dict
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(summary: one row per measure with its value, interval and counts; per-name detail with every error)."""
    canonical = names.drop_duplicates("raw_name").set_index("raw_name")["canonical_id"]
    members = names.drop_duplicates(["canonical_id", "raw_name"]).groupby("canonical_id")["raw_name"].apply(set)
    unknown = sorted(set(labels["raw_name"]) - set(canonical.index))
    if unknown:
        raise ValueError(f"identity sample: raw name(s) {unknown[:5]} are in no leaderboard file of this run")
    tolerance = settings["size_tolerance"]
    rows = []
    for label in labels.itertuples(index=False):
        model = canonical[label.raw_name]
        rows.append(_label_row(label, model, members[model] - {label.raw_name}, models.loc[model], tolerance))
    detail = pd.DataFrame(rows)
    n_boot, level, seed = settings["n_bootstrap"], settings["ci_level"], settings["seed"]
    measures = [
        ("merge_precision", "joined_right", "joined", "registry joins of a sampled name that the labels confirm"),
        ("merge_recall", "joined_right", "aliases", "labelled aliases of a sampled name that the registry joins"),
        ("family_accuracy", "family_right", "family_known", "sampled names with a known family, registry right"),
        ("size_accuracy", "size_right", "size_known", "sampled names with a known size, registry within tolerance"),
    ]
    summary = []
    for name, numerator, denominator, what in measures:
        value, low, high = _interval(detail, numerator, denominator, n_boot, level, seed)
        summary.append(
            {
                "measure": name,
                "value": value,
                "ci_low": low,
                "ci_high": high,
                "numerator": int(detail[numerator].sum()),
                "denominator": int(detail[denominator].sum()),
                "n_names": len(detail),
                "what": what,
            }
        )
    return pd.DataFrame(summary), detail


def leaderboard_overlaps(cells: pd.DataFrame, pairs: list) -> pd.DataFrame:
    """Models (canonical ids) present in both leaderboards of each pair: the registry's overlap counts."""
    present = cells.groupby("leaderboard")["canonical_id"].apply(set)
    rows = []
    for a, b in pairs:
        missing = [name for name in (a, b) if name not in present.index]
        if missing:
            raise ValueError(f"atlas.identity.overlaps: {missing} is no used leaderboard")
        rows.append({"leaderboard_a": a, "leaderboard_b": b, "shared_models": len(present[a] & present[b])})
    return pd.DataFrame(rows)


DISAGREEMENT_COLUMNS = ["raw_name", "field", "label_first", "label_blind", "resolution", "reason"]


def _aliases(text: str) -> set:
    return {s.strip() for s in text.split("|") if s.strip()}


def _size(text: str) -> float:
    return float(text) if text.strip() else np.nan


def _sizes_agree(a: str, b: str, tolerance: float) -> bool:
    """Both unknown, or both known and within ``tolerance`` of the first (the check's own rule)."""
    x, y = _size(a), _size(b)
    if np.isnan(x) or np.isnan(y):
        return bool(np.isnan(x) and np.isnan(y))
    return bool(abs(x - y) <= tolerance * x + 1e-9)


def _same_rows(first: pd.DataFrame, second: pd.DataFrame, what: str) -> None:
    if list(first["raw_name"]) != list(second["raw_name"]):
        raise ValueError(f"identity labellings: {what} do not label the same raw names in the same order")


def load_disagreements(path) -> pd.DataFrame:
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in DISAGREEMENT_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}")
    for index, row in table.iterrows():
        if not row["reason"].strip():
            raise ValueError(f"{path}: line {index + 2}: every resolution needs its reason")
    return table


def label_agreement(first: pd.DataFrame, blind: pd.DataFrame, tolerance: float) -> pd.DataFrame:
    """Inter-labeller agreement: Cohen's kappa on family (sklearn), size within ``tolerance``, alias pairs."""
    from sklearn.metrics import cohen_kappa_score

    _same_rows(first, blind, "the first and the blind labels")
    n = len(first)
    families_agree = int((first["family"] == blind["family"]).sum())
    both_sized = first["size_b"].str.strip().ne("") & blind["size_b"].str.strip().ne("")
    sizes = [_sizes_agree(a, b, tolerance) for a, b in zip(first["size_b"], blind["size_b"])]
    pairs_a = {(r, o) for r, s in zip(first["raw_name"], first["same_as"]) for o in _aliases(s)}
    pairs_b = {(r, o) for r, s in zip(blind["raw_name"], blind["same_as"]) for o in _aliases(s)}
    both = len(pairs_a & pairs_b)
    rows = [
        (
            "family_kappa",
            cohen_kappa_score(first["family"], blind["family"]),
            families_agree,
            n,
            "Cohen's kappa of the family labels (sklearn); count: names with the same family",
        ),
        (
            "size_agreement",
            float(np.mean(sizes)),
            int(np.sum(sizes)),
            n,
            f"names whose sizes agree (both unknown, or within {tolerance:.0%})",
        ),
        (
            "size_agreement_both_known",
            float(np.mean(np.array(sizes)[both_sized])) if both_sized.any() else np.nan,
            int(np.sum(np.array(sizes)[both_sized])),
            int(both_sized.sum()),
            "the same among names both labellers sized",
        ),
        (
            "alias_pairs_agreement",
            both / len(pairs_a | pairs_b) if pairs_a | pairs_b else np.nan,
            both,
            len(pairs_a | pairs_b),
            "(sampled name, alias) pairs both labellers give / pairs either gives",
        ),
        (
            "alias_pairs_first_only",
            np.nan,
            len(pairs_a - pairs_b),
            len(pairs_a),
            "pairs only the first labelling gives",
        ),
        (
            "alias_pairs_blind_only",
            np.nan,
            len(pairs_b - pairs_a),
            len(pairs_b),
            "pairs only the blind labelling gives",
        ),
    ]
    return pd.DataFrame(rows, columns=["measure", "value", "count", "of", "what"])


def resolution_problems(
    first: pd.DataFrame, blind: pd.DataFrame, resolved: pd.DataFrame, disagreements: pd.DataFrame, tolerance: float
) -> list[str]:
    """Every field where the resolved labels differ from either labelling, or where the two labellings differ,
    needs a row of ``disagreements`` whose resolution is the resolved value; returns what lacks one."""
    _same_rows(first, blind, "the first and the blind labels")
    _same_rows(first, resolved, "the first and the resolved labels")
    rulings = {
        (r, f): v for r, f, v in zip(disagreements["raw_name"], disagreements["field"], disagreements["resolution"])
    }
    problems = []

    def need(name, field, value):
        if (name, field) not in rulings:
            problems.append(f"{name}: {field} differs between labellings and has no resolution row")
        elif rulings[(name, field)].strip() != value.strip():
            problems.append(
                f"{name}: {field} resolved as {rulings[(name, field)]!r} but the resolved file has {value!r}"
            )

    for a, b, r in zip(first.itertuples(index=False), blind.itertuples(index=False), resolved.itertuples(index=False)):
        if not (a.family == b.family == r.family):
            need(a.raw_name, "family", r.family)
        if not (
            _sizes_agree(a.size_b, b.size_b, tolerance)
            and _sizes_agree(a.size_b, r.size_b, tolerance)
            and _sizes_agree(b.size_b, r.size_b, tolerance)
        ):
            need(a.raw_name, "size_b", r.size_b)
        sets = [_aliases(a.same_as), _aliases(b.same_as), _aliases(r.same_as)]
        for other in sorted(set.union(*sets) - set.intersection(*sets)):
            need(a.raw_name, f"same_as:{other}", "yes" if other in sets[2] else "no")
    return problems
