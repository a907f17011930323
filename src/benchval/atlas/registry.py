"""The model registry: one canonical id per model across every leaderboard file (docs/atlas.md).

Built from stated rules, in this order, plus one reviewed override table (config/atlas/model_overrides.csv):

1. exclusion: a raw name matching a rule of ``excluded`` (config/atlas/registry_rules.yaml) is left
   out and listed (Open LLM v1's deliberately contaminated entries);
2. identity: the normalised key (benchval.analysis.model_names, the project's one name rule); an override row
   may map a key to another canonical id (the same weights under two organisations), citing its evidence;
3. a bare name (no organisation) joins the one ``org/name`` key whose name part equals it, when exactly
   one exists and its organisation publishes its own models (``publishers`` in the rules file:
   ``gpt2`` -> ``openai-community/gpt2``); an HF id of any other organisation (a person's fine-tune, a
   re-upload: AlpacaEval's ``Llama-3-Instruct-8B-SimPO`` is princeton-nlp's, the mirror's only HF id of
   that name is haoranxu's) is joined only by a row of the reviewed override table; with several
   candidates, or none allowed, the name stays its own model and is listed;
4. attributes: family by the first matching ``families`` pattern, else by the organisation
   (``org_families``); size from the size tokens of the model's raw names (``7b``, ``350m``, ``1b5``, ``1_8b`` in a
   ``-``-separated name = 1.8; raw names giving different sizes leave it open; ``57b-a14b``: total 57,
   active 14; ``8x7b``: mixture of experts whose total no rule derives); open weights (an HF id, unless
   ``closed`` matches); base / instruct by tokens. Override values win over the rules and say so.

Whatever no rule decides stays missing and is listed in the unresolved table, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from benchval.analysis.model_names import alias, normalise, parse

OVERRIDE_COLUMNS = (  # raw_key: a normalised key (benchval.analysis.model_names.normalise)
    "raw_key",
    "canonical_id",
    "family",
    "size_b",
    "active_b",
    "moe",
    "open_weights",
    "tuning",
    "evidence",
)
_MOE_TOKEN = re.compile(r"(?<![a-z0-9.])(\d+)x(\d+(?:\.\d+)?)b(?![a-z0-9])")
_ACTIVE_TOKEN = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)b-a(\d+(?:\.\d+)?)b(?![a-z0-9])")
_SIZE_TOKEN = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)([bm])(?![a-z])")
_UNDERSCORE_DECIMAL = re.compile(r"(?<![A-Za-z0-9.])(\d+)_(\d+)(?=[bBmM](?![A-Za-z0-9]))")
_SPLIT_B_TOKEN = re.compile(r"(?<![a-z0-9.])(\d+)b(\d+)(?![a-z0-9])")  # rwkv "1b5" = 1.5B


class RegistryError(ValueError):
    """Bad registry rules or override table; the message names the file, line and key."""


@dataclass(frozen=True)
class Rules:
    excluded: tuple[tuple[re.Pattern, str], ...]
    families: tuple[tuple[re.Pattern, str, str], ...]
    org_families: dict
    closed: re.Pattern
    instruct: re.Pattern
    base: re.Pattern
    publishers: frozenset = frozenset()
    pseudo_orgs: frozenset = frozenset()


def load_rules(path: str | Path) -> Rules:
    """The rules file, every pattern compiled (a bad pattern names its entry)."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))

    def compile_(pattern: str, where: str) -> re.Pattern:
        try:
            return re.compile(pattern)
        except re.error as error:
            raise RegistryError(f"{path}: {where}: bad pattern {pattern!r} ({error})") from None

    return Rules(
        excluded=tuple((compile_(r["pattern"], f"excluded[{i}]"), r["why"]) for i, r in enumerate(data["excluded"])),
        families=tuple(
            (compile_(r["pattern"], f"families[{i}]"), r["family"], r["why"]) for i, r in enumerate(data["families"])
        ),
        org_families={str(k).lower(): v for k, v in (data.get("org_families") or {}).items()},
        closed=compile_(data["closed"], "closed"),
        instruct=compile_(data["instruct"], "instruct"),
        base=compile_(data["base"], "base"),
        pseudo_orgs=frozenset(str(o).lower() for o in (data.get("pseudo_orgs") or [])),
        publishers=frozenset(str(o).lower() for o in (data.get("publishers") or []))
        | set(data.get("org_families") or {}),
    )


