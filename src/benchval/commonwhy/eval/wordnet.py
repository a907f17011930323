"""WordNet for METEOR, read from Debian's `wordnet-base` package (never downloaded at run time).

`apt-get install -y --no-install-recommends wordnet-base` puts the WordNet 3.0 database in
/usr/share/wordnet (data.*, index.*, *.exc). nltk's WordNetCorpusReader reads exactly those files,
plus one small file Debian does not ship: `lexnames`, the fixed table of the 45 lexicographer
files (WordNet's lexnames(5WN) man page, which wordnet-base installs). The table is embedded
below and served to nltk in memory; nothing is written next to the Debian files.
"""

from __future__ import annotations

import io
import os
import warnings
from functools import lru_cache
from pathlib import Path

import nltk.data
from nltk.corpus.reader.wordnet import WordNetCorpusReader

DEBIAN_WORDNET_DIR = Path("/usr/share/wordnet")
APT_INSTALL = "apt-get install -y --no-install-recommends wordnet-base"
REQUIRED_FILES = (
    "data.noun",
    "data.verb",
    "data.adj",
    "data.adv",
    "index.noun",
    "index.verb",
    "index.adj",
    "index.adv",
    "noun.exc",
    "verb.exc",
    "adj.exc",
    "adv.exc",
)

# WordNet 3.0 lexicographer files: (number, name, syntactic category), as in lexnames(5WN).
LEXNAMES = (
    "adj.all 3",
    "adj.pert 3",
    "adv.all 4",
    "noun.Tops 1",
    "noun.act 1",
    "noun.animal 1",
    "noun.artifact 1",
    "noun.attribute 1",
    "noun.body 1",
    "noun.cognition 1",
    "noun.communication 1",
    "noun.event 1",
    "noun.feeling 1",
    "noun.food 1",
    "noun.group 1",
    "noun.location 1",
    "noun.motive 1",
    "noun.object 1",
    "noun.person 1",
    "noun.phenomenon 1",
    "noun.plant 1",
    "noun.possession 1",
    "noun.process 1",
    "noun.quantity 1",
    "noun.relation 1",
    "noun.shape 1",
    "noun.state 1",
    "noun.substance 1",
    "noun.time 1",
    "verb.body 2",
    "verb.change 2",
    "verb.cognition 2",
    "verb.communication 2",
    "verb.competition 2",
    "verb.consumption 2",
    "verb.contact 2",
    "verb.creation 2",
    "verb.emotion 2",
    "verb.motion 2",
    "verb.perception 2",
    "verb.possession 2",
    "verb.social 2",
    "verb.stative 2",
    "verb.weather 2",
    "adj.ppl 3",
)


def lexnames_text() -> str:
    """The `lexnames` file nltk expects: 'NN<TAB>name<TAB>category' per line."""
    lines = []
    for number, entry in enumerate(LEXNAMES):
        name, category = entry.split()
        lines.append(f"{number:02d}\t{name}\t{category}\n")
    return "".join(lines)


class DebianWordNetReader(WordNetCorpusReader):
    """nltk's WordNet reader over a Debian WordNet folder, with `lexnames` served from memory."""

    def open(self, fileid):  # noqa: A003 - nltk's method name
        if fileid == "lexnames" and not (Path(self._root) / "lexnames").exists():
            return io.StringIO(lexnames_text())
        return super().open(fileid)

    def map_wn(self, version="wordnet"):
        """No mapping to nltk's downloadable WordNet: this reader is English WordNet 3.0 itself."""
        return None


def wordnet_dir() -> Path:
    """The WordNet folder: $BENCHVAL_WORDNET_DIR if set, else Debian's /usr/share/wordnet."""
    return Path(os.environ.get("BENCHVAL_WORDNET_DIR", DEBIAN_WORDNET_DIR))


@lru_cache(maxsize=None)
def load_wordnet(directory: str | None = None) -> DebianWordNetReader:
    """The WordNet reader for METEOR; a clear error (with the apt line) when the files are missing."""
    root = Path(directory) if directory else wordnet_dir()
    missing = [name for name in REQUIRED_FILES if not (root / name).is_file()]
    if missing:
        raise FileNotFoundError(
            f"WordNet database not found in {root} (missing {', '.join(missing)}). "
            f"Install Debian's package: `{APT_INSTALL}` (or set BENCHVAL_WORDNET_DIR)."
        )
    # nltk only opens files under its data roots: authorise exactly this folder.
    if str(root) not in nltk.data.path:
        nltk.data.path.append(str(root))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The multilingual functions")
        return DebianWordNetReader(str(root), None)
