"""The changes a which-release question asks about and the words by which an item states each:
"when did X drop Y" asks of a removal, and "Drop support for Y" or "Y is not supported anymore"
states one. ``qa.question`` reads questions with them, ``qa.answer`` items."""

from __future__ import annotations

import re

from corpus.regex import lazy_compile

# What a release stops providing, as notes and questions word it: "stop publishing 32-bit wheels",
# "stopped taking inst as a keyword" (not "taking so long", nor "stopped guessing the encoding": a behaviour
# changed), "Stop support for python 3.6"
STOPPED_PROVIDING = (r"stop(?:s|ped|ping)?\s+(?:(?:publish|shipp?|provid|build|distribut|bundl|support|includ|accept"
                     r"|allow|install|test)ing\b|taking\s+(?!so\b|too\b|long\b|ages\b|\d)|support\s+for\b)")
# A removal as a question words it: "when did X drop Y", "stopped supporting", "stopped working on",
# "the first release without Python 2 support"
_REMOVAL_ASKED = (r"\b(?:remov|drop|delet|no\s+longer|got\s+rid|get\s+rid|discontinu|end(?:ed)?\s+support"
                  r"|t(?:ook|ak(?:en|es?|ing))\s+out\b|(?:\w*n['\u2019]t|not)\s+exists?\s+any\s*more"  # "was it taken out?"
                  r"|stopp?(?:ed|s)?\s+(?:support|working|running)\b|" + STOPPED_PROVIDING
                  + r"|(?:first|release|version|one)\s+without\s+(?:\S+\s+){0,3}?support)")  # not "without the GIL"

_DEFAULT = r"(?<![-\w])default(?:s|ed)?(?![-\w])"  # not "default_factory", "--default-timeout"

_ASKED_KINDS = (
    ("deprecated", lazy_compile(r"\bdeprecat", re.IGNORECASE)),
    ("removed", lazy_compile(_REMOVAL_ASKED, re.IGNORECASE)),
    ("fixed", lazy_compile(r"\bfix(?!tur)", re.IGNORECASE)),
)  # not "added": release notes say "add" of later changes to a feature too, and blogs name no kind


# The change a which-release question asks about, by its words, first match wins ("which release
# renamed X": renamed; "first shipped": added); and the words by which an item states each.
CHANGES_ASKED = (
    ("restored", lazy_compile(r"\b(?:bring|brings|brought|bringing)\s+(?:\S+\s+){0,3}?back\b|\b(?:came|come|comes)\s+back\b(?!\s+as\b)"
                            r"|\b(?:restored?|reinstated?|re-?added|re-?introduced?)\b|\bput\s+back\b", re.IGNORECASE)),
    ("renamed", lazy_compile(r"\brenam", re.IGNORECASE)),
    ("stabilized", lazy_compile(r"\bstabili[sz]|\bbec[oa]me?\s+stable|\bmade\s+stable|\bstable\s+in\b", re.IGNORECASE)),
    ("deprecated", lazy_compile(r"\bdeprecat", re.IGNORECASE)),
    ("removed", lazy_compile(_REMOVAL_ASKED, re.IGNORECASE)),
    ("fixed", lazy_compile(r"\bfix(?!tur)", re.IGNORECASE)),
    # "which release switched the default?", "made -j default to the number of cores": the item says "default"
    ("defaulted", lazy_compile(_DEFAULT, re.IGNORECASE)),
    ("added", lazy_compile(r"\b(?:switch(?:ed|es)?|turn(?:ed|s)?)\s+on\b", re.IGNORECASE)),
    ("switched", lazy_compile(r"\b(?:switch|migrat|moved?\b)", re.IGNORECASE)),
    ("added", lazy_compile(r"\b(?:add|introduc|first\s+(?:shipped|supported|appeared)|gain|support|accept|allow|let"
                         r"|get\b|got\b)", re.IGNORECASE)),
)
# The changes an item must be seen to state when asked about (no item of the pool saying it: not
# sure, nothing stated); "added" is worded too many ways ("Support for X", a bare API link) to require.
CHANGES_REQUIRED = frozenset({"restored", "renamed", "stabilized", "deprecated", "removed", "fixed", "switched",
                              "defaulted"})
