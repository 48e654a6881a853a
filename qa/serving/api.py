"""What agents and teams call, over one AnswerService: arguments checked, JSON records out, sized.

The MCP server (``qa.mcp``) and the HTTP API (``qa.http``) are thin over these functions, so a
question gets the same record from ``relnotes ask --json``, a tool call and ``POST /v1/ask``.
Every record fits a budget (``max_chars`` of its JSON, default ``DEFAULT_MAX_CHARS``): passages
are shown as cards (citation and first lines) unless ``detail="full"``, and what does not fit is
left out and counted (``"omitted"``), never the whole corpus. A bad argument raises
``BadArgument`` with a message a model can read and retry from.
"""

from __future__ import annotations

import json
from typing import Literal, Sequence

from corpus.kinds import check_kind

from ..errors import BadQuestion, QAError
from ..present.formats import answer_record
from .fitting import CARD_CHARS, fit, fit_deps, fit_releases, size  # noqa: F401 (CARD_CHARS: part of this API)

Detail = Literal["cards", "full"]
DETAILS = ("cards", "full")
DEFAULT_MAX_CHARS = 8000
MIN_MAX_CHARS = 1000
MOST_MAX_CHARS = 200_000
MOST_TOP_K = 50
RELEASE_NOTES_CHARS = 60_000  # one release's notes as a resource


class BadArgument(QAError):
    """Raised for an argument an agent can correct: a bad top_k, product, release, kind or range."""


def check_top_k(top_k: int) -> int:
    """``top_k`` when it is a whole number from 1 to MOST_TOP_K; BadArgument says the bounds."""
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MOST_TOP_K:
        raise BadArgument(f"top_k must be a whole number from 1 to {MOST_TOP_K}, got {top_k!r}")
    return top_k


def check_budget(max_chars: int, detail: str) -> tuple[int, str]:
    """``max_chars`` (from MIN_MAX_CHARS to MOST_MAX_CHARS) and ``detail`` (one of DETAILS) when
    they are valid; BadArgument says the bounds or the choices."""
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or not MIN_MAX_CHARS <= max_chars <= MOST_MAX_CHARS:
        raise BadArgument(f"max_chars must be a whole number from {MIN_MAX_CHARS} to {MOST_MAX_CHARS}, got {max_chars!r}")
    if detail not in DETAILS:
        raise BadArgument(f"detail must be one of {', '.join(DETAILS)}, got {detail!r}")
    return max_chars, detail


