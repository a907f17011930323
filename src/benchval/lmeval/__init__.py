"""lm-evaluation-harness 0.4.x output folders in, item by item (docs/configuration.md, "lm-eval studies").

One module per concept:

* :mod:`~benchval.lmeval.output_files` - which results JSON and samples files a folder holds (0.4.3+,
  0.4.0-0.4.2 and this project's results/lmeval/ layouts; 0.3 layouts fail clearly);
* :mod:`~benchval.lmeval.samples` - one samples JSON Lines file -> one row per scored request;
* :mod:`~benchval.lmeval.recompute` - accuracy, our macro-F1, lm-eval's own per-item figures,
  re-normalisation and item-bootstrap intervals from those rows;
* :mod:`~benchval.lmeval.provenance` - size, dtype, revision, sha, family and the comparability
  checks of a study's runs;
* :mod:`~benchval.lmeval.importer` - a ``source: lm_eval`` study with ``samples:`` -> score table.
* :mod:`~benchval.lmeval.results` - a ``source: lm_eval`` study from its results JSON files (or, with
  ``samples:``, through the importer) -> score table.
"""


def samples_studies(studies: dict) -> list[str]:
    """The ``source: lm_eval`` studies recomputed from samples (they get an item-intervals table)."""
    return [name for name, spec in studies.items() if spec.get("source") == "lm_eval" and "samples" in spec]
