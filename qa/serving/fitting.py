"""Records fitted to a budget: ``max_chars`` of JSON, texts cut to cards, what does not fit
left out from the end and counted (``qa.serving.api`` fits every record it returns)."""

from __future__ import annotations

import json

CARD_CHARS = 400  # a passage's text on a card


def size(record) -> int:
    """The length of ``record`` as JSON (what ``max_chars`` counts)."""
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


def fit_releases(record: dict, max_chars: int) -> dict:
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


def fit_deps(record: dict, max_chars: int) -> dict:
    """A dependencies report within ``max_chars``: item texts cut to cards, then items (and
    dependencies left with none) from the end, each counted in ``"omitted"``."""
    for entry in record["dependencies"]:
        for item in entry["items"]:
            if len(item["text"]) > CARD_CHARS:
                item["text"], item["truncated"] = item["text"][:CARD_CHARS].rstrip() + " …", True
    omitted, listed = 0, record["dependencies"]
    while size(record) > max_chars - len(', "omitted": 100000') and listed:
        with_items = [e for e in listed if e["items"]]
        (with_items[-1]["items"] if with_items else listed).pop()
        omitted += 1
    if omitted:
        record["omitted"] = omitted
    return record
