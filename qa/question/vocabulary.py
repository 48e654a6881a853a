"""The words questions are read by: what makes a sentence a question, the words every release
question shares, the words that frame a follow-up, the platforms beside a product, and the
wordings of a how-to or of the kind of change asked about. ``qa.question`` alone reads them."""

from __future__ import annotations

import functools
import re

# Words that make a sentence a question (interrogatives and auxiliaries), as typed.
QUESTION_WORDS = frozenset(
    "what which how when where who whom whose why is are was were am be been do does did can could "
    "should would will shall may might must has have had".split()
)
# The tokens (stemmed as ``index.tokenize`` gives them) of words that say a question is being
# asked rather than what it is about: left out of a question's term coverage and highlighting.
ASKING_TERMS = frozenset(
    "what which how when where who whom whose why doe do did done can could should would will "
    "i me my we our you your is are was were been be has have had get got ani there whi".split()
)

# Words every release question shares: left out of its topic.
SHARED_WORDS = frozenset(
    "what whats what's which how when where who why is are was were be been do does did can could should would will "
    "shall may might must has have had i me my we our you your it its it's the a an of in into for to from with on at "
    "by about between and or since after before until till through thru up than vs versus there any anything "
    "everything all that this these those s get got "
    "change changes changed changing new release releases released notes note changelog changelogs version versions "
    "summary summarise summarize highlights highlight list show tell give overview happened went go goes "
    "upgrade upgrades upgrading upgraded update updating move moving migrate migrating migration "
    "break breaks breaking broke broken breakage breakages incompatible incompatibility incompatibilities need needs "
    "safe watch out gotcha gotchas know major minor patch latest newest "
    "history evolution timeline over time across years first earliest "
    "removed removal removals remove dropped drop deprecated deprecation deprecations fixed fixes fix bug bugs "
    "bugfix bugfixes added add features feature security performance please if whether when then so also just "
    "only really some more other others im i'm we're us going planning plan want wanna currently still now ok okay "
    "exactly anyhow anyway kind sort stuff things thing pls plz thx thanks tldr tl;dr quick brief briefly main big key "
    "important notable biggest top code codebase app apps application project projects suite bring brought "
    "bump bumping bumped jump jumping switch switching pinned pin stuck heard hear say said something affect "
    "affects affected".split()
)
# Word families every release question shares, by their start ("incompatibly", "deprecate").
SHARED_STEMS = re.compile(r"^(?:incompat|break|deprecat|remov|upgrad|migrat|chang|summar)", re.IGNORECASE)
# Kinds of change a question asks for by name ("what was removed in 2.0", "which bugs were fixed").
KIND_WORDS = {
    "remove": "removed", "drop": "removed", "deprecate": "deprecated", "fix": "fixed", "add": "added",
    "removed": "removed", "removal": "removed", "removals": "removed", "dropped": "removed",
    "deprecated": "deprecated", "deprecation": "deprecated", "deprecations": "deprecated",
    "breaking": "removed", "breakages": "removed",
    "fixed": "fixed", "fixes": "fixed", "bug": "fixed", "bugs": "fixed", "bugfix": "fixed", "bugfixes": "fixed",
    "added": "added", "features": "added", "feature": "added",
    "security": "security", "performance": "performance",
}

# Follow-ups: the words that point back, the words that carry no subject, and those that frame one.
ANAPHORA = frozenset("it its that this they them their these those".split())
FUNCTION_WORDS = QUESTION_WORDS | frozenset(
    "i me my we us our you your a an the and or but so then also too now again else ok okay well please "
    "in on at for of to from with about by as into than vs versus between there here any some much many "
    "more most not no yes s get got tell say know thanks release releases version versions same thing".split()
)
# Words that frame a question rather than name its subject ("how do I turn on X", "what changed for X").
FRAME_WORDS = FUNCTION_WORDS | frozenset(
    "changed change changes new added add adds introduced introduce improved improve enable enabled "
    "turn use used using work works make support supports supported fixed fix removed deprecated "
    "updated happened happen".split()
)
JOINERS = frozenset("in on for of with to from and the a an than".split())  # may sit inside a subject

