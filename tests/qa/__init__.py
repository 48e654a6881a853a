"""Tests of qa/: the answer engine, follow-ups, releases and products, history, eval metrics, the CLI."""