def check_text(name: str, value, optional: bool = True) -> str | None:
    """``value`` if it is a string (or None when ``optional``); BadArgument names the field."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise BadArgument(f"{name} must be a string{' or null' if optional else ''}, got {json.dumps(value)[:40]}")
    return value


def check_product(service, product: str | None) -> list[str]:
    """``[product]`` as the corpus spells it, [] for None; BadArgument names the products held."""
    if check_text("product", product) is None or not product.strip():
        return []
    try:
        return [service.product(product)]
    except BadQuestion as exc:
        raise BadArgument(str(exc)) from None


def check_release(service, release: str | None, products: Sequence[str] = ()) -> list[str]:
    """``[release]`` when the corpus holds it (of ``products``), [] for None."""
    if check_text("release", release) is None or not release.strip():
        return []
    from ..question import release_name

    name = release_name(str(release).strip())
    if not service.held(name, products):
        from ..present import notes

        raise BadArgument(notes.text(service.catalogue.missing_note([name], products)))
    return [name]


def check_kinds(kinds: Sequence[str] | str | None) -> list[str]:
    """Kinds as the vocabulary spells them ("Fixed", "breaking" -> "fixed", "removed")."""
    if kinds is None:
        return []
    given = [kinds] if isinstance(kinds, str) else kinds
    if not isinstance(given, list) or not all(isinstance(k, str) for k in given):
        raise BadArgument(f"kinds must be a kind or a list of kinds, got {json.dumps(kinds)[:40]}")
    try:
        return list(dict.fromkeys(check_kind(k) for k in given))
    except ValueError as exc:
        raise BadArgument(str(exc)) from None


def check_range(since: str, until: str):
    """(since, until] as a ReleaseRange (``qa.question.range_of``, as the CLI reads --since and
    --until); BadArgument for a bound missing or no release, or a range that runs backwards."""
    from ..question import BadBound, range_of

    for name, value in (("since", since), ("until", until)):
        if value is None:
            raise BadArgument(f"{name} is required: a release, like 2.14")
        check_text(name, value, optional=False)
    try:
        return range_of(since, until, ("since", "until"))
    except BadBound as exc:
        raise BadArgument(str(exc) if exc.backwards else f"{exc.name} {exc}") from None


def check_mode(mode: str) -> str:
    """``mode`` when a question may ask it (auto, or a retrieval mode); BadArgument lists them."""
    from index import ASKED_MODES

    if mode not in ASKED_MODES:
        raise BadArgument(f"mode must be one of {', '.join(ASKED_MODES)}, got {json.dumps(mode)[:40]}")
    return mode


TURN_FIELDS = ("question", "asked_as", "releases", "products", "range")


def check_turn(previous: object):
    """The ``qa.question.Turn`` ``previous`` holds: the ``"turn"`` an answer returned (a line of
    the question history, ``qa.history.Entry``, without its time), or None for none."""
    if previous is None:
        return None
    from ..history import Entry
    from ..question import MAX_QUESTION_CHARS

    entry = Entry.from_json(previous) if isinstance(previous, dict) else None
    if entry is None or set(previous) - set(TURN_FIELDS):
        raise BadArgument("previous must be null or the \"turn\" of the previous answer "
                          f"(fields {', '.join(TURN_FIELDS)}), sent back as it came")
    if max(len(entry.question), len(entry.asked_as)) > MAX_QUESTION_CHARS:
        raise BadArgument(f"previous holds a question over {MAX_QUESTION_CHARS:,} characters; "
                          "send back the turn the answer returned")
    return entry.turn()


def turn_record(turn) -> dict:
    """A conversation's turn as JSON (``check_turn`` reads it back)."""
    from ..history import Entry

    line = Entry.from_turn(turn).to_json()
    line.pop("time", None)
    return line


ALONE = object()  # ``ask``'s ``previous`` when the question is not part of a conversation


def ask(service, question: str, top_k: int = 5, product: str | None = None, release: str | None = None,
        kind: str | None = None, *, mode: str = "auto", previous: object = ALONE,
        max_chars: int = DEFAULT_MAX_CHARS, detail: str = "cards") -> dict:
    """The answer record of ``relnotes ask --json`` (quoted sentences, cited passages, notes,
    earliest release, the digest of a release question), fitted to ``max_chars``.

    With ``previous`` (None for a conversation's first question, else the ``"turn"`` the last
    answer returned) the question is read as a follow-up, as the chat reads it, ``release`` is
    the filter the person set (a question naming a release of its own asks about that one), and
    the record adds ``"turn"`` (to send back with the next question) and ``"kept"`` (the release
    filter kept from the previous question, in words, or null).
    """
    top_k, (max_chars, detail), mode = check_top_k(top_k), check_budget(max_chars, detail), check_mode(mode)
    if not isinstance(question, str) or not question.strip():
        raise BadArgument("question must be a non-empty string, e.g. 'which release added X?'")
    products = check_product(service, product)
    releases = check_release(service, release, products)
    kinds = check_kinds(kind)
    if previous is ALONE:
        answer = service.ask(question, top_k=top_k, mode=mode, releases=releases, products=products, kinds=kinds)
        return fit(answer_record(answer, "1"), max_chars, detail)
    from ..conversation import Conversation

    talk = Conversation(service, check_turn(previous), releases=tuple(releases) or None)
    follow, answer = talk.ask(question, top_k, mode, kinds=kinds, products=products)
    extra = {"turn": turn_record(talk.turn), "kept": follow.chip}
    return {**fit(answer_record(answer, "1"), max_chars - size(extra), detail), **extra}


