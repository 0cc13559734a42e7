"""Throughput scripts that print JSON (DESIGN §1); never timed assertions in tests."""
