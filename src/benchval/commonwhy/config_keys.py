"""The ``commonwhy:`` keys rule commonwhy_ground passes to benchval.commonwhy.steps.commonwhy_ground.ground, which reads
exactly these (``annotations`` are the rule's inputs), so that editing another key reruns nothing of it.
This module imports nothing: the rule file reads it at parse time."""

GROUND_KEYS = ("allow_partial", "kg", "language", "user_rules")
