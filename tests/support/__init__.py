"""Helpers imported by tests in any folder: fakes, the hardening runner, shared invariants, paths."""
