"""Imports every adapter module so that their @register decorators run.

Add a line here when you add an adapter module.
"""

# fmt: off
from benchval.tasks import commonsense  # noqa: F401
from benchval.tasks import downstream  # noqa: F401
# fmt: on
