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

Detail = Literal["cards", "full"]
DETAILS = ("cards", "full")
DEFAULT_MAX_CHARS = 8000
MIN_MAX_CHARS = 1000
MOST_MAX_CHARS = 200_000
MOST_TOP_K = 50
CARD_CHARS = 400  # a passage's text on a card
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


def ask(service, question: str, top_k: int = 5, product: str | None = None, release: str | None = None,
        kind: str | None = None, *, max_chars: int = DEFAULT_MAX_CHARS, detail: str = "cards") -> dict:
    """The answer record of ``relnotes ask --json`` (quoted sentences, cited passages, notes,
    earliest release, the digest of a release question), fitted to ``max_chars``."""
    top_k, (max_chars, detail) = check_top_k(top_k), check_budget(max_chars, detail)
    if not isinstance(question, str) or not question.strip():
        raise BadArgument("question must be a non-empty string, e.g. 'which release added X?'")
    products = check_product(service, product)
    releases = check_release(service, release, products)
    answer = service.ask(question, top_k=top_k, releases=releases, products=products, kinds=check_kinds(kind))
    return fit(answer_record(answer, "1"), max_chars, detail)


def search(service, query: str, top_k: int = 10, product: str | None = None, release: str | None = None,
           kind: str | None = None, *, max_chars: int = DEFAULT_MAX_CHARS, detail: str = "cards") -> dict:
    """Ranked, cited passages only (retrieval, no answer sentences, no digest)."""
    if not isinstance(query, str) or not query.strip():
        raise BadArgument("query must be a non-empty string, e.g. 'MPS kernels'")
    max_chars, detail = check_budget(max_chars, detail)
    record = ask(service, query, top_k, product, release, kind, max_chars=MOST_MAX_CHARS, detail="full")
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
    return _fit_releases({"products": products}, max_chars)


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


def size(record) -> int:
    return len(json.dumps(record, ensure_ascii=False))


def fit(record: dict, max_chars: int, detail: str) -> dict:
    """``record`` within ``max_chars`` of JSON: texts cut to cards unless ``detail`` is "full",
    then, from the end, passages no answer sentence cites, digest items (and releases left
    empty), nearest passages, then answer sentences with the passages only they cite; each left
    out counted in ``"omitted"``. What still does not fit becomes a note saying so."""
    record = json.loads(json.dumps(record, ensure_ascii=False))  # a copy to trim
    record.pop("timings_ms", None)
    digest = record.get("digest") or {}
    releases = digest.get("releases") if isinstance(digest.get("releases"), list) else []
    if detail == "cards":
        for entries in [record.get("passages") or [], record.get("not_an_answer") or []] + [r.get("items") or [] for r in releases]:
            for entry in entries:
                text = entry.get("text") or ""
                if len(text) > CARD_CHARS:
                    entry["text"] = text[:CARD_CHARS].rstrip() + " …"
                    entry["truncated"] = True
    budget = max_chars - len(', "omitted": 100000')  # room for the count
    total, omitted = size(record), 0

    def drop(entries: list, index: int = -1) -> None:
        nonlocal total, omitted
        total -= size(entries.pop(index)) + 2  # the entry and its ", "
        omitted += 1

    answer = record.get("answer") or {}
    sentences = answer.get("sentences") if isinstance(answer.get("sentences"), list) else []
    passages = record.get("passages") if isinstance(record.get("passages"), list) else []
    while total > budget:
        cited = {s.get("passage") for s in sentences}
        loose = [i for i, p in enumerate(passages) if p.get("rank") not in cited]
        items = [r["items"] for r in releases if r.get("items")]
        if loose:
            drop(passages, loose[-1])
        elif items:
            drop(max(items, key=len))
        elif releases:
            drop(releases)
        elif record.get("not_an_answer"):
            drop(record["not_an_answer"])
        elif sentences:
            sentences.pop()
            answer["text"] = " ".join(f"{s['text']} [{s['passage']}]" for s in sentences)
            total = size(record)  # the text changed too
            if not sentences:
                record["answer"] = None
        elif passages:
            drop(passages)
        else:
            break
    if omitted:
        record["omitted"] = omitted
    if size(record) > max_chars:  # long question or note: say so rather than break the budget
        keep = {k: record[k] for k in ("id", "shape", "mode") if k in record}
        return {**keep, "question": str(record.get("question") or record.get("query") or "")[:200],
                "note": f"The result does not fit max_chars={max_chars}; ask again with a larger max_chars.",
                "passages": [], "omitted": omitted + len(passages)}
    return record


def _fit_releases(record: dict, max_chars: int) -> dict:
    """The release list cut from each product's oldest end until it fits (``"shown"`` says how
    many), then whole products from the end (``"products_omitted"``)."""
    products = record["products"]
    room = max_chars - len(', "products_omitted": 100000')
    while products and size(record) + 20 * len(products) > room:  # room for each "shown"
        longest = max(products, key=lambda p: len(p["releases"]))
        if len(longest["releases"]) > 1:
            del longest["releases"][-max(1, len(longest["releases"]) // 10):]
        else:
            products.pop()
            record["products_omitted"] = record.get("products_omitted", 0) + 1
    for p in products:
        p["shown"] = len(p["releases"])
    return record
