"""Figures 1-4 and Table 4 of the paper from the analysis tables, one module per figure.

Each figure module (``fig1_cs_correlations`` ... ``table4_rank_displacement``) holds its ``STEM``, the
``TITLE`` its too-few-models notice shows, and ``draw(tables, study, metrics, settings, output)``; it
imports only the shared helpers (:mod:`.drawing`, the heatmaps of Figures 1-2 in :mod:`.heatmaps`).
:mod:`.figure_step` runs one figure as a step of the analysis chain. Each figure's rule runs its own script,
which imports its own module, so that editing one figure redraws only that figure
(benchval.jobs.reruns.code_digest). This package file imports nothing, for the same reason.

One panel (heatmaps, Figure 3) or one marker colour (Figure 4) per metric. Missing values are drawn as
grey "n/a" cells or annotated, never silently dropped.
"""
