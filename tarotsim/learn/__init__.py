"""Models learned from the engine's own deals (``tarotsim learn``).

Training data from the kernels: every decision of chosen seats, with what the seat saw, where
every card truly was, the action taken and the seat's score (:mod:`tarotsim.learn.data`, the
layout in :mod:`tarotsim.learn.features`). docs/learn.md is the manual.
"""
