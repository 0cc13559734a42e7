"""Bots for tarotsim (filled by the bots issue; the random bot lives with the engine for now)."""
