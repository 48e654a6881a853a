"""Answering: the engine and what it reasons with.

``engine`` (orchestration), ``question`` (release and product cues), ``evidence`` (sentence
scores and the quoted answer), ``rerank``, ``followup``, ``catalogue`` (what releases the
corpus holds) and ``section`` (a passage in its whole section). Import from the modules:
this package imports nothing, so the chat can put its window up before numpy loads.
"""
