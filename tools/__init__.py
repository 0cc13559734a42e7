"""The developers' tools, run from a clone and never installed: ``python -m tools.docs`` runs the manual's examples."""
