"""LitWD1K -> Wikidata-style RDF on a hand-made miniature of the mirror layout."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from benchval.commonwhy.steps.commonwhy_kg_store import build_store
from benchval.commonwhy.errors import CommonWhyDataError
from benchval.commonwhy.kg import LocalSource
from benchval.commonwhy.rdf_convert import lexical_time_precision, litwd1k_to_ntriples

DEC = "<http://www.w3.org/2001/XMLSchema#decimal>"
DT = "<http://www.w3.org/2001/XMLSchema#dateTime>"
DBL = "<http://www.w3.org/2001/XMLSchema#double>"


def _mini_litwd1k(root: Path, train: str = "Q1\tP27\tQ2\n") -> Path:
    files = {
        "LitWD1K/train.txt": train,
        "LitWD1K/valid.txt": "",
        "LitWD1K/test.txt": "Q2\tP47\tQ3\n",
        "LitWD1K/numeric_literals.txt": (
            f'Q1\tP569\t"1990-07-04T00:00:00Z"^^{DT}\n'
            f'Q2\tP1082_Q199\t"+1900000"^^{DEC}\n'
            f'Q2\tP2046_Q35852\t"+6459000"^^{DEC}\n'
            f'Q2\tP625_Latitude\t"56.9"^^{DBL}\nQ2\tP625_Longtiude\t"24.1"^^{DBL}\n'
        ),
        "Entities/entity_labels_en.txt": "Q1\tAnna Ozola\nQ2\tLatvia\nQ3\tEstonia\n",
        "Entities/entity_types.txt": "Q1\tQ5\nQ2\tQ6256\nQ99\tQ5\n",
        "Entities/entity_wikidata_descriptions_en.txt": "Q2\tcountry in Northern Europe\n",
        "Relations/relation_labels_en.txt": "P27\tcountry of citizenship\nP47\tshares border with\n",
        "Attributes/attribute_labels_en.txt": "P569\tdate of birth\nP1082\tpopulation\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_conversion_uses_wikidatas_model(tmp_path):
    lines, stats = litwd1k_to_ntriples(_mini_litwd1k(tmp_path))
    store = ox.Store()
    store.load("".join(lines).encode(), format=ox.RdfFormat.N_TRIPLES)
    source = LocalSource(store)
    assert source.query("SELECT ?c WHERE { wd:Q1 wdt:P27 ?c }")[0]["c"].qid == "Q2"
    date = source.query(
        "SELECT ?t ?p WHERE { wd:Q1 p:P569/psv:P569 ?v . ?v wikibase:timeValue ?t ; wikibase:timePrecision ?p }"
    )
    assert date[0]["t"].value == "1990-07-04T00:00:00Z" and date[0]["t"].datatype.endswith("#dateTime")
    assert date[0]["p"].value == "11"
    population = source.query(
        "SELECT ?n ?u WHERE { wd:Q2 p:P1082 ?s . ?s psn:P1082/wikibase:quantityAmount ?n ; "
        "psv:P1082/wikibase:quantityUnit ?u }"
    )
    assert float(population[0]["n"].value) == 1900000 and population[0]["u"].qid == "Q199"
    # hectare (Q35852) is not a coherent SI unit: no normalised value is invented
    assert source.query("SELECT ?v WHERE { wd:Q2 p:P2046/psn:P2046 ?v }") == []
    assert source.query("SELECT ?w WHERE { wd:Q2 wdt:P625 ?w }")[0]["w"].value == "Point(24.1 56.9)"
    assert source.label("Q2") == "Latvia" and source.triple_count("Q1") == 3  # P27, P569, P31
    assert [f.property_label for f in source.entity_facts("Q1", ["P27"])] == ["country of citizenship"]
    assert stats.entity_triples == 2 and stats.type_triples == 2 and stats.coordinates_written == 1
    assert "Q99" not in "".join(lines)  # types only for LitWD1K entities


@pytest.mark.parametrize(
    "lexical, precision",
    [
        ("1990-07-04T00:00:00Z", 11),
        ("1990-07-01T00:00:00Z", 10),
        ("1990-01-01T00:00:00Z", 9),
        ("+1990-01-15T00:00:00Z", 11),
    ],
)
def test_time_precision_lower_bound(lexical, precision):
    assert lexical_time_precision(lexical) == precision


def test_bad_line_names_file_and_line(tmp_path):
    with pytest.raises(CommonWhyDataError, match=r"train\.txt, line 2: expected 3 tab-separated fields"):
        litwd1k_to_ntriples(_mini_litwd1k(tmp_path, train="Q1\tP27\tQ2\nQ1 P27 Q3\n"))


def test_build_store_writes_a_readable_store_and_stats(tmp_path):
    stats = build_store(_mini_litwd1k(tmp_path / "raw"), tmp_path / "kg" / "mini.oxigraph", tmp_path / "stats.json")
    assert stats["quads_in_store"] == stats["rdf_triples"] > 0
    assert LocalSource.open(tmp_path / "kg" / "mini.oxigraph").label("Q1") == "Anna Ozola"
