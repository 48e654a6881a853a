"""A digest on the chat's answer card: a heading a release, the kind of each run of items, a row
an item that Enter or a click opens in its section (as a passage opens)."""

from __future__ import annotations

from textual.binding import Binding
from textual.content import Content
from textual.widgets import Static

from ..present import cite, digest_text
from ..model import Digest, DigestItem
from ..text import safe
from .passage import PassageItem, copy, preview

DIGEST_ROWS = 40  # items of a digest shown on a card; the CLI and --json give them all


class DigestRow(Static, can_focus=True):
    """One item of a digest: its words and file:lines; Enter (or a click) opens it in its section."""

    BINDINGS = [
        Binding("enter", "open", "Open item"),
        Binding("ctrl+k", "copy_citation", "Copy citation"),
    ]

    def __init__(self, item: DigestItem, number: int, question: str) -> None:
        self.item = item
        self.number = number
        self.question = question
        lines, more = digest_text.item_lines(item, 2)
        words = " ".join(lines) + (" …" if more else "")
        super().__init__(Content.assemble(("• ", "$accent"), (preview(words), ""), "  ",
                                          (safe(cite.location(item.citation)), "$success")))

    def action_open(self) -> None:
        self.post_message(PassageItem.Opened(self.item.as_passage(self.number), self.question, (self.item.text,)))

    def on_click(self) -> None:
        self.action_open()

    def action_copy_citation(self) -> None:
        copy(self, cite.plain(self.item.citation), "the citation of the item")


def digest_widgets(digest: Digest, question: str) -> list:
    """A digest on a card: its title, a heading a release, the kind of each run of items, a row an item."""
    shown: list = [Static(Content.styled(safe(digest_text.title(digest)), "bold $success"), classes="digest-title")]
    count = 0
    for r in digest.releases:
        if count >= DIGEST_ROWS:
            break
        shown.append(Static(Content.styled(safe(digest_text.release_title(r)), "bold $accent"), classes="digest-release"))
        for group in digest_text.groups(r):
            if count >= DIGEST_ROWS:
                break
            shown.append(Static(Content.styled(safe(group.title), "bold"), classes="digest-kind"))
            for item in group.items[: DIGEST_ROWS - count]:
                count += 1
                shown.append(DigestRow(item, count, question))
        rest = digest_text.omitted(r)
        if rest:
            shown.append(Static(Content.styled(safe(rest), "$text-muted"), classes="digest-more"))
    left = len(digest.items) - count
    if left > 0:
        shown.append(Static(Content.styled(f"… {left} more items: relnotes ask --json lists them all", "$text-muted"),
                            classes="digest-more"))
    return shown
