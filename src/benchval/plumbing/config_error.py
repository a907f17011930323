"""The error of a bad configuration: its message names the offending key (docs/configuration.md, "Start-up errors")."""


class ConfigError(ValueError):
    """A configuration problem; the message names the offending key."""
