"""CommonWhy (Moradi et al., 2026): the published dataset and a rebuild of its construction pipeline.

Modules, one concept each:

- :mod:`.dataset`      load Head.json / Longtail.json as a tidy table, join anchor QIDs and rule labels
- :mod:`.namespaces`   Wikidata IRIs and prefixes
- :mod:`.wdqs_dialect` the ONE place where Wikidata-Query-Service-only SPARQL is made standard
- :mod:`.rdf_convert`  LitWD1K mirror files -> Wikidata-style RDF (N-Triples)
- :mod:`.kg`           knowledge-graph sources with one interface (local pyoxigraph store, remote endpoint)
- :mod:`.rules`        lifted rules (published files or a user YAML) and template instantiation
- :mod:`.grounding`    run rules against a KG source -> grounded questions + grounding report
- :mod:`.subgraph`     supporting facts of a grounded question
- :mod:`.annotation`   multi-answer merge (causes listed by every annotator)
- :mod:`.splits`       head / long-tail halves by anchor triple counts
- :mod:`.pipeline`     the construction run that writes constructed.parquet
"""
