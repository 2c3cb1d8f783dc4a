"""replay: a digitized-rules archive and replay tool for old patience rule texts."""

__version__ = "0.2.0"
