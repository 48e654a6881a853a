"""Answers as machine-readable records: the batch JSON schema, CSV rows, TREC run lines, Markdown."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Iterable, Sequence

from ..model import Answer, AnswerSentence, Digest
from . import cite, digest_text, notes

from . import FORMATS  # noqa: F401 - the names, defined where --help reads them

CSV_FIELDS = (
    "id", "question", "rank", "score", "version", "title", "section", "source",
    "start_line", "end_line", "url", "answer", "text",
)


def answer_record(answer: Answer, qid: str) -> dict:
    """One answer in the batch schema (``relnotes ask --json`` prints the same object)."""
    return {
        "id": qid,
        "question": answer.question,
        "asked_as": answer.asked_as,
        "releases": list(answer.releases),
        "products": list(answer.products),
        "kinds": list(answer.kinds),
        "shape": answer.shape,
        "range": answer.range.to_json() if answer.range else None,
        "mode": answer.mode,
        "answer": (
            {"text": answer.text, "sentences": [_sentence(s) for s in answer.sentences]}
            if answer.sentences
            else None
        ),
        "note": notes.joined(answer.notes),
        "notes": [n.to_json() for n in answer.notes],
        "earliest_release": answer.earliest_release,
        "passages": [
            {"rank": p.rank, "score": p.score, "chunk_id": p.chunk_id, "text": p.text, "citation": p.citation.to_json()}
            for p in answer.passages
        ],
        "digest": digest_record(answer.digest) if answer.digest else None,
        "not_an_answer": [
            {"rank": p.rank, "score": p.score, "chunk_id": p.chunk_id, "text": p.text, "citation": p.citation.to_json()}
            for p in answer.nearby
        ],
        "timings_ms": dict(answer.timings_ms),
    }


def _sentence(s: AnswerSentence) -> dict:
    """A quoted sentence in the batch schema: its text, its passage's rank and, where known, its
    own item's citation (the lines of the item it quotes, not of its passage)."""
    return {"text": s.text, "passage": s.passage, "citation": s.citation.to_json() if s.citation else None}


def digest_record(digest: Digest) -> dict:
    """A digest in the batch schema: its shape, topic, range and kinds, its notes, each release's items."""
    return {"shape": digest.shape, "topic": digest.topic, "range": digest.range.to_json() if digest.range else None,
            "kinds": list(digest.kinds), "note": notes.joined(digest.notes), "notes": [n.to_json() for n in digest.notes],
            "releases": [r.to_json() for r in digest.releases]}


def to_jsonl(record: dict) -> str:
    """One JSON line."""
    return json.dumps(record, ensure_ascii=False)


def csv_rows(records: Iterable[dict]) -> str:
    """One CSV row per passage (header first); a question with no passage gets one empty row."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for r in records:
        answer = r["answer"]["text"] if r["answer"] else (_digest_line(r["digest"]) if r.get("digest") else "")
        base = {"id": r["id"], "question": r["question"], "answer": answer}
        if not r["passages"]:
            writer.writerow(base)
        for p in r["passages"]:
            c = p["citation"]
            writer.writerow({
                **base, "rank": p["rank"], "score": p["score"], "version": c["version"], "title": c["title"],
                "section": cite.PLAIN.join(c["section"]), "source": c["source"], "start_line": c["lines"][0],
                "end_line": c["lines"][1], "url": c["url"] or "", "text": p["text"],
            })
    return out.getvalue()


def _digest_line(digest: dict) -> str:
    """A digest on one CSV cell: each release with its items' first lines ("textual 8.2.7: Added ...; ...")."""
    parts = []
    for r in digest["releases"]:
        name = f"{r['product']} {r['version']}" if r["product"] else r["version"]
        parts.append(f"{name}: " + "; ".join(" ".join(i["text"].split())[:120] for i in r["items"]))
    return " | ".join(parts)


