"""The paper's statistical analysis of a tidy score table (see docs/analysis.md).

One concept per module: ``table`` (load and validate inputs), ``correlation`` (Spearman
matrices), ``bootstrap`` (vectorised resampling over models), ``revisions``, ``partial``,
``fdr``, ``axes``, ``lofo``, ``displacement``, ``figures``, ``importers`` and ``run``
(the entry point :func:`benchval.analysis.run.run_analysis`).
"""
