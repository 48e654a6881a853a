"""Answers shown to people and programs, one renderer per medium: citations (``cite``), the words
of notes (``notes``), digests as lines (``digest_text``), the JSON record and batch formats
(``formats``), the terminal (``terminal``) and plain text for MCP clients (``plain``); the chat's
widgets draw from the same pieces."""

# The batch formats (``formats``), here so the CLI's --help lists them without importing the renderers.
FORMATS = ("jsonl", "json", "csv", "trec", "markdown")