def load_overrides(path: str | Path) -> pd.DataFrame:
    """The reviewed override table; every row needs its key and its evidence."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in OVERRIDE_COLUMNS if c not in table.columns]
    if missing:
        raise RegistryError(f"{path}: missing column(s) {missing}")
    for index, row in table.iterrows():
        if not row["raw_key"].strip() or not row["evidence"].strip():
            raise RegistryError(f"{path}: line {index + 2}: every override needs raw_key and evidence")
    duplicated = table["raw_key"].duplicated()
    if duplicated.any():
        raise RegistryError(
            f"{path}: line {duplicated.idxmax() + 2}: raw_key {table.at[duplicated.idxmax(), 'raw_key']!r} twice"
        )
    return table.set_index("raw_key")


DISPLAY_COLUMNS = ("source", "raw_name", "canonical_id", "evidence")


def load_display_names(path: str | Path | None) -> pd.DataFrame:
    """The reviewed mapping of display-name files (``source``: a leaderboard file-name prefix): every row
    needs its canonical HF id (or API name) and its evidence; a (source, raw name) twice fails."""
    if path is None:
        return pd.DataFrame(columns=DISPLAY_COLUMNS)
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in DISPLAY_COLUMNS if c not in table.columns]
    if missing:
        raise RegistryError(f"{path}: missing column(s) {missing}")
    for index, row in table.iterrows():
        empty = [c for c in DISPLAY_COLUMNS if not row[c].strip()]
        if empty:
            raise RegistryError(f"{path}: line {index + 2}: empty {empty}")
    twice = table.duplicated(["source", "raw_name"])
    if twice.any():
        raise RegistryError(f"{path}: line {twice.idxmax() + 2}: ({table.at[twice.idxmax(), 'raw_name']!r}) twice")
    return table


def display_keys(frame: pd.DataFrame, display: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """(key, rule) per occurrence of a declared display-name file (NaN elsewhere); a raw name of such a file
    that the mapping lacks fails, naming the file and the name, so a new row cannot slip in unreviewed."""
    keys = pd.Series(np.nan, index=frame.index, dtype=object)
    rules = pd.Series(np.nan, index=frame.index, dtype=object)
    for source, rows in display.groupby("source"):
        mapping = rows.set_index("raw_name")
        in_file = frame["source"].map(lambda label, prefix=source: Path(label).name.startswith(prefix))
        for index in frame.index[in_file]:
            raw = frame.at[index, "raw_name"]
            if raw not in mapping.index:
                raise RegistryError(
                    f"{frame.at[index, 'source']}: line {frame.at[index, 'line']}: display name {raw!r} is not in "
                    f"the reviewed mapping (atlas.display_names, source {source!r})"
                )
            keys[index] = normalise(mapping.at[raw, "canonical_id"])
            rules[index] = f"display name ({source}): {mapping.at[raw, 'evidence']}"
    return keys, rules


def _join_bare_names(canonical: dict, rule: dict, by_name_part: dict, publishers: frozenset) -> None:
    """Rule 3 of the module, in place on key -> canonical id."""
    for key, target in list(canonical.items()):
        if "/" in target or target not in by_name_part:
            continue
        owners = sorted(by_name_part[target])
        if len(owners) > 1:
            rule[key] = f"ambiguous: bare name matches several HF ids {owners}; kept apart"
        elif owners[0].split("/", 1)[0] in publishers:
            canonical[key], rule[key] = owners[0], f"bare name joins the one HF id {owners[0]!r} with that name"
        else:
            rule[key] = (
                f"bare name kept apart: the one HF id {owners[0]!r} with that name is not a publisher's, "
                "and no reviewed override row joins them"
            )


def join_aliases(
    canonical: dict,
    rule: dict,
    publishers: frozenset,
    pseudo_orgs: frozenset = frozenset(),
    closed: re.Pattern | None = None,
) -> None:
    """The alias rule (benchval.analysis.model_names.alias), in place on key -> canonical id:

    * keys whose canonical ids share an alias are one model when at most one of those ids is an HF id and
      it is a publisher's (bare names join it) or, with several HF ids, the bare names join the one HF id
      of a publisher
      (``publishers``: the organisations that release their own models); HF ids of two organisations are
      never joined by a rule (the override table does that, with its evidence); a key whose "organisation" is
      a leaderboard's own prefix (``pseudo_orgs``: HELM's ``huggingface/llama-65b``) counts as a bare name;
    * an undated name joins the one dated snapshot of its alias (``claude-3-haiku`` and
      ``anthropic/claude-3-haiku`` -> the one ``-0307`` snapshot) only when that snapshot is an API model
      (``closed``: an API serves one dated version under the undated name); a dated open-weights release is
      other weights than the undated one (``OLMo-7B`` is not ``OLMo-7B-0424``, ``c4ai-command-r-plus`` not
      its ``08-2024`` update). With several dated snapshots the name stays apart (``gpt-4`` beside
      ``-0314``, ``-0613``); an HF id another name already joined is not moved.
    """
    by_alias: dict[str, set] = {}
    for target in set(canonical.values()):
        by_alias.setdefault(alias(target).key, set()).add(target)

    def is_hf(target: str) -> bool:
        return "/" in target and target.split("/", 1)[0] not in pseudo_orgs

    chosen = _alias_choices(by_alias, is_hf, publishers)
    snapshot, ambiguous = _undated_snapshots(by_alias, chosen, closed)
    for key, target in list(canonical.items()):
        name = alias(target)
        if name.key in snapshot:
            canonical[key] = snapshot[name.key]
            rule[key] = f"undated name joins the one dated snapshot {snapshot[name.key]!r}"
        elif not is_hf(target) and name.key in chosen and chosen[name.key][0] != target:
            canonical[key] = chosen[name.key][0]
            rule[key] = f"alias {name.key!r} joins {chosen[name.key][0]!r}"
        elif name.key in ambiguous and not is_hf(target):
            rule[key] = f"ambiguous: undated name with several dated snapshots {ambiguous[name.key]}; kept apart"


def _alias_choices(by_alias: dict[str, set], is_hf, publishers: frozenset) -> dict[str, tuple[str, str]]:
    """alias key -> (the canonical id its names join, "alias"): the one publisher's HF id among them, or,
    without an HF id, the first of several bare names."""
    chosen = {}
    for key, targets in by_alias.items():
        hf = sorted(t for t in targets if is_hf(t))
        publisher = [t for t in hf if t.split("/", 1)[0] in publishers]
        if len(publisher) == 1:
            chosen[key] = (publisher[0], "alias")
        elif not hf and len(targets) > 1:
            chosen[key] = (sorted(targets)[0], "alias")
    return chosen


def _undated_snapshots(by_alias: dict[str, set], chosen: dict, closed: re.Pattern | None) -> tuple[dict, dict]:
    """(undated alias key -> the one dated API snapshot it joins, undated alias key -> its several dated
    snapshots, which keep it apart)."""
    stems: dict[str, set] = {}
    for key in by_alias:
        parts = alias(key)
        if parts.date:
            stems.setdefault(parts.stem, set()).add(key)

    def target_of(alias_key: str) -> str | None:
        targets = by_alias[alias_key]
        return chosen[alias_key][0] if alias_key in chosen else (next(iter(targets)) if len(targets) == 1 else None)

    def orgs(alias_key: str) -> set:
        return {t.split("/", 1)[0] for t in by_alias[alias_key] if "/" in t}

    snapshot, ambiguous = {}, {}
    for alias_key in by_alias:
        parts = alias(alias_key)
        if parts.date or parts.stem not in stems:
            continue
        dated = sorted(stems[parts.stem])
        api = closed is not None and target_of(dated[0]) and closed.search(target_of(dated[0]))
        if len(dated) == 1 and api and (not orgs(dated[0]) or orgs(alias_key) <= orgs(dated[0])):
            snapshot[alias_key] = target_of(dated[0])
        elif len(dated) > 1:
            ambiguous[alias_key] = dated
    return snapshot, ambiguous


def parse_size(name: str) -> dict:
    """Size fields from the size tokens of a normalised name part; ``size_rule`` says which token decided."""
    active = _ACTIVE_TOKEN.search(name)
    if active:
        return {
            "size_b": float(active[1]),
            "active_b": float(active[2]),
            "moe": True,
            "size_rule": f"token {active[0]!r}",
        }
    moe = _MOE_TOKEN.search(name)
    if moe:
        return {
            "size_b": np.nan,
            "active_b": np.nan,
            "moe": True,
            "size_rule": f"MoE token {moe[0]!r}: total not derivable",
        }
    split = _SPLIT_B_TOKEN.search(name)
    if split:
        return {
            "size_b": float(f"{split[1]}.{split[2]}"),
            "active_b": np.nan,
            "moe": False,
            "size_rule": f"token {split[0]!r}",
        }
    sizes = {float(v) / (1000.0 if unit == "m" else 1.0) for v, unit in _SIZE_TOKEN.findall(name)}
    if len(sizes) == 1:
        token = _SIZE_TOKEN.search(name)[0]
        return {"size_b": sizes.pop(), "active_b": np.nan, "moe": False, "size_rule": f"token {token!r}"}
    rule = "no size token" if not sizes else f"several size tokens {sorted(sizes)}"
    return {"size_b": np.nan, "active_b": np.nan, "moe": pd.NA, "size_rule": rule}


def family_of(key: str, org: str, rules: Rules) -> tuple[str | None, str]:
    for pattern, family, why in rules.families:
        if pattern.search(key):
            return family, f"pattern {pattern.pattern!r}: {why}"
    if org in rules.org_families:
        return rules.org_families[org], f"organisation {org!r}"
    return None, "no family rule matched"


def decimal_underscores(raw: str) -> str:
    """``1_8b`` -> ``1.8b`` in a name whose words are separated by ``-`` (``Qwen-1_8B``, ``stablelm-2-1_6b``:
    the underscore is a decimal point); in a snake_case name (``llama_2_7b_chat``) it separates words."""
    name = raw.strip().split("/")[-1]
    return _UNDERSCORE_DECIMAL.sub(r"\1.\2", raw) if "-" in name else raw


def size_of(raw_names) -> dict:
    """Size fields from a model's raw names (each read by :func:`parse_size`); disagreeing names leave it open."""
    parsed = [parse_size(parse(decimal_underscores(raw)).name) for raw in sorted(set(raw_names))]
    known = {p["size_b"] for p in parsed if p["size_b"] == p["size_b"]}
    if len(known) > 1:
        return {
            "size_b": np.nan,
            "active_b": np.nan,
            "moe": pd.NA,
            "size_rule": f"raw names give sizes {sorted(known)}",
        }
    with_size = [p for p in parsed if p["size_b"] == p["size_b"]]
    return (with_size or parsed)[0]


