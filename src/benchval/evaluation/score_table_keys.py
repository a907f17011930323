"""The keys of a model entry the score table reads (benchval.evaluation.score_table.score_table_from_metrics):
rules score_table and scoreboard pass only these, so that editing another key of a model reruns no score table
and no analysis."""

SCORE_TABLE_MODEL_KEYS = ("family", "size_b")
