"""benchval: does a benchmark predict what it claims to measure?"""

__version__ = "0.1.0"
