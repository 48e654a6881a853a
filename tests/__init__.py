"""The test suite: one folder per package (corpus, index, qa, tui), the hardening catalogue, and support."""
