"""The chat's command palette (Ctrl+P): every action, with the key that does it."""

from __future__ import annotations

PALETTE = (
    ("Help", "Keys, follow-ups and filters (F1)", "help"),
    ("Switch mode", "auto, hybrid, bm25, dense (F2)", "cycle_mode"),
    ("Change top-k", "3, 5, 10 passages (F3)", "cycle_top_k"),
    ("Filter on a release", "Pick one of the corpus's releases (F4)", "pick_release"),
    ("Clear the release filter", "Search every release again (Ctrl+L)", "clear_filter"),
    ("Open the first passage", "Of the newest answer (Alt+1)", "open_passage(1)"),
    ("Copy citation", "Of the focused passage, else the newest answer's first (Ctrl+K)", "copy_top('citation')"),
    ("Copy passage text", "Of the focused passage, else the newest answer's first (Ctrl+T)", "copy_top('text')"),
    ("Export the transcript", "As Markdown, to transcripts/ in the user data folder or --export-dir; "
                              "the notice gives the path (Ctrl+S)", "export"),
    ("Retry loading the index", "After a failed load, once the cause is fixed (Ctrl+R)", "retry_load"),
)
