"""Tests of corpus/: reading files, sections, chunks, versions, the index form of text."""
