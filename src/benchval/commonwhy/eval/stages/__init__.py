"""The CommonWhy evaluation's workflow stages: one module per rule of workflow/rules/commonwhy_eval.smk.

Each rule's script imports only its stage's module, so that editing one stage (or a library module only
it uses) reruns only that stage and what follows (per-module code hashing, docs/workflow.md). A stage
reads its ``commonwhy_eval`` settings through :func:`benchval.commonwhy.eval.stage_keys.stage_settings`.
This package's ``__init__`` imports nothing.

- :mod:`.stage_io`            answers, validity files and the KG source as the stages read and write them
- :mod:`.systems`             the generator for a system name (a prepared local model or an endpoint)
- :mod:`.encoder`             rule commonwhy_eval_encoder
- :mod:`.bertscore_baseline`  rule commonwhy_eval_bertscore_baseline
- :mod:`.sample`              rule commonwhy_eval_sample
- :mod:`.answer`              rules commonwhy_eval_answer and commonwhy_eval_check_answer
- :mod:`.baselines`           rules commonwhy_eval_kbbinder and commonwhy_eval_kgr
- :mod:`.score`               rule commonwhy_eval_score
- :mod:`.check_questions`     rule commonwhy_eval_check_questions
- :mod:`.check_set`           rule commonwhy_eval_check_set
- :mod:`.canaries`            rule commonwhy_eval_judge_canaries
- :mod:`.judges`              the configured judge, loaded (judge check and judging)
- :mod:`.judge_check`         rule commonwhy_eval_judge_check
- :mod:`.judge_check_report`  rule commonwhy_eval_judge_check_report
- :mod:`.judge`               rule commonwhy_eval_judge
- :mod:`.factscore`           rule commonwhy_eval_factscore
- :mod:`.table2`              rule commonwhy_eval_table2
- :mod:`.criterion`           rule commonwhy_eval_criterion
"""
