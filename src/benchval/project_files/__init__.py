"""Files of the project drawn from its code, so that they cannot drift from it: docs/architecture.md
(:mod:`.architecture_page`, the rules and the package graph) and workflow/envs/benchval.yaml
(:mod:`.environment_file`, from pyproject.toml), both written by ``python -m benchval.project_files.generated_files``
(tests/test_generated_files.py checks that they are current). A tool above the workflow's kit.
"""
