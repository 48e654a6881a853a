"""The release picker (F4): the corpus's releases grouped by product, filtered as you type,
one release or a range of them chosen."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

ALL_RELEASES = "__all__"
HINT = "Enter chooses · Shift+Up/Down selects a range · Esc cancels"


@dataclass(frozen=True, slots=True)
class Picked:
    """What the picker chose: releases (oldest first; () for all) and, in a corpus of several
    products, the product they are of (two products may both have a 2.0.0)."""

    releases: tuple[str, ...]
    product: str | None = None


def option_id(group: int, release: str) -> str:
    """An option's id: unique even when two products hold the same release."""
    return f"{group}/{release}"


def release_of(option: str) -> str:
    return option.split("/", 1)[1]


class ReleasePicker(ModalScreen[Picked | None]):
    """The releases in the corpus, grouped by product, newest first: type to filter, Up/Down to
    move (the cursor starts on the release in force, and stops at the ends), Shift+Up/Down to
    select a range of one product's releases, Enter to choose.

    Dismissed with what was picked (``Picked``: () for "all releases"), None on Escape.
    """

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("down", "move(1)", "Next", show=False),
        Binding("up", "move(-1)", "Previous", show=False),
        Binding("shift+down", "move(1, True)", "Select down", show=False),
        Binding("shift+up", "move(-1, True)", "Select up", show=False),
        Binding("enter", "choose", "Choose", show=False),
    ]

    def __init__(self, releases: tuple[str, ...], current: tuple[str, ...],
                 groups: tuple[tuple[str | None, tuple[str, ...]], ...] = ()) -> None:
        super().__init__()
        self.releases = releases
        self.current = current
        self.groups = groups or ((None, releases),)
        self.anchor: int | None = None  # where a Shift+Up/Down selection started (an option index)

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Static(Content.styled("Filter on release", "bold $accent"))
            yield Input(placeholder="type to filter: 2.1, pydantic…", id="release-filter", select_on_focus=False)
            yield OptionList(*self._options(""), id="releases")
            yield Static(Content.styled(HINT, "$text-muted"), id="picker-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        here = [i for i, o in enumerate(ids) if o and o != ALL_RELEASES and release_of(o) in self.current]
        options.highlighted = here[0] if here else 0
        self.query_one(Input).focus()

    def _options(self, text: str) -> list[Option]:
        """All releases first, then each product's releases newest first; those matching ``text``."""
        wanted = text.strip().lower()
        out = [Option("All releases (no filter)", id=ALL_RELEASES)] if not wanted else []
        several = len(self.groups) > 1
        for group, (product, releases) in enumerate(self.groups):
            named = bool(wanted) and product is not None and wanted in product.lower()
            shown = [r for r in reversed(releases) if not wanted or named or wanted in r.lower()]
            if not shown:
                continue
            if several:
                out.append(Option(Content.styled(product or "(no product)", "bold"), disabled=True))
            out += [Option(self._label(r), id=option_id(group, r)) for r in shown]
        return out or [Option(Content.styled(f"No release matches {text.strip()!r}", "$text-muted"), disabled=True)]

    def _label(self, release: str, selected: bool = False) -> Content:
        """A release as listed: ● marks the one in force, ▌ those of the selection."""
        if selected:
            return Content.styled("▌ " + release, "bold $accent")
        return Content(("● " if release in self.current else "  ") + release)

    def _enabled(self) -> list[int]:
        options = self.query_one(OptionList)
        return [i for i in range(options.option_count) if not options.get_option_at_index(i).disabled]

    def on_input_changed(self, event: Input.Changed) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(self._options(event.value))
        enabled = self._enabled()
        options.highlighted = enabled[0] if enabled else None
        self._select(None)

    def action_move(self, step: int, extend: bool = False) -> None:
        """Up and Down move the cursor over releases (not product headings), without wrapping;
        with Shift they select the releases between where the selection started and the cursor,
        within one product (a range never runs over a product heading)."""
        options = self.query_one(OptionList)
        enabled = self._enabled()
        at = options.highlighted if options.highlighted in enabled else None
        if at is None:
            options.highlighted = enabled[0] if enabled else None
            self._select(None)
            return
        if not extend:
            self._select(None)
        elif self.anchor is None and options.get_option_at_index(at).id != ALL_RELEASES:
            self.anchor = at
        further = [i for i in enabled if (i - at) * step > 0]
        if extend and further and self._breaks_run(at, min(further, key=lambda i: abs(i - at))):
            further = []  # a heading or "All releases" between: the range stays within its product
        if further:
            options.highlighted = min(further, key=lambda i: abs(i - at))
        if extend:
            self._select(self.anchor)

    def _breaks_run(self, at: int, to: int) -> bool:
        options = self.query_one(OptionList)
        low, high = sorted((at, to))
        return any(options.get_option_at_index(i).disabled or options.get_option_at_index(i).id == ALL_RELEASES
                   for i in range(low, high + 1))

    def selected(self) -> tuple[str, ...]:
        """The releases of the selection, oldest first (empty when there is none)."""
        options = self.query_one(OptionList)
        if self.anchor is None or options.highlighted is None:
            return ()
        low, high = sorted((self.anchor, options.highlighted))
        ids = [options.get_option_at_index(i).id for i in range(low, high + 1)]
        return tuple(reversed([i for i in ids if i and i != ALL_RELEASES]))  # option ids

    def _picked(self, ids: tuple[str, ...]) -> Picked:
        product = self.groups[int(ids[0].split("/", 1)[0])][0] if ids and len(self.groups) > 1 else None
        return Picked(tuple(release_of(i) for i in ids), product)

    def _select(self, anchor: int | None) -> None:
        """Start (or end, with None) a selection, mark it and say in the hint what Enter will choose."""
        self.anchor = anchor
        chosen = self.selected()
        options = self.query_one(OptionList)
        for i in range(options.option_count):
            option = options.get_option_at_index(i)
            if option.id and option.id != ALL_RELEASES:
                label = self._label(release_of(option.id), len(chosen) > 1 and option.id in chosen)
                if str(label) != str(option.prompt):
                    options.replace_option_prompt_at_index(i, label)
        hint = self.query_one("#picker-hint", Static)
        if len(chosen) > 1:
            first, last = release_of(chosen[0]), release_of(chosen[-1])
            hint.update(Content.styled(f"Enter chooses {first} … {last} ({len(chosen)} releases)", "bold $accent"))
        else:
            hint.update(Content.styled(HINT, "$text-muted"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_choose()

    def action_choose(self) -> None:
        options = self.query_one(OptionList)
        chosen = self.selected()
        if len(chosen) > 1:
            self.dismiss(self._picked(chosen))
        elif options.highlighted is not None and options.highlighted in self._enabled():
            self._chosen(options.get_option_at_index(options.highlighted).id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._chosen(event.option.id)

    def _chosen(self, chosen: str | None) -> None:
        self.dismiss(Picked(()) if chosen == ALL_RELEASES or chosen is None else self._picked((chosen,)))
