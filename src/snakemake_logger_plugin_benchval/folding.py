"""Console lines folded to at most :data:`LINE_LIMIT` characters, the lists in them shortened to their first
:data:`SHOWN` entries plus one entry that says how many there are and where the whole list is.

Snakemake prints a job's ``input:``, ``output:`` and ``log:`` files and its reason ("Missing output files:
...", "Input files updated by another job: ...") on one line each, the ``Config file(s):`` of its header and
the rule names of a dry run's closing "Reasons:" block too: a dry run of the default config from nothing
printed 58 lines over 1,000 characters (the longest 11,055), the paper config's 57 (the longest 44,532).
Only such lines change here; every line up to the limit is left exactly as Snakemake wrote it.

A long line is read as ``<indent><label>: <part>; <part>; ...`` where a part is ``[<label>: ]<a>, <b>, ...``
(Snakemake's job lines and reasons, snakemake.jobs.Reason); each part with more than :data:`SHOWN`
entries keeps its first :data:`SHOWN`, each shown entry is shortened to :data:`NAME_WIDTH` characters (its
start and its end), and a line still over the limit (text that is no list of names, such as an error
message) is cut, saying how long it was. Every changed line says where the whole of it can be read (the
``where`` the console handler passes: the complete log of a real run, ``--logger-benchval-unfolded`` for a
dry run). The folding is textual: a file name containing ", " counts as two entries.
"""

from __future__ import annotations

import re

#: no console line is longer than this (issue #47: "no line over 1,000 characters")
LINE_LIMIT = 1000
#: a folded list keeps this many of its entries
SHOWN = 3
#: a shown entry longer than this keeps its start and its end
NAME_WIDTH = 160

# a file or rule name, perhaps with Snakemake's annotation: "results/x.csv (temp)"
_NAME = re.compile(r"^\S+( \([^()]*\))?$")
# indentation, then perhaps a short label: "    reason: ", "  Config file(s): ", "Missing output files: "
_LABEL = re.compile(r"^(\s*(?:[A-Za-z][\w ()'-]{0,60}: )?)(.*)$", re.DOTALL)


def fold_line(line: str, where: str) -> str:
    """``line`` itself when it has at most :data:`LINE_LIMIT` characters, else its lists folded (and the
    rest cut where that is not enough). ``where`` says where the whole line can be read."""
    if len(line) <= LINE_LIMIT:
        return line
    label, rest = _split_label(line)
    folded = label + "; ".join(_fold_part(part, where) for part in rest.split("; "))
    if where not in folded:  # names shortened, none left out: still say where the whole line is
        folded += f" ({where})"
    if len(folded) <= LINE_LIMIT:
        return folded
    return _cut(line, where)


def fold_text(text: str, where: str) -> str:
    """Every line of ``text`` through :func:`fold_line`."""
    return "\n".join(fold_line(line, where) for line in text.split("\n"))


def fold_names(names: list[str], where: str) -> list[str]:
    """``names`` when there are at most :data:`SHOWN`, else the first :data:`SHOWN` and one entry
    ``… and N more (M in all; <where>)``; every shown name at most :data:`NAME_WIDTH` characters."""
    shown = [shorten(name) for name in names[:SHOWN]]
    if len(names) <= SHOWN:
        return shown
    return [*shown, f"… and {len(names) - SHOWN} more ({len(names)} in all; {where})"]


def shorten(name: str) -> str:
    """``name``, or where it is longer than :data:`NAME_WIDTH` its start and end around ``…[N characters]…``."""
    if len(name) <= NAME_WIDTH:
        return name
    note = f"…[{len(name)} characters]…"
    keep = NAME_WIDTH - len(note)
    return name[: keep - keep // 3] + note + name[len(name) - keep // 3 :]


def _split_label(text: str) -> tuple[str, str]:
    """(indentation and label, the rest) of ``text``."""
    match = _LABEL.match(text)
    return match.group(1), match.group(2)


def _fold_part(part: str, where: str) -> str:
    """A list part (entries are file or rule names) folded; any other text left to :func:`_cut`."""
    label, listed = _split_label(part)
    opening, closing = ("[", "]") if listed.startswith("[") and listed.endswith("]") else ("", "")
    names = listed[len(opening) : len(listed) - len(closing)].split(", ")
    if not all(_NAME.match(name) for name in names):
        return part
    return label + opening + ", ".join(fold_names(names, where)) + closing


def _cut(line: str, where: str) -> str:
    note = f" …[cut: the line has {len(line)} characters; {where}]"
    return line[: LINE_LIMIT - len(note)] + note