# Words a question is made of, never the name of a product it asks about, although some are
# also package names ("which", "next" and "latest" are npm packages): "which release", "the next
# version", "does the latest release ..." name no product.
NOT_NAMES = QUESTION_WORDS | FUNCTION_WORDS | FRAME_WORDS | SHARED_WORDS | frozenset(
    "next last latest stable final current previous initial second third early earlier recent old older newer "
    "same default master beta alpha nightly preview upcoming future lts point dot maintenance bugfix hotfix "
    "official upstream downstream public private internal experimental deprecated legacy modern native "
    "release version build package library module crate project tool app python "
    # formats, protocols and encodings are topics, although packages carry their names
    "http https json yaml toml xml html css csv sql ssl tls tcp udp dns url uri utf-8 utf8 ascii unicode "
    "async await wheel wheels api cli gui tui".split()
)

# Things whose versions questions name beside a product's: never a bound of a range.
PLATFORMS = frozenset(
    "python py cpython pypy cuda rocm cudnn nccl macos osx ios android windows win linux ubuntu debian fedora "
    "node nodejs npm java jdk jvm go golang ruby php perl gcc clang llvm msvc xcode glibc openssl sqlite "
    "postgres postgresql mysql django numpy werkzeug jinja click pydantic-core".split()
)

# How a question asks about one release as a whole, "{R}" standing for the release as it names it:
# "what's new in 2.14", "what did flask 2.0 bring", "httpx 0.20 changes?", "summarize the 2.2.0
# release notes". (Not "what changed for MPS in 2.14": that searches inside the release.)
OVERVIEW_WORDINGS = (
    r"\bwhat(?:'s|\u2019s|\s+is|\s+are)?\s+(?:new|changed|the\s+(?:big\s+|main\s+|key\s+)?changes)\s+(?:in|with|for)\s+{R}",
    r"\bwhat\s+(?:did|does)\s+{R}\s+(?:bring|add|change|do|introduce|ship|include|remove|deprecate|fix)",
    r"{R}\s*(?:release\s+notes|changes|changelog|highlights|summary|overview)\b",
    r"\b(?:summar\w*|overview\s+of|highlights\s+of|changes\s+in|release\s+notes\s+(?:of|for))\s+(?:the\s+)?{R}",
    r"\b(?:big|main|key|major|notable)\s+changes\s+in\s+{R}",
)


@functools.lru_cache(maxsize=512)
def overview(mention: str) -> tuple[re.Pattern, ...]:
    """The overview wordings with ``mention`` (a pattern) for the release, one pattern each."""
    return tuple(re.compile(w.replace("{R}", mention), re.IGNORECASE) for w in OVERVIEW_WORDINGS)


# How a how-to question opens ("how do I enable ...?", "is there a way to ...").
_HOWTO = re.compile(r"^\s*(?:how\s+(?:do|can|could|should|would|to|does\s+one)\b|(?:what\s+is|what's)\s+the\s+way\s+to\b"
                    r"|is\s+there\s+a\s+way\s+to\b)", re.IGNORECASE)
_ASKED_KINDS = (
    ("deprecated", re.compile(r"\bdeprecat", re.IGNORECASE)),
    ("removed", re.compile(r"\b(?:remov|drop|delet|no\s+longer)", re.IGNORECASE)),
    ("fixed", re.compile(r"\bfix", re.IGNORECASE)),
)  # not "added": release notes say "add" of later changes to a feature too, and blogs name no kind


def asked_kind(question: str) -> str | None:
    """The kind of change a which-release question asks about ("when did X drop Y" -> removed), if
    removed, deprecated or fixed."""
    for kind, pattern in _ASKED_KINDS:
        if pattern.search(question):
            return kind
    return None


def is_howto(question: str) -> bool:
    """Whether a question asks how to do something ("how do I enable ...?")."""
    return bool(_HOWTO.match(question))