def search(service, query: str, top_k: int = 10, product: str | None = None, release: str | None = None,
           kind: str | None = None, *, mode: str = "auto", max_chars: int = DEFAULT_MAX_CHARS,
           detail: str = "cards") -> dict:
    """Ranked, cited passages only (retrieval, no answer sentences, no digest)."""
    if not isinstance(query, str) or not query.strip():
        raise BadArgument("query must be a non-empty string, e.g. 'MPS kernels'")
    max_chars, detail = check_budget(max_chars, detail)
    record = ask(service, query, top_k, product, release, kind, mode=mode, max_chars=MOST_MAX_CHARS, detail="full")
    return fit({"query": query, "passages": record["passages"], "note": record["note"]}, max_chars, detail)


def releases(service, product: str | None = None, *, max_chars: int = DEFAULT_MAX_CHARS) -> dict:
    """Each product with its releases, newest first, and their dates where the notes give them."""
    check_budget(max_chars, "cards")
    wanted = set(check_product(service, product))
    dates: dict[tuple[str | None, str], str | None] = {}
    from corpus.headings import find_date

    for c in service.chunks:  # the date a release heading gives ("pytest 8.2.0 (2024-04-27)")
        if c.version and dates.get((c.product, c.version)) is None:
            dates[(c.product, c.version)] = next(filter(None, map(find_date, c.section)), None)
    products = []
    for name, versions in service.release_groups():
        if wanted and name not in wanted:
            continue
        products.append({"product": name, "count": len(versions),
                         "releases": [{"version": v, "date": dates.get((name, v))} for v in reversed(versions)]})
    return fit_releases({"products": products}, max_chars)


def changes(service, product: str | None, since: str, until: str, kinds: Sequence[str] | None = None,
            topic: str | None = None, *, max_chars: int = DEFAULT_MAX_CHARS, detail: str = "cards") -> dict:
    """The upgrade digest after ``since`` up to ``until``: breaking, removed and deprecated items
    of each release (or those of ``kinds``; with ``topic``, the range's items on it), cited."""
    max_chars, detail = check_budget(max_chars, detail)
    span = check_range(since, until)
    products = check_product(service, product)
    if not products and len(service.products) > 1:
        raise BadArgument(f"The corpus holds several products ({', '.join(service.products)}); name one as product")
    topic = check_text("topic", topic) or ""
    answer = service.changes(span, products[0] if products else None, kinds=check_kinds(kinds), topic=topic)
    return fit(answer_record(answer, "1"), max_chars, detail)


def release_notes(service, product: str, version: str) -> str:
    """One release's notes as text, its sections in order, each headed by its citation."""
    from ..present import cite

    products = check_product(service, product)
    (name,) = check_release(service, version, products) or [None]
    if name is None:
        raise BadArgument("give a release, e.g. relnotes://pydantic/2.10.0")
    from corpus.versions import version_matches

    parts, size = [], 0
    for c in service.chunks:  # a document of no known product counts for every product, as held() says
        if (not c.product or c.product in products) and c.version and version_matches(c.version, name):
            part = f"## {cite.heading(c, cite.PLAIN)}  ({cite.location(c)})\n\n{c.text.strip()}\n"
            if size + len(part) > RELEASE_NOTES_CHARS:
                parts.append(f"[... the rest of release {name} left out: over {RELEASE_NOTES_CHARS} characters; "
                             "ask about it or use release_changes]")
                break
            parts.append(part)
            size += len(part)
    if not parts:
        raise BadArgument(f"No section of {products[0]} {name} holds text; list_releases names the releases held")
    return "\n".join(parts)


def deps(service, names: Sequence[str] | None = None, *, max_chars: int = DEFAULT_MAX_CHARS) -> dict:
    """The dependencies report of the project the service was opened with (``relnotes deps --json``
    as ``dependencies``), attention first; item texts cut to cards, then items and dependencies
    left out from the end (counted in ``"omitted"``) to fit ``max_chars``."""
    check_budget(max_chars, "cards")
    given = [names] if isinstance(names, str) else names or []
    if not isinstance(given, list) or not all(isinstance(n, str) for n in given):
        raise BadArgument(f"names must be a dependency name or a list of them, got {json.dumps(names)[:40]}")
    from ..deps import report
    from ..present.deps import report_record

    try:
        reports = report(service, tuple(given))
    except BadQuestion as exc:
        raise BadArgument(str(exc)) from None
    record = {"project": str(service.project.directory), "dependencies": [report_record(r) for r in reports]}
    return fit_deps(record, max_chars)

