"""The paper's statistical analysis of a tidy score table (see docs/analysis.md).

One concept per module: ``study_table`` (load and validate inputs), ``correlation`` (Spearman
matrices), ``bootstrap`` (vectorised resampling over models), ``revisions``, ``partial``,
``fdr``, ``axes``, ``lofo``, ``displacement``, ``figures`` (one module per figure), ``importers``;
``chain`` runs each as a step, one rule per step (workflow/rules/analysis.smk).
"""
