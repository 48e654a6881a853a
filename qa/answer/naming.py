"""What a which-release question names, as the notes hold it: a proper name no passage holds (nothing can
state its release), the passages holding a name it writes as code (looked for beyond what retrieval found),
and the items naming such a name when that name is all it asks about."""

from __future__ import annotations

import re
from typing import Callable, Sequence

from corpus.regex import lazy_compile
from corpus.versions import version_matches
from index import Hit

from .catalogue import Catalogue
from .digest import Entry
from .holding import holds_named
from .units import CODE_NAME
from ..question import Question
from ..question.vocabulary import content_words

RICH = 100  # chunks: notes this long write the common words a question is made of
WIDEN = 40  # chunks: a name the question writes as code held by this few is looked for in all of them
RARE = 2  # chunks: a name held by this few tells what a question asks apart from any proper name of its context


def unheld_name(question: Question, catalogue: Catalogue, written: Callable[[str], bool]) -> str | None:
    """A proper name the question asks about that no passage of the notes holds ("SAML" of "which release
    added SAML single sign-on?", "iPhone", "Bluetooth"; not an error a user saw raised, "DeprecationWarning"),
    or in notes of RICH chunks or more (in fewer, words as common as "reads" may be missing) the first of half
    the plain words of its topic, two at least ("offline maps for hiking trails"): no item of the notes can
    state its release. ``written(word)``: whether some passage of the notes holds the word, stem for stem
    ("ciphersuite" is held by "ciphersuites"); a name with a digit or an underscore ("TLSv1.3", "SECRET_KEY") is
    code, matched exactly elsewhere."""
    plain = _PLAIN.findall(question.subject)
    alone = set(_PLAIN.findall(question.text))  # as typed: not "Europe" of "tz='Europe/Paris'"
    proper = next((w for w in plain if _PROPER.fullmatch(w) and not _RAISED.search(w) and w.lower() not in _LITERALS
                   and w in alone and not _telling(w, question.text) and not written(w)), None)
    # beside a name few passages hold (RARE), which a stating item must hold, a proper name tells context
    # ("Dependabot flags CVE-2024-1681 ...", "Chrome's ... preflight wants Access-Control-Allow-Private-Network");
    # not beside "torch.export" ("which release added Snowflake export for torch.export?") nor a number
    if proper and any(0 < len(catalogue.holding(t)) <= RARE for t in question.exact if not _NUMERIC.fullmatch(t)):
        proper = None
    if proper or len(catalogue.chunks) < RICH:
        return proper
    words = sorted(content_words(" ".join(plain)))
    absent = [w for w in words if not written(w)]
    return absent[0] if len(absent) >= 2 and 2 * len(absent) >= len(words) else None


def with_named(question: Question, hits: list[Hit], catalogue: Catalogue) -> list[Hit]:
    """The hits and every passage retrieval missed holding a name the question writes as code that WIDEN
    passages or fewer hold (of the products, releases and range asked about), scored as the last hit: the
    earliest item naming it may be far down ("the minimum pydantic version for model_validate": v2.0's "Add
    ``from_attributes`` runtime flag to ... ``BaseModel.model_validate``", not 2.6.0's docstring fix)."""
    names = [t for t in question.exact if _CODE_LIKE.search(t) and not _NUMERIC.fullmatch(t)]
    rows = sorted({r for t in names if len(held := catalogue.holding(t)) <= WIDEN for r in held})
    have = {h.chunk.id for h in hits}
    floor = min((h.score for h in hits), default=0.0)
    span, products = question.range, set(question.products)
    extra = [Hit(c, floor) for c in (catalogue.chunks[r] for r in rows) if c.id not in have
             and (not products or c.product in products) and c.version
             and (not question.releases or any(version_matches(c.version, w) for w in question.releases))
             and (span is None or span.contains(c.version))]
    return hits + extra


def naming_only(entries: Sequence[Entry], question: Question) -> list[int]:
    """For a question asking when a name written as code came, of nothing else ("the minimum pydantic version
    I need for model_validate"): every released item holding it (each of them), however it scores (the earliest proves it was
    there); none for a question asking more of it (a change, other words)."""
    names = [t for t in question.exact if _CODE_LIKE.search(t)]
    if question.change not in (None, "added") or not names or not content_words(question.subject) <= content_words(
            " ".join(re.sub(r"[^\w-]+", " ", t) for t in names)):
        return []
    return [i for i, e in enumerate(entries) if e.chunk.version and all(holds_named(e, (t,)) for t in names)]


def _telling(name: str, text: str) -> bool:
    """Whether ``text`` names ``name`` as what told the person of it, context: "per Sentry", "according to Snyk",
    "Dependabot flags ...", "which PyCharm flags"."""
    return bool(re.search(r"\b(?:per|according\s+to|via)\s+" + re.escape(name) + r"\b|\b" + re.escape(name) + r"\s+(?:"
                          r"flag|report|say|warn|complain|show|tell|alert|suggest|mark|highlight|detect)s?\b", text))


# The words of a topic that may name what the notes never mention: letters only, standing alone (not
# "TLSv1" of "TLSv1.3", nor parts of "env.timedelta"); a proper name among them written with a capital past its
# first letter or opening with one ("SAML", "iPhone", "Bluetooth"); an error a user saw raised ("DeprecationWarning")
_PLAIN = lazy_compile(r"(?<![\w./-])[A-Za-z]+(?![\w./-])")  # nor a value's: "Europe/Paris"
_PROPER = lazy_compile(r"[A-Z][a-z]*[A-Z][A-Za-z]*|[a-z]+[A-Z][A-Za-z]*|[A-Z][a-z]{2,}")
_RAISED = lazy_compile(r"(?:Error|Warning|Exception|Exit|Interrupt)$")
_CODE_LIKE = lazy_compile(CODE_NAME + r"|^@")  # "model_validate", "np.sort", "proxy=", "--debug", "@define"
_NUMERIC = lazy_compile(r"[\d.]+")  # "3.12", "500": numbers many notes hold for many reasons
_LITERALS = frozenset({"true", "false", "none", "null", "nan"})  # "returns None instead of True/False": values, no names
