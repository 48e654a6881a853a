"""The words questions are read by: what makes a sentence a question, the words every release
question shares, the words that frame a follow-up, the platforms beside a product, and the
wordings of a how-to or of the kind of change asked about. ``qa.question`` alone reads them."""

from __future__ import annotations

import functools
import re

from corpus.regex import lazy_compile

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
# Of those, the ones release notes use only as questions do ("when", "did", "my"), not as they say a
# change ("can now", "will be", "has"): left out of BM25's query (``qa.answer.engine``)
QUESTION_ONLY_TERMS = frozenset("what which who whom whose why whi did i me my".split())  # tokens: "why" is "whi"

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
    "history evolution timeline over time across years first earliest minimum oldest lowest "
    "removed removal removals remove dropped drop deprecated deprecation deprecations fixed fixes fix bug bugs "
    "bugfix bugfixes added add features feature security performance please if whether when then so also just actually "
    "only really some more other others im i'm we're us going planning plan want wanna currently still now ok okay "
    "exactly anyhow anyway kind sort stuff things thing pls plz thx thanks tldr tl;dr quick brief briefly main big key "
    "important notable biggest top code codebase app apps application project projects suite bring brought "
    "bump bumping bumped jump jumping switch switching pinned pin stuck heard hear say said something affect "
    "affects affected".split()
)
# Word families every release question shares, by their start ("incompatibly", "deprecate").
SHARED_STEMS = lazy_compile(r"^(?:incompat|break|deprecat|remov|upgrad|migrat|chang|summar)", re.IGNORECASE)
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
# It opens the question or a sentence or clause of it ("schema context is gone - how do i get ...",
# "..., where am I supposed to configure the proxy CA certs?")
_HOWTO = lazy_compile(r"(?:^|[.!?,;:]\s+|\s[-\u2013\u2014]\s+)\s*(?:how\s+(?:do|can|could|should|would|to|does\s+one)\b"
                    r"|(?:what\s+is|what's)\s+the\s+way\s+to\b|is\s+there\s+a\s+way\s+to\b"
                    r"|where\s+(?:do|can|should|would|must|am|are)\s+(?:i|we|you)\b)", re.IGNORECASE)
# What a question names exactly and an item must hold to state the same thing: a version-like
# number ("Python 3.8"), an identifier or option ("descending=True", "Select.BLANK", "--max-warnings").
_SPECIFIC = lazy_compile(r"(?<![\w.])(?:\d+(?:\.\d+)+|-{1,2}[a-z][\w-]+|[A-Za-z_][\w]*(?:[.=(][\w\[\]\"'=.()-]+|_\w+)"
                       r"|[A-Za-z_]\w*=(?=[\s,;)]|$)"  # ... or a keyword argument named bare: "a proxy= argument"
                       # ... or a word with a number in it: socks5h, cu130, PKCS12 (not "H2Connection": a class
                       # the notes may not name beside the attribute asked about)
                       r"|[a-z]+\d+[a-z]*\d*|[A-Z]+\d+[A-Z]*\d*)(?![\w])"
                       # ... or an advisory's id, "CVE-2024-1681", or a header's name, "Access-Control-Allow-Origin"
                       r"|(?<![\w-])(?:CVE-\d{4}-\d{4,}|GHSA(?:-[a-z\d]{4}){3}|[A-Z][a-z]*(?:-[A-Z][a-z]+){2,})(?![\w-])"
                       # ... or a sigil's word: a YAML tag "!!set", "@typechecked", "@app.before_first_request"
                       r"|(?<![\w!@$%])[!@$%]{1,2}[A-Za-z_](?:[\w.-]*\w)?"
                       r"|(?<=\s)(?!-{1,2}\s)[?!&|^~*@#$%+-]{1,3}(?=\s)"  # or an operator on its own: "the ? operator"
                       r"|(?<=\s['\"`])[?!&|^~*@#$%+;:,/\\<>=\[\]{}()-]{1,3}(?=['\"`](?!\w))")  # or quoted: "only '&'"
                       # (a dash between words is prose: "started warning - in which version")


