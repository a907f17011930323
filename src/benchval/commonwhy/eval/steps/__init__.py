"""The CommonWhy evaluation rules' step modules, one per rule script and named like it (tests/test_job_steps.py,
tests/commonwhy_eval/test_stage_modules.py). One module serves two scripts: ``commonwhy_eval_baselines``
(scripts commonwhy_eval_kbbinder and commonwhy_eval_kgr). :mod:`.commonwhy_eval_stage_io`: the answers tables,
validity files and KG source the stages pass each other. A stage reads its ``commonwhy_eval`` settings
through :func:`benchval.commonwhy.eval.stage_keys.stage_settings`; it loads a system with
:func:`benchval.generation.systems.make_generator` and the judge with :func:`benchval.commonwhy.eval.judge.make_judge`.

This package file imports nothing, so that editing one step reruns only its rule (benchval.jobs.reruns).
"""
