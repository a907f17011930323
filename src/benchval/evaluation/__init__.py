"""Evaluation stage: calibrated option scores -> metrics (metrics), lm-evaluation-harness-style
outputs (lmeval_format), both per (model, task) (evaluate); per study, the score table (score_table)."""