CHANGES_STATED = {
    "restored": lazy_compile(r"\brestor|\breinstat|\bre-?(?:add|introduc|enabl)|\bbrought\s+back|\bback\s+again\b"
                             r"|\brevert|\bun-?deprecat|\bagain\b", re.IGNORECASE),
    "renamed": lazy_compile(r"\brenam|\bchanged?\s+(?:the\s+)?`?[\w.:]+`?\s+(?:to|into)\b|\breplac|\bin\s+favou?r\s+of",
                          re.IGNORECASE),
    "stabilized": lazy_compile(r"\bstabili[sz]|\bstable\b", re.IGNORECASE),
    "deprecated": lazy_compile(r"\bdeprecat", re.IGNORECASE),
    # "is not supported anymore", "doesn't accept ... anymore", "is now unsupported" (not "where it was unsupported
    # before"), "stop publishing 32-bit wheels" (not "Stop detecting target version as 3.9+")
    "removed": lazy_compile(r"\b(?:remov|drop|delet|no\s+longer|discontinu|not\s[^.;!?]{0,60}?\bany\s*more\b"
                            r"|(?:is|are|now|became|become)\s+unsupported|" + STOPPED_PROVIDING + r")"
                            r"|n't\s[^.;!?]{0,60}?\bany\s*more\b"
                            # what falls below a minimum Python raised: "Minimum Python version is now 3.10", "bump the minimum python"
                            r"|\bminimum\s+(?:supported\s+|required\s+)?python\s+(?:versions?\s+)?(?:is\s+now"
                            r"|(?:has\s+been\s+|was\s+|is\s+)?(?:raised|bumped|increased))"
                            r"|\b(?:rais|bump|increas)\w*\s+(?:the\s+)?minimum\s+(?:supported\s+|required\s+)?python\b",
                            re.IGNORECASE),
    # a fix is told by what went wrong too: "Removed an assert ... that caused compatibility issues with Sentry",
    # or by a sentence opening on doing it right: "Properly raise an error if a DTLS cookie callback ..."
    # ... or by making a thing compatible: "Add `legacy-cgi` ... for Python 3.13 compatibility"
    "fixed": lazy_compile(r"\bfix(?!tur)|\bresolv|\bcompatib|^\W*(?:properly|correctly)\s+\w"
                          r"|\bcaus(?:ed|ing)\s+(?:\w+\s+){0,3}?(?:issues?|errors?|crash(?:es)?"
                          r"|problems?|failures?|bugs?)\b|\bregression|\bno\s+longer\s+(?:crash|fail|raise|error|hang)"
                          # "Address CVE-2024-1681 which is a log injection vulnerability", "Patched a security hole"
                          r"|\b(?:address|patch|mitigat)\w*\s+(?:an?\s+|the\s+)?(?:\[?cve|ghsa|vulnerab|security|exploit)",
                          re.IGNORECASE),
    "switched": lazy_compile(r"\b(?:switch|migrat|mov(?:e|ed|es)\b|replac|instead)", re.IGNORECASE),
    "defaulted": lazy_compile(_DEFAULT, re.IGNORECASE),
    "added": lazy_compile(r"\b(?:add|new\b|introduc|support|now\b|allow|accept|enabl)", re.IGNORECASE),
}
# how things stopped being so, for "does X still ...?": removed, replaced, deprecated, made optional
CHANGES_STATED["ended"] = lazy_compile("|".join(CHANGES_STATED[c].pattern for c in ("removed", "renamed", "deprecated"))
                                       + r"|\b(?:now\s+|made\s+|is\s+)optional\b", re.IGNORECASE)


# a name written as code ("the PEP 702 @deprecated decorator", "`warnings.deprecated`", "deprecated()")
# names a thing, not the change asked about
_CODE_NAME = lazy_compile(r"`[^`]+`|@[\w.]+|\b[A-Za-z_]\w*(?:\.\w+)+\b|\b\w+\(\)")


def uncoded(text: str) -> str:
    """``text`` with the names written as code blanked: the words left may name a change."""
    return _CODE_NAME.sub(" ", text)


# what the person did, not a change of the notes: "We moved to SQLAlchemy 2.0 and SQLAlchemyJobStore broke"
# (a move of the person's own: not "when we dropped Python 2 support", the project's voice)
_PERSON_DID = lazy_compile(r"\b(?:we|i)(?:['\u2019](?:ve|d))?\s+(?:have\s+|just\s+|recently\s+|finally\s+)*"
                           r"(?:moved|switched|migrated|upgraded|updated)\s+(?:\w+\s+)?to\b", re.IGNORECASE)


