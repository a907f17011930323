"""Model-name normalisation: THE one rule of the project for when two raw names are one name.

A raw name is first cleaned (:func:`clean`): Unicode NFKC (full-width and compatibility forms become their
plain letters), then every control and format character is removed (line breaks, tabs, zero-width spaces and
joiners, the byte-order mark, right-to-left and other direction overrides: Unicode categories Cc and Cf), so
that two names that look the same are the same name. Importers write the cleaned name and report every
name the cleaning changed and every two raw names it made one.

The cleaned name is then split into an organisation and a name part when it is a Hugging Face id
(``org/name``, no spaces or parentheses); any other ``/`` (a date in a display name such as
``Claude_3_Opus_(02/29)``) is part of the name. Then, on the name part:

1. surrounding whitespace is dropped and letters are lower-cased; a leading marker that is no part of the
   name goes (EQ-Bench's emoji ``🆕Phi-3.5-MoE-instruct``, a ``New`` word and a space: ``New gpt-4o``; an HF
   name part ``new_model_test2`` keeps its word);
2. a date becomes its month and day as ``mmdd`` (``20240229``, ``2024-02-29``, ``(02/29)`` -> ``0229``),
   so that display names with a date and API ids with one meet;
3. parentheses are dropped; a trailing ``+`` is ``plus`` (``Command R+`` = ``command-r-plus``) and any other
   ``+`` separates words (AlpacaEval's ``Tulu_2+DPO_70B`` = ``tulu-2-dpo-70b``); runs of whitespace, ``_``,
   ``+`` and ``-`` become one ``-``.

The organisation is lower-cased. :func:`normalise` returns ``org/name`` or ``name``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_HF_ID = re.compile(r"^(?P<org>[A-Za-z0-9][\w.\-]*)/(?P<name>[\w.\-]+)$")
_SLASH_DATE = re.compile(r"\(?\b(?P<m>\d{1,2})/(?P<d>\d{1,2})\)?")
_ISO_DATE = re.compile(r"(?<!\d)20\d{2}-?(?P<m>[01]\d)-?(?P<d>[0-3]\d)(?!\d)")
_SEPARATORS = re.compile(r"[\s_\-+]+")
_LEADING_MARKER = re.compile(
    r"^(?:[^\w(]+|new\s+)"
)  # an emoji or symbol, or the word "new" and a space, before the name
_TRAILING_PLUS = re.compile(r"\+\s*$")


@dataclass(frozen=True)
class ParsedName:
    org: str  # "" when the raw name is not an HF id
    name: str  # normalised name part

    @property
    def key(self) -> str:
        return f"{self.org}/{self.name}" if self.org else self.name


def _mmdd(match: re.Match) -> str:
    return f"-{int(match['m']):02d}{int(match['d']):02d}-"


def clean(raw: str) -> str:
    """``raw`` in Unicode NFKC without control or format characters (categories Cc, Cf), stripped."""
    text = unicodedata.normalize("NFKC", str(raw))
    return "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf")).strip()


def normalise_part(text: str) -> str:
    """Steps 1-3 of the module's rule on a name part."""
    text = _LEADING_MARKER.sub("", str(text).strip().lower()).strip()
    text = _TRAILING_PLUS.sub("-plus", text)
    text = _SLASH_DATE.sub(_mmdd, text)
    text = _ISO_DATE.sub(_mmdd, text)
    text = text.replace("(", " ").replace(")", " ")
    return _SEPARATORS.sub("-", text).strip("-")


def parse(raw: str) -> ParsedName:
    """Organisation and normalised name of ``raw`` (see the module docstring)."""
    stripped = clean(raw)
    match = _HF_ID.match(stripped)
    if match:
        return ParsedName(org=match["org"].lower(), name=normalise_part(match["name"]))
    return ParsedName(org="", name=normalise_part(stripped))


def normalise(raw: str) -> str:
    """The normalised key of a raw model name: ``org/name`` for an HF id, else ``name``."""
    return parse(raw).key


# --- aliases: the stronger rule by which two registry keys are one model (benchval.atlas.registry) ---
_MONTH_YEAR = re.compile(r"(?<![\d.])(?P<m>[01]\d)-20(?P<y>\d{2})(?![\d.])")
_TRAILING_DATE = re.compile(r"-(?P<date>\d{4})$")


@dataclass(frozen=True)
class Alias:
    stem: str  # the name part by the alias rule, without a trailing snapshot date
    date: str  # the trailing 4-digit snapshot token ("0229", "2407"), "" when undated

    @property
    def key(self) -> str:
        return f"{self.stem}-{self.date}" if self.date else self.stem


def alias(key: str) -> Alias:
    """The alias of a normalised key (:func:`normalise`), on its name part only (the organisation goes):

    1. a leading ``meta-`` and a trailing ``-hf`` go (``meta-llama/Meta-Llama-3-8B-Instruct``,
       ``Llama-2-7b-hf``);
    2. a month and year ``08-2024`` becomes ``0824`` (``command-r-08-2024`` = ``command-r-0824``);
    3. a trailing 4-digit token is the snapshot date (``mmdd`` or Mistral's ``yymm``), kept apart in ``date``;
    4. a token ending in a letter joins a following token starting with a digit (``llama-3-8b`` ->
       ``llama3-8b``, ``gpt-4o`` -> ``gpt4o``); tuning tokens (``instruct``, ``chat``, ``base``) stay, so a base
       and an instruct model never share an alias; the token ``it`` is ``instruct`` (Gemma's and the arenas'
       suffix for the instruction-tuned model: ``llama-3.2-3b-it`` = ``Llama-3.2-3B-Instruct``);
    5. the separators between tokens go (``starling-lm-7b-beta`` = WildBench's ``StarlingLM-7B-beta``): two
       spellings that differ only in where words break are one alias; the tokens themselves all stay.
    """
    name = key.split("/", 1)[1] if "/" in key else key
    name = re.sub(r"^meta-", "", name)
    name = re.sub(r"-hf$", "", name)
    name = _MONTH_YEAR.sub(lambda m: f"{m['m']}{m['y']}", name)
    dated = _TRAILING_DATE.search(name)
    date = dated["date"] if dated and not re.search(r"\dx$|v$", name[: dated.start()]) else ""
    if date:
        name = name[: dated.start()]
    tokens = ["instruct" if t == "it" else t for t in name.split("-") if t]
    joined: list[str] = []
    for token in tokens:
        if joined and joined[-1][-1].isalpha() and token[0].isdigit():
            joined[-1] += token
        else:
            joined.append(token)
    return Alias(stem="".join(joined), date=date)