def _attributes(canonical: str, rules: Rules, raw_names=()) -> dict:
    parsed = parse(canonical)
    family, family_rule = family_of(canonical, parsed.org, rules)
    closed = bool(rules.closed.search(canonical))
    open_weights = False if closed else (True if parsed.org else pd.NA)
    tuning = "instruct" if rules.instruct.search(parsed.name) else ("base" if rules.base.search(parsed.name) else pd.NA)
    if closed and tuning is pd.NA:
        tuning = "instruct"  # API models are served instruction-tuned
    return {
        "family": family,
        "family_rule": family_rule,
        **(size_of(raw_names) if len(raw_names) else parse_size(parsed.name)),
        "open_weights": open_weights,
        "tuning": tuning,
    }


def _apply_override(record: dict, row: pd.Series) -> dict:
    converters = {
        "family": str,
        "size_b": float,
        "active_b": float,
        "moe": lambda v: v.lower() == "true",
        "open_weights": lambda v: v.lower() == "true",
        "tuning": str,
    }
    for field, convert in converters.items():
        value = row[field].strip()
        if value:
            record[field] = convert(value)
            if field == "family":
                record["family_rule"] = f"override: {row['evidence']}"
            if field == "size_b":
                record["size_rule"] = f"override: {row['evidence']}"
    return record


