"""What several steps of one rule family share (this package file imports nothing):

- :mod:`.atlas_common`              the atlas steps' table writer, wide score matrix and settings dicts
- :mod:`.atlas_factor`              the general-factor settings of the atlas steps that compute g
- :mod:`.commonwhy_eval_stage_io`   answers, validity files and the KG source as the CommonWhy stages pass them
- :mod:`.commonwhy_eval_systems`    the generator for a system name (a prepared local model or an endpoint)
- :mod:`.commonwhy_eval_judges`     the configured judge, loaded (judge check and judging)

A CommonWhy evaluation step reads its ``commonwhy_eval`` settings through
:func:`benchval.commonwhy.eval.stage_keys.stage_settings`.
"""