def trec_lines(record: dict, tag: str) -> list[str]:
    """TREC run lines ``qid Q0 docid rank score tag`` (whitespace-free ids, as trec_eval wants)."""
    qid = "_".join(str(record["id"]).split()) or "q"
    return [f"{qid} Q0 {p['chunk_id']} {p['rank']} {p['score']:.6f} {tag}" for p in record["passages"]]


def markdown_report(answers: Sequence[tuple[str, Answer]]) -> str:
    """A readable report of (id, answer) pairs: each question, its answer and its cited passages
    (text quoted, not rendered)."""
    lines = ["# relnotes answers", ""]
    for qid, a in answers:
        lines += [f"## {_inline(str(qid))}: {_inline(a.question)}", ""]
        if a.asked_as and a.asked_as != a.question:
            lines += [f"Asked as: {_inline(a.asked_as)}", ""]
        if a.releases:
            lines += [f"Releases: {_inline(', '.join(a.releases))}", ""]
        if a.products:
            lines += [f"Products: {_inline(', '.join(a.products))}", ""]
        if a.kinds:
            lines += [f"Kinds: {_inline(', '.join(a.kinds))}", ""]
        if a.sentences:
            lines += [f"**Answer:** {_inline(a.text)}", ""]
            cited = list(dict.fromkeys(f"[{s.passage}] {_inline(cite.location(s.citation))}" for s in a.sentences if s.citation))
            lines += [f"Quoted from: {'; '.join(cited)}", ""] if cited else []
        if a.notes:
            lines += [f"*{_inline(notes.joined(a.notes))}*", ""]
        if a.digest is not None and a.digest.releases:
            lines += digest_markdown(a.digest)
        if a.nearby:
            lines += ["Nearest passages (not an answer): " + "; ".join(
                f"{_inline(cite.release_kind(p.citation))} · {_inline(cite.location(p.citation))}" for p in a.nearby), ""]
        for p in a.passages:
            c = p.citation
            head = (f"**{p.rank}\\.** {_inline(cite.release_kind(c))} · {_inline(cite.heading(c, cite.PLAIN))} · "
                    f"{_inline(cite.location(c))}")
            lines += [head + (f" · {_inline(c.url)}" if c.url else ""), ""]
            lines += _fenced(p.text)
            lines.append("")
    return "\n".join(lines) + "\n"


def digest_markdown(digest: Digest) -> list[str]:
    """A digest as Markdown lines: a heading a release, a bold kind, one bullet an item with its citation."""
    lines = [f"### {_inline(digest_text.title(digest))}", ""]
    for r in digest.releases:
        lines += [f"#### {_inline(digest_text.release_title(r))}", ""]
        for group in digest_text.groups(r):
            lines += [f"**{_inline(group.title)}**", ""]
            for item in group.items:
                shown, more = digest_text.item_lines(item)
                text = _inline(" ".join(shown)) + (" …" if more else "")
                lines.append(f"- {text} ({_inline(cite.location(item.citation))})")
            lines.append("")
        rest = digest_text.omitted(r)
        if rest:
            lines += [f"*{_inline(rest)}*", ""]
    return lines


def _fenced(text: str) -> list[str]:
    """A fenced code block showing ``text`` verbatim: its fence is longer than any backtick run inside.

    (An indented block would not do: after a list-like line it becomes the list item's
    paragraph, and HTML or links in the text would render.)
    """
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + "text", *text.splitlines(), fence]


_MARKUP_CHARS = "\\`*_[]<>|~&"  # what can start emphasis, code, a link, HTML, a table cell or an entity inline


def _inline(text: str) -> str:
    """Escape what Markdown and HTML need (and only that: "2.14" and "attention-heavy" stay as
    they are), so document or question text cannot act as markup in the report; the text never
    starts a line of the report, so line-start markers (#, -, 1.) need nothing."""
    return "".join("\\" + ch if ch in _MARKUP_CHARS else ch for ch in " ".join(text.split()))