def change_asked(question: str, asking: str = "") -> str | None:
    """The change a which-release question asks about (``CHANGES_ASKED``), if it names one: the one the
    sentence ``asking`` which release names, when another tells its context ("I removed -j 4 from our config.
    Which isort release made -j default to the number of cores?" asks of a default), else the question's
    (a default only when the asking sentence names it: "... fails with a required positional argument
    following defaults. which release changed how kw_only works?" asks of none). A move the person tells of
    before asking ("We moved to SQLAlchemy 2.0 and ... broke") is no change asked (``_PERSON_DID``)."""
    question, asking = _PERSON_DID.sub(" ", uncoded(question)), uncoded(asking)
    said = next((name for name, pattern in CHANGES_ASKED if asking and pattern.search(asking)), None)
    return said or next((name for name, pattern in CHANGES_ASKED
                         if not (asking and name == "defaulted") and pattern.search(question)), None)


def asked_kind(question: str) -> str | None:
    """The kind of change a which-release question asks about ("when did X drop Y" -> removed), if
    removed, deprecated or fixed."""
    for kind, pattern in _ASKED_KINDS:
        if pattern.search(uncoded(question)):
            return kind
    return None


def asks_last(question: str, context: str = "") -> bool:
    """Whether a question asks for the last release that still had something ("what was the last Babel
    version that still supported Python 3.7?"): the one before the release that removed it; in some wordings
    only when it or its ``context`` (the sentences beside it) names a version (``_LAST_ON``)."""
    return bool(_LAST_WITH.search(question)
                or (_LAST_ON.search(question) and _NAMES_VERSION.search(f"{question} {context}")))


# "of sh", "of the sh library", "of the `transaction` package": the product
_OF = r"(?:\s+of\s+(?:the\s+)?\S+(?:\s+(?:package|library|module|project))?)?"
_SUPPORTED = r"(?:support|work|run|ran|ship|includ|allow|accept|install)\w*"
_LAST_WITH = lazy_compile(
    # "the last Babel version that still supported Python 3.7", "the latest release which still works on py2",
    # "the last sphinx release line that still ran on python 3.7"
    r"\b(?:last|latest|final)\s+(?:[\w.-]+\s+){0,2}?(?:version|release)s?\b(?:\s+(?:line|series|branch)\b)?" + _OF +
    r"\s+(?:that|which)\s+still\s+\w+"
    # "the last pyzmq that still installs there", "the newest WTForms we can still run"
    r"|\b(?:last|latest|newest|final)\s+[\w.-]+\s+(?:that|which|(?:i|we|you)\s+can)\s+still\s+"
    r"(?:support|work|runs?\b|install)"
    # "the last version to support python 3.6", "the final release supporting py2", "last release still supporting"
    r"|\b(?:last|final)\s+(?:[\w.-]+\s+){0,2}?(?:version|release)s?\b(?:\s+(?:line|series|branch)\b)?" + _OF +
    r"\s+(?:(?:(?:that|which)\s+|to\s+)(?:still\s+)?"
    + _SUPPORTED + r"|(?:still\s+)?(?:support|work|runn|shipp|includ|allow|accept|install)ing)\s+(?!(?:fine|well|ok|okay)\b)\w"
    # "the last release with python 2 support", "which release was the last to support python 2"
    r"|\b(?:last|final)\s+(?:[\w.-]+\s+){0,2}?(?:version|release)s?\s+with\s+(?:\S+\s+){1,3}?support\b"
    r"|\bthe\s+last\s+(?:one\s+)?to\s+" + _SUPPORTED, re.IGNORECASE)
# ... and, when the question names the version it is about ("We're pinned to Django 4.1 for now"; not "what's the
# last black release we can use?"): "which django-cors-headers is the last one that supports it", "the last
# dogpile.cache release we can stay on", "the last natsort release we can pin there", "which service-identity
# release is the last we can use there"
_LAST_ON = lazy_compile(
    r"\b(?:last|latest|newest|final)\s+one\s+(?:that|which)\s+(?:still\s+)?" + _SUPPORTED +
    r"|\b(?:last|final)\s+(?:[\w.-]+\s+){0,2}?(?:that\s+)?(?:i|we|you)\s+can\s+(?:still\s+)?"
    r"(?:use|stay\s+on|pin|keep|run|install|deploy)\b", re.IGNORECASE)
_NAMES_VERSION = lazy_compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)*(?![\w.]*\w)|\b[A-Za-z][\w.+-]*\s+\d+(?!\w|\.\d)")
