"""Log-likelihood scoring of answer options (docs/data-contract.md, sections 1-2).

- :mod:`benchval.scoring.requests`: items -> (context, continuation) requests per scoring mode.
- :mod:`benchval.scoring.tokens`: exact context/continuation token boundaries (lm-evaluation-harness rules).
- :mod:`benchval.scoring.base`: the :class:`Scorer` interface and :func:`make_scorer`.
- :mod:`benchval.scoring.reference`: naive exact scorer, one pair per forward (the test oracle).
- :mod:`benchval.scoring.engine`: fast scorer (shared contexts packed in one row, token-budget batches).
- :mod:`benchval.scoring.store`: the scores parquet (writer/reader) and resumable shards.
- :mod:`benchval.scoring.task_scoring`: :func:`score_task`, used by the ``score`` rule.
"""
