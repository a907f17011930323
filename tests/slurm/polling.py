"""How often the tests' Snakemake asks SLURM about its jobs: as often as the plugin allows.

snakemake-executor-plugin-slurm sleeps ``--seconds-between-status-checks`` (Snakemake's default: 10 s)
before its first check, then 10 s longer after every check that finds no job finished, back to
``--slurm-init-seconds-before-status-checks`` (the profile's 10 s) after one that does. A test job
takes 5-10 s, so with those values most of a test's time went to waiting for the next check
(tests/slurm/test_slurm_profile.py's toy workflow: 89 s on SLURM, 5 s locally). With both at 1 s a
finished job is seen within ~1-11 s. Only the polling differs from the profile as users get it.
"""

FAST_STATUS_CHECKS = ["--slurm-init-seconds-before-status-checks", "1", "--seconds-between-status-checks", "1"]