@dataclass(frozen=True)
class Registry:
    names: pd.DataFrame  # one row per raw-name occurrence: source, line, raw_name, key, canonical_id, rule
    models: pd.DataFrame  # index canonical_id: family, size_b, active_b, moe, open_weights, tuning, rules, sources
    excluded: pd.DataFrame  # source, line, raw_name, why
    unused_overrides: tuple = ()  # override keys that matched no raw name (listed in the outputs)

    def canonical(self, source: str, raw_name: str) -> str | None:
        hit = self.names[(self.names["source"] == source) & (self.names["raw_name"] == raw_name)]
        return None if hit.empty else hit["canonical_id"].iloc[0]

    def merges(self) -> pd.DataFrame:
        """Every model that absorbed more than one distinct raw name, with the names and the rules."""
        grouped = self.names.groupby("canonical_id")
        distinct = grouped["raw_name"].nunique()
        merged = self.names[self.names["canonical_id"].isin(distinct[distinct > 1].index)]
        return (
            merged.groupby("canonical_id")
            .agg(
                raw_names=("raw_name", lambda s: " | ".join(sorted(set(s)))),
                sources=("source", lambda s: " | ".join(sorted(set(s)))),
                rules=("rule", lambda s: " | ".join(sorted(set(s)))),
            )
            .reset_index()
        )

    def unresolved(self) -> pd.DataFrame:
        """Every model with a field no rule or override decided, with the reason."""
        rows = []
        for canonical, model in self.models.iterrows():
            if model["family"] is None or pd.isna(model["family"]):
                rows.append({"canonical_id": canonical, "field": "family", "reason": model["family_rule"]})
            if pd.isna(model["size_b"]):
                rows.append({"canonical_id": canonical, "field": "size_b", "reason": model["size_rule"]})
        for _, row in self.names[self.names["rule"].str.startswith("ambiguous")].drop_duplicates("key").iterrows():
            rows.append({"canonical_id": row["canonical_id"], "field": "identity", "reason": row["rule"]})
        return pd.DataFrame(rows, columns=["canonical_id", "field", "reason"])