def content_words(text: str) -> frozenset[str]:
    """The lower-case words of ``text`` that say what it is about: not the words questions are
    made of, nor words of a change ("added", "stable"), nor numbers alone."""
    words = set(re.findall(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*", text.lower()))  # "let-else", "pytest-subtests" whole
    return frozenset(w for w in words if w not in _NOT_CONTENT and len(w) > 1)


_NOT_CONTENT = QUESTION_WORDS | frozenset(
    "the a an of in into for to from with on at by and or it its this that these those there first now "
    "version versions release releases become became made make get got been built new no longer "
    # the words of a change itself
    "add added adds adding introduce introduced introduces remove removed removes removal drop dropped drops "
    "delete deleted deprecate deprecated deprecates deprecation fix fixed fixes rename renamed renames "
    "stabilize stabilized stabilizes stabilise stabilised stabilization stable support supported supports "
    "switch switched migrate migrated move moved replace replaced change changed changes shipped ship ships "
    "gained gain accept accepts allow allows enable enabled rid gone "
    # ... and in their other forms, as a person asks ("stopped supporting python 3.9")
    "supporting adding removing dropping deleting deprecating fixing renaming switching replacing moving shipping "
    "taking publishing providing "
    "stop stops stopped stopping accepted accepting allowed allowing enables enabling "
    # function words and the framing of a change ("marked as deprecated", "stopped working on")
    "as so but if than then just also only very still even yet again any some such via per along together too "
    "either neither both "
    "marked mark flagged considered started starting working work works ran discontinued discontinue "
    # "the first one without python 2 support", "finally dropped python 3.8 for good"
    "one without anymore finally actually really eventually good last away".split()
)
NEGATED = lazy_compile(r"\b(?:no|not|never|without|cannot|can't|isn't|aren't|doesn't|don't|won't|lacks?)\b", re.IGNORECASE)


def asks_still(question: str) -> bool:
    """Whether a question asks how things stand now ("does anyio still pull in sniffio?", "can I
    still run it against SQLAlchemy 1.4?", "isn't recognised anymore"): the latest change answers it."""
    return bool(_STILL.search(question))


_STILL = lazy_compile(r"\b(?:still|anymore|any\s+more|any\s+longer|nowadays|these\s+days)\b", re.IGNORECASE)


def specifics(topic: str) -> tuple[str, ...]:
    """The exact things ``topic`` names (numbers, identifiers, options), lower case, longest first."""
    found = {m.group(0).strip(".()'\"").lower() or m.group(0) for m in _SPECIFIC.finditer(topic)}
    found = {f for f in found if f.count("(") == f.count(")")}  # "float('nan" of "float('nan')": its parts below
    found |= {m.group(1).lower() for m in _CODE_WORD.finditer(topic)}  # "an `undecorated` attribute": marked as code
    # a call, "isoparse('20200728121240')", "acme.evolve(inst=obj)": the function and a literal, as the notes name them
    found |= {t.lower() for m in _CALL.finditer(topic) if _a_call(m) for t in m.group(1, 3, 4) if t and len(t) > 2}
    found |= {m.group(1) for m in _STATUS.finditer(topic)}  # an HTTP status: "res.status(205)"
    return tuple(sorted((f for f in found if (len(f) > 2 or not f.isalnum()) and f not in _ABBREVIATIONS),
                        key=lambda f: (-len(f), f)))


_CALL = lazy_compile(r"(?<![\w.])([A-Za-z_][\w.]*)\(([^()]*?)(?:\s*(?:'([^'\s]+)'|\"([^\"\s]+)\"))?[^()]*\)")


def _a_call(m: re.Match) -> bool:
    """Whether ``name(...)`` is code: a dotted or snake_case name, or a call with no, literal or keyword
    arguments ("yaml.load(f)", "isoparse('2020')", "f()", "dumps(sort_keys=True)"); not "release(s)"."""
    name, inside = m.group(1), m.group(0)[len(m.group(1)) + 1:-1].strip()
    return ("." in name or "_" in name or not inside or "=" in inside or bool(m.group(3) or m.group(4))) \
        and inside not in ("s", "es")
_CODE_WORD = lazy_compile(r"`([A-Za-z_][\w-]*)`")
# an HTTP status written as code or after "HTTP": "status(205)", "status_code=418", "HTTP 404" (not in prose,
# "links that answer 401 Unauthorized": an item may tell of it without the number)
_STATUS = lazy_compile(r"\b(?:status(?:[\s_]code)?|HTTP)\s*[(=:]?\s*([1-5]\d\d)(?!\w)")
_ABBREVIATIONS = frozenset({"e.g", "i.e", "a.m", "p.m", "etc", "vs", "cf", "approx"})


def majors(topic: str, names: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The major versions ``topic`` names of a thing other than ``names`` (the corpus's products), as
    "python 2.x": "python 2 support", "py2" -> ("python 2.x",); not "python 2.7", "pydantic 2" of
    pydantic's notes, "2 workers", "32-bit", "pep 8", "utf 8", "http 2", "wait 10 s"."""
    found = ((m.group(1).lower(), m.group(2)) for m in _MAJOR.finditer(topic))  # "python", "2"
    return tuple(dict.fromkeys(f"{'python' if name == 'py' else name} {n}.x" for name, n in found
                               if name not in names | _NOT_NAMED))


# a name, a space or dash and a bare major ("python 2", "node-18"); "py2", "python3" written together
_MAJOR = lazy_compile(r"(?<![\w.])([a-z]{2,}(?:\.js)?(?=[\s-])|py(?:thon)?(?=v?\d))[\s-]?v?(\d{1,2})\b(?![-.\d])"
                      r"(?!\s*(?:%|x\b|[a-z]{1,2}\b|seconds?\b|minutes?\b|hours?\b|days?\b|times\b|bits?\b|bytes?\b))",
                      re.IGNORECASE)
_NOT_NAMED = frozenset("the an of to in on for with than by at take takes took has have had only about over under "
                       "after before since until version versions release releases step steps level levels "
                       "phase part chapter section issue pr pep utf http https rfc ipv wait top every page item "
                       "rule round option draft number no sha md".split())


# The unit a question asks for, first match wins (``qa.answer.units``): a date, a figure, the
# replacement to use, whether something changed, or how to do it.
_ASKS = (
    ("when", lazy_compile(r"^\W*when\b|\bwhat\s+(?:day|date|time)\b|\bwhich\s+(?:day|date)\b|\bhow\s+soon\b", re.IGNORECASE)),
    ("number", lazy_compile(r"\bhow\s+(?:many|much|fast|slow|big|large|small|bad|long|often|quick|far)\b"
                          r"|\bwhat(?:'s|\u2019s|\s+is|\s+are)?\s+the\s+(?:overhead|speed-?up|slowdown|cost|size|number|"
                          r"percentage|ratio|count|gain|improvement)\b|\bby\s+how\s+much\b", re.IGNORECASE)),
    ("use", lazy_compile(r"\bwhat\s+(?:should|do|can|must)\s+(?:i|we)\s+use\b|\bwhat\s+replaces\b|\breplacement\s+for\b"
                       r"|\buse\s+instead\b", re.IGNORECASE)),
    ("change", lazy_compile(r"^\W*(?:does|do|did|is|are|was|were|can|will|has|have)\b.*\b(?:still|now|anymore|any\s+more|"
                          r"fixed|work|works|working|support|supported)\b", re.IGNORECASE)),
)


# What a release itself does ("when did textual 8.0.0 come out?"): a question of these words alone
# about one release asks about the release as a whole.
RELEASE_EVENTS = frozenset("come comes came out ship shipped land landed publish published tag tagged".split())


# A person's words for platforms and changes, and the words release notes use for them: a term of
# a question is held by a sentence that says one of its group ("mac" by "MPS", "Metal" or "Apple
# silicon"; "replaced" by "instead of" or "in favour of").
SYNONYMS = (
    ("mps", "metal", "apple silicon", "mac", "macs", "m1", "m2", "m3", "m4", "m5"),
    ("replaced", "replace", "replaces", "instead of", "in favour of", "in favor of", "superseded"),
    ("removed", "dropped", "no longer", "stop", "stopped", "discontinued"),
    # the short forms a person types for the words notes spell out ("a plain dict": "with a dictionary")
    ("dict", "dicts", "dictionary", "dictionaries"),
    ("config", "configs", "configuration", "configurations"),
    ("repo", "repos", "repository", "repositories"),
    ("env", "envs", "environment", "environments"),
    ("arg", "args", "argument", "arguments"),
    ("param", "params", "parameter", "parameters"),
    ("dir", "dirs", "directory", "directories"),
    ("cert", "certs", "certificate", "certificates"),
    ("deps", "dependency", "dependencies"),
    # British and American spellings ("What changed about Pillow's license?": "Update licence to MIT-CMU")
    ("license", "licence", "licensed", "licenced", "licensing", "licencing"),
    ("behavior", "behaviour", "behaviors", "behaviours"),
    ("color", "colour", "colors", "colours"),
    ("favor", "favour"),
)


def asks(question: str) -> str | None:
    """The unit ``question`` asks for: "howto", "when", "number", "use", "change", or None."""
    if is_howto(question):
        return "howto"
    return next((name for name, pattern in _ASKS if pattern.search(question)), None)


def is_howto(question: str) -> bool:
    """Whether a question asks how to do something ("how do I enable ...?")."""
    return bool(_HOWTO.search(question))
