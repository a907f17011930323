"""CommonWhy evaluation (paper section 4): answers, metrics, judge, FActScore, Table 2, baselines, criterion rows.

One concept per module (docs/commonwhy-eval.md):

- :mod:`.settings`   the ``commonwhy_eval:`` config section with its schema defaults and name checks
- :mod:`.questions`  the seeded evaluation sample from the published and the constructed questions
- :mod:`.wordnet`    WordNet for METEOR from Debian's ``wordnet-base`` (no download at run time)
- :mod:`.encoder`    the BERTScore encoder folder extracted from its pinned wheel
- :mod:`.metrics`    BERTScore, ROUGE-L, BLEU, METEOR, each maximised over the references
- :mod:`.judge`      the LLM correctness judge and its self-check
- :mod:`.kg_claims`  atomic claims of an answer and their check against the KG source
- :mod:`.factscore`  FActScore of answers and of the reference answers, from those checks
- :mod:`.baselines`  KB-Binder-style and KGR-style KGQA baselines
- :mod:`.table2_results` results per system and split in the paper's Table 2 layout, and a figure
- :mod:`.parquet_tables` the evaluation's parquet tables, read back with a check of their columns
- :mod:`.criterion`  score-table and task rows for the validity analysis
- :mod:`.stage_keys` the ``commonwhy_eval`` keys each rule passes its stage, and the check that it reads no other
- the rules' modules are benchval.commonwhy.eval.steps.commonwhy_eval_answer and its siblings, one per script

This ``__init__`` imports nothing, so that a script importing one stage hashes no other (docs/workflow.md).
"""
