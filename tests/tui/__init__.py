"""Tests of qa/tui/: the chat under Pilot, its snapshots, and the chat end to end on the real index."""
