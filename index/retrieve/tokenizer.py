"""One code-aware tokenizer for documents and queries: whole identifiers plus their parts."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import Stemmer

from corpus.regex import lazy_compile
from corpus.textform import index_form

TOKENIZER_VERSION = "3"

# Lucene's EnglishAnalyzer stop set (what Anserini's BM25 baselines use).
LUCENE_STOPWORDS = frozenset(
    "a an and are as at be but by for if in into is it no not on or such that the their then "
    "there these they this to was will with".split()
)

# Link and image targets and bare URLs go (corpus.textform.index_form); HTML tags are markup too.
_TAG = lazy_compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_POSSESSIVE = lazy_compile(r"(?<=\w)['\u2019]s\b")
# A token is a run of letters/digits, joined by ::, ., _ or - (torch::stable::Tensor, F.linear, all_gather_single).
_TOKEN = lazy_compile(r"[^\W_]+(?:(?:::|[._-])[^\W_]+)*")
# Split on connectors, except a dot between digits (2.14, 0.5 stay whole).
_CONNECTOR = lazy_compile(r"::|[_-]|\.(?!\d)|(?<!\d)\.")
_VERSION = lazy_compile(r"v?(\d+)\.(\d+)((?:\.\d+)*)", re.IGNORECASE)
_NEEDS_PIECES = lazy_compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]|[^\W\d_]\d|\d[^\W\d_]")
# CamelCase pieces: an acronym before a capitalised word (MPS|Graph), words, acronyms, digit runs.
_PIECE = lazy_compile(r"[A-Z]+(?=[A-Z][^\W\dA-Z_])|[A-Z]?[^\W\dA-Z_]+|[A-Z]+|\d+(?:\.\d+)*")

_DEFAULTS = {"lowercase": True, "stemmer": "english", "stopwords": "lucene", "split_alnum": True, "parts": True}


def _pieces(segment: str, split_alnum: bool) -> list[str]:
    """CamelCase (and letter/digit) pieces of a connector-free segment."""
    if not _NEEDS_PIECES.search(segment):
        return [segment]
    found = _PIECE.findall(segment)
    if split_alnum or len(found) < 2:
        return found or [segment]
    merged: list[str] = []
    for piece in found:  # keep digits attached to the letters before them (nccl2, fp16)
        if piece.isdigit() and merged:
            merged[-1] += piece
        else:
            merged.append(piece)
    return merged


def make_tokenizer(
    *,
    stemmer: str | None = "english",
    stopwords: str | None = "lucene",
    split_alnum: bool = True,
    parts: bool = True,
) -> Callable[[str], list[str]]:
    """Build a tokenizer with the given options (the benchmark measures them; `tokenize` is the choice).

    Args:
        stemmer: a PyStemmer algorithm ("english" = Snowball, "porter") or None for no stemming.
        stopwords: "lucene" for Lucene's 33 English stop words, or None to keep every word.
        split_alnum: also split letter/digit boundaries (cu130 -> cu, 130).
        parts: emit the parts of compound tokens (torch.compile -> torch, compile) besides the whole.

    Returns:
        A function from text to a list of tokens.
    """
    stem = Stemmer.Stemmer(stemmer).stemWord if stemmer else None
    stop = LUCENE_STOPWORDS if stopwords == "lucene" else frozenset()
    if stopwords not in (None, "lucene"):
        raise ValueError(f"unknown stopwords {stopwords!r}; valid: 'lucene', None")

    def word(token: str) -> str | None:
        """Lowercase, drop a stop word, stem a purely alphabetic word."""
        token = token.lower()
        if token in stop:
            return None
        return stem(token) if stem and token.isalpha() else token

    @lru_cache(maxsize=1 << 18)
    def expand(raw: str) -> tuple[str, ...]:
        """Tokens for one raw match: the whole, then each segment and its pieces."""
        version = _VERSION.fullmatch(raw)
        if version:
            whole = raw.lower()
            out = [whole]
            if whole.startswith("v"):
                out.append(whole[1:])
            if version.group(3):
                out.append(f"{version.group(1)}.{version.group(2)}")
            return tuple(out)
        segments = _CONNECTOR.split(raw)
        if len(segments) == 1:
            pieces = _pieces(raw, split_alnum)
            if len(pieces) == 1 or not parts:
                single = word(raw)
                return (single,) if single else ()
            # The whole is normalised as a plain word would be, so "flexattention" typed in
            # lower case matches "FlexAttention" in a document.
            return (word(raw) or raw.lower(), *filter(None, map(word, pieces)))
        out = [raw.lower()]
        if parts:
            for segment in segments:
                pieces = _pieces(segment, split_alnum)
                if len(pieces) > 1:
                    out.append(word(segment) or segment.lower())
                out.extend(filter(None, map(word, pieces)))
        return tuple(out)

    def tokenize_with(text: str) -> list[str]:
        """Tokens of `text`, in order."""
        text = _TAG.sub(" ", index_form(text))
        text = _POSSESSIVE.sub("", text)
        out: list[str] = []
        for raw in _TOKEN.findall(text):
            out.extend(expand(raw))
        return out

    return tokenize_with


# The measured choice, from the same SciFact grid as BM25's (docs/decisions/0106-bm25-defaults.md).
_SETTINGS = dict(_DEFAULTS)
_tokenize = make_tokenizer(
    stemmer=_SETTINGS["stemmer"],
    stopwords=_SETTINGS["stopwords"],
    split_alnum=_SETTINGS["split_alnum"],
    parts=_SETTINGS["parts"],
)


def tokenize(text: str) -> list[str]:
    """Tokenize document or query text (the same function for both)."""
    return _tokenize(text)


def tokenizer_settings() -> dict:
    """JSON-able settings of `tokenize`, recorded in the index manifest."""
    return {**_SETTINGS, "markdown": "link text kept, URLs and HTML tags dropped"}
