"""tarotsim: a French Tarot simulator with automatic counting (rules: RULES.md ids R-…)."""

__version__ = "0.1.0"