def build_registry(
    occurrences: pd.DataFrame, rules: Rules, overrides: pd.DataFrame, display: pd.DataFrame | None = None
) -> Registry:
    """The registry of every raw name in ``occurrences`` (columns source, line, raw_name); ``display``: the
    reviewed mapping of display-name files (:func:`load_display_names`)."""
    frame = occurrences[["source", "line", "raw_name"]].copy()
    frame["raw_name"] = frame["raw_name"].astype(str)
    why = frame["raw_name"].map(lambda raw: next((w for p, w in rules.excluded if p.search(raw.lower())), None))
    excluded = frame[why.notna()].assign(why=why[why.notna()]).reset_index(drop=True)
    frame = frame[why.isna()].reset_index(drop=True)
    frame["key"] = frame["raw_name"].map(lambda raw: parse(raw).key)
    mapped, mapped_rule = display_keys(frame, display if display is not None else load_display_names(None))
    frame["key"] = mapped.where(mapped.notna(), frame["key"])
    display_rule = dict(zip(frame["key"][mapped.notna()], mapped_rule[mapped.notna()]))
    canonical, rule = {}, {}
    for key in frame["key"].unique():
        target = overrides.at[key, "canonical_id"].strip() if key in overrides.index else ""
        canonical[key] = target or key
        rule[key] = f"override: {overrides.at[key, 'evidence']}" if target else display_rule.get(key, "normalised name")
    by_name_part: dict[str, set] = {}
    for key in set(canonical.values()):
        if "/" in key:
            by_name_part.setdefault(key.split("/", 1)[1], set()).add(key)
    _join_bare_names(canonical, rule, by_name_part, rules.publishers)
    join_aliases(canonical, rule, rules.publishers, rules.pseudo_orgs, rules.closed)
    frame["canonical_id"] = frame["key"].map(canonical)
    frame["rule"] = frame["key"].map(rule)
    records = []
    for model_id, rows in frame.groupby("canonical_id", sort=True):
        record = {"canonical_id": model_id, **_attributes(model_id, rules, rows["raw_name"].tolist())}
        for key in [model_id, *sorted(set(rows["key"]) - {model_id})]:
            if key in overrides.index:
                record = _apply_override(record, overrides.loc[key])
        record["n_raw_names"] = rows["raw_name"].nunique()
        record["sources"] = ";".join(sorted(set(rows["source"])))
        record["n_sources"] = rows["source"].nunique()
        records.append(record)
    models = pd.DataFrame.from_records(records).set_index("canonical_id")
    unused = tuple(sorted(set(overrides.index) - set(frame["key"])))
    return Registry(names=frame, models=models, excluded=excluded, unused_overrides=unused)
