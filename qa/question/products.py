"""The software products a question names: those the corpus holds (by name or alias, anywhere in
the question) and those it does not (well-known names, only where the wording names a product).

A well-known name (``data/products.tsv``: the most used PyPI, npm and crates packages, tools;
``data/aliases.tsv``; the packages installed here) is a product the question is about only in a
naming position, so "rich text", "click handlers", "requests per second" or "a flask of tea" name
nothing:

- followed by a version ("numpy 2.0", "rich 14", "pydantic v2") or a possessive ("Django's");
- followed by a release word ("scikit-learn release", "jax release notes", "the safetensors library"),
  or after one ("the next release of flask");
- after an upgrade verb ("upgrading pandas from 2.1"), or the subject opening a question ("does jax
  support ...", "did urllib3 drop ...", not "do click handlers fire");
- compared with a product named ("httpx vs requests");
- last in the question after a preposition ("how do I set a proxy in urllib3?");
- first in the question before a colon or a dash ("pandas: ...").

A name no list holds is a product only where it opens the question as its own release notes
would be asked for ("cupy 13 changelog", "prompt_toolkit 3.0.47 changes"), and, when the corpus's
notes use it, with a release the corpus does not hold ("MPS 2.14 changes" asks about PyTorch's).

A name that is also a common English word (``data/common.txt``; unless written as a name, "...
in React?") counts only after a version, a possessive or a release word, or as the subject of
"does X ...": "double click to select?" names nothing. A name the corpus's own notes use (a
dependency of a held product: "triton" in PyTorch's, "urllib3" in httpx's) counts likewise, and
after an upgrade verb, or last after "in" in a how-to or a "what's new in" question: "what
triton version is pinned" asks about PyTorch, "Triton 3.7 release notes" about Triton.

Platforms a release supports or runs on (Python, CUDA, macOS, Windows, ...) are never products.
A name the corpus holds counts wherever it stands ("torch" names PyTorch, "cargo" Rust's
toolchain); "pydantic-core" is not "pydantic", nor "PyTorch Lightning" PyTorch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from corpus.regex import lazy_compile
from corpus.versions import product_names, version_matches

from .names import canonical, common, installed, is_platform, known, vocabulary
from .othernames import beside_parent, metadata_names, short_names
from .vocabulary import NOT_NAMES, is_howto

_TOKEN = lazy_compile(r"[A-Za-z][A-Za-z0-9]*(?:[.+\-_][A-Za-z0-9]+)*\+*")
MOST_WORDS = 3  # the longest name looked up ("hugging face transformers")
# "numpy 2.0", "aiohttp 3.10.1rc1", "pydantic v2", "rich 14"; not "8 GPUs" or "2x"
_VERSION_AFTER = lazy_compile(r"\s*v?(?:\d+(?:\.\d+)+[a-z]*\d*(?![\w.%]|\.\d)|\d+(?![\w.%]|\s*(?:x|times|%|ms|s|gb|mb|"
                            r"gpus?|cores?|threads?|models?|files?|items?|users?|steps?|years?|days?|hours?|minutes?)\b))",
                            re.IGNORECASE)
_POSSESSIVE_AFTER = lazy_compile(r"['\u2019]s\b")
_OWN_RELEASE_AFTER = lazy_compile(r"\s+(?:releases?|changelogs?|release\s+notes)\b", re.IGNORECASE)
# "cupy 13 changelog", "prompt_toolkit 3.0.47 changes": a name no list holds, named by its own release notes
_UNLISTED_AFTER = lazy_compile(_VERSION_AFTER.pattern + r"\s*(?:releases?|changelogs?|changes|release\s+notes|notes)\b",
                             re.IGNORECASE)
_USED_AS_AFTER = lazy_compile(r"\s+(?:versions?|library|package|crate)\b", re.IGNORECASE)  # a dependency's words
_NEW_IN = lazy_compile(r"\bwhat(?:'s|\u2019s|\s+is|\s+are)?\s+(?:new|changed)\s+in\s+(?:the\s+)?$", re.IGNORECASE)
_UPGRADE_BEFORE = lazy_compile(r"\b(?:upgrad|updat|bump|migrat|downgrad)\w*\s+(?:to\s+|my\s+|our\s+|the\s+)?$",
                             re.IGNORECASE)
_ASKS_BEFORE = lazy_compile(r"(?:^|\b(?:when|why|how|where)\s+)(?:does|do|did|is|are|was|were|can|could|will|would|has|have|should)"
                          r"\s+$", re.IGNORECASE)
# "does jax support ...", "did urllib3 drop ...", "was X merged": the name is the subject when a verb
# follows (not "do click handlers fire", where it names a kind of handler)
_VERB_AFTER = lazy_compile(
    r"\s+(?:still\s+|now\s+|also\s+|already\s+|really\s+|finally\s+|ever\s+|yet\s+)?"
    r"(?:supports?|works?|handles?|has|have|runs?|drops?|adds?|ships?|includes?|uses?|needs?|requires?|allows?|"
    r"breaks?|provides?|accepts?|installs?|fix(?:es)?|deprecates?|removes?|stabili[sz]es?|gets?|returns?|comes?|"
    r"offers?|lets?|compiles?|builds?|loads?|reads?|writes?|sends?|parses?|validates?|play|plays|know|knows|"
    r"want|wants|do|does|[a-z]+ed)\b", re.IGNORECASE)
_CONTEXT_BEFORE = lazy_compile(r"\b(?:in|for|on|using|via|with|from|to|than|like|vs\.?|versus)\s+(?:the\s+)?$",
                             re.IGNORECASE)
_RELEASE_OF_BEFORE = lazy_compile(r"\b(?:releases?|versions?|changelogs?|release\s+notes|notes|docs)\s+(?:of|for|in)\s+(?:the\s+)?$",
                                re.IGNORECASE)
_VS_AFTER = lazy_compile(r"\s+(?:vs\.?|versus)\s", re.IGNORECASE)
_END_AFTER = lazy_compile(r"\s*[?!.]*\s*$")
_LEAD_AFTER = lazy_compile(r"\s*(?::|,|\s-\s)")


@dataclass(frozen=True, slots=True)
class Named:
    """A product a question names: as typed, where, and whether the corpus holds it (then ``product``
    is its name there)."""

    typed: str
    span: tuple[int, int]
    product: str | None = None  # the held product, as the corpus spells it; None for a foreign one

    @property
    def held(self) -> bool:
        return self.product is not None


def _proper(typed: str, name: str, after: str) -> bool:
    """A tool whose name is also a word of questions ("go") written as a name: capitalised and
    followed by a version ("what's new in Go 1.22?")."""
    return (typed[:1].isupper() and "tool" in vocabulary()[0].get(name, ()) and not is_platform(name)
            and bool(_VERSION_AFTER.match(after)))


def held_names(products: Sequence[str], other_names: Mapping[str, Sequence[str]] | None = None, *,
               short: bool = True) -> dict[str, str]:
    """Every lower-case name of the held ``products`` -> the product: its own, its known aliases
    ("torch" for PyTorch), the parts written up in its notes ("cargo" for Rust) and the other
    names its distribution's metadata gives it (``other_names``: product -> names; see
    ``metadata_names``)."""
    aliases = vocabulary()[1]
    names: dict[str, str] = {}
    for product in products:
        own = {product.lower(), *product_names(product)}
        own |= {alias for alias, name in aliases.items() if name in own}
        own |= {aliases[n] for n in list(own) if n in aliases}
        # the name a package goes by with its language said: Python-Markdown for markdown, python-dateutil
        own |= {f"{lang}{sep}{n}" for n in list(own) if " " not in n for lang in _LANGUAGES for sep in "-_"}
        for name in own:
            names.setdefault(name, product)
    shorter = short_names(products, names) if short else {}  # "xdist" for pytest-xdist (``othernames``)
    for name, product in {**shorter, **metadata_names(products, other_names, names)}.items():
        names.setdefault(name, product)
    for name, product in list(names.items()):  # "_" for "-" and "-" for "_", as its import is written: "requests_toolbelt"
        names.setdefault(name.translate(SWAP), product)
    return names


def named(text: str, products: Sequence[str], mentions: Callable[[str], bool] | None = None,
          releases: Sequence[str] = (), other_names: Mapping[str, Sequence[str]] | None = None,
          written: Callable[[str], bool] | None = None,
          writers: Callable[[str], frozenset[str]] | None = None) -> tuple[Named, ...]:
    """The products ``text`` names, held and foreign, in order (see the module docstring);
    ``mentions(name)``: whether the corpus's notes use the name (a dependency of a held product);
    ``releases``: the releases the corpus holds; ``other_names``: the other names of held products
    (``held_names``); ``written(name)``: whether the notes write a joined name ("mako-render": a part
    of mako, no product; ``Catalogue.writes``); ``writers(name)``: the products whose notes write it
    (``Catalogue.writers``)."""
    held = held_names(products, other_names)
    found = _slashed(text, held)  # "pyca/cryptography", "@babel/core": names no word of _TOKEN holds
    tokens = [t for t in _TOKEN.finditer(text) if not any(a <= t.start() < b for a, b in (n.span for n in found))]
    at = 0
    while at < len(tokens):
        for size in range(min(MOST_WORDS, len(tokens) - at), 0, -1):
            group = tokens[at: at + size]
            if size > 1 and any(not text[a.end(): b.start()].isspace() for a, b in zip(group, group[1:])):
                continue  # words of one name are apart by spaces only
            start, end = group[0].start(), group[-1].end()
            typed = text[start:end]
            name = " ".join(t.group(0).lower() for t in group)
            if name in held and _import_of_another(name, held[name], writers):
                at += size  # another held product's dependency, as its notes write it: no product named
                break
            if name in held:
                found.append(Named(typed, (start, end), held[name]))
            elif canonical(name) in held and not is_platform(name):
                found.append(Named(typed, (start, end), held[canonical(name)]))
            elif _naming(text, start, end, _kind(text, start, name, mentions)) and (
                    known(name) or _proper(typed, name, text[end:])):
                found.append(Named(typed, (start, end)))
            elif size == 1 and _unlisted(text, start, end, name, mentions, releases):
                found.append(Named(typed, (start, end)))
            elif size == 1 and _compound_of_held(name, held) and not _part_written(name, written):
                found.append(Named(typed, (start, end)))  # lxml_html_clean is a product of its own, not lxml
            elif size == 1 and not is_platform(name) and "." in name and name.split(".")[0] in held:
                found.append(Named(typed, (start, end), held[name.split(".")[0]]))  # torch.compile: PyTorch's API
            else:
                continue
            at += size
            break
        else:
            at += 1
    found = [n for n in found if not (n.product and beside_parent(n.typed, n.product, text))]  # "pytest ... socket"
    return _with_vs(text, tuple(sorted(found, key=lambda n: n.span)), held)


def _import_of_another(name: str, product: str, writers: Callable[[str], frozenset[str]] | None) -> bool:
    """Whether ``name`` is a held product's name spelt as its import ("charset_normalizer" of charset-normalizer)
    that another held product's notes write: a dependency of that one ("... when neither chardet nor
    charset_normalizer is installed" asks about requests), no product named."""
    if writers is None or name.translate(SWAP) == name or name.translate(SWAP) not in product_names(product) | {
            product.lower()}:
        return False
    return bool(writers(name) - {product})


def _slashed(text: str, held: dict[str, str]) -> list[Named]:
    """Where ``text`` names a held product by a name with a "/" (a repository, a scoped npm name)."""
    names = sorted((n for n in held if "/" in n), key=len, reverse=True)
    if not names:
        return []
    pattern = re.compile(r"(?<![\w@/.-])(?:" + "|".join(re.escape(n) for n in names) + r")(?![\w/]|[.-]\w)",
                         re.IGNORECASE)
    return [Named(m.group(0), m.span(), held[m.group(0).lower()]) for m in pattern.finditer(text)]


_LANGUAGES = ("python", "py")
SWAP = str.maketrans("-_", "_-")  # a package's name as its import is written: "requests-toolbelt", "requests_toolbelt"
_COMPOUND_WORDS = frozenset({"like", "based", "style", "compatible", "powered", "specific", "related", "only", "free",
                             "friendly", "aware", "native", "ish", "non", "pre", "post", "era", "side", "level", "wide",
                             # "a CacheControl-wrapped session", "a flask-generated page": the product doing it
                             "wrapped", "backed", "driven", "generated", "managed", "hosted", "served", "rendered"})


def _compound_of_held(name: str, held: dict[str, str]) -> bool:
    """Whether ``name`` joins a held product's name to more words with "-" or "_" ("lxml_html_clean",
    "pydantic-core" beside lxml, pydantic): another package, which the corpus does not hold."""
    parts = re.split(r"[-_]", name)
    if set(parts[1:]) & _COMPOUND_WORDS or set(parts[:-1]) & _COMPOUND_WORDS:
        return False  # "numpy-like", "httpx-based", "non-flask": a word about the product, not another one
    return len(parts) > 1 and "." not in name and name not in held and canonical(name) not in held \
        and (parts[0] in held or parts[-1] in held) and not is_platform(name)


def _part_written(name: str, written: Callable[[str], bool] | None) -> bool:
    """Whether a name joined to a held product's ("mako-render" beside mako) is a part of it: its notes
    write it and no list knows a package of that name (pydantic-core and lxml-html-clean are packages)."""
    spelled = re.sub(r"[-_.]+", "-", name)  # "lxml_html_clean" as the lists spell it: lxml-html-clean
    return written is not None and written(name) and not any(known(n) or known(canonical(n)) for n in (name, spelled))


def _unlisted(text: str, start: int, end: int, name: str, mentions: Callable[[str], bool] | None,
              releases: Sequence[str]) -> bool:
    """A name no list holds that opens the question as a product's release notes do ("cupy 13
    changelog", "prompt_toolkit 3.0.47 changes"): not a common word, a platform or a word of
    questions; a name the corpus's own notes use only with a release the corpus does not hold
    ("MPS 2.14 changes" asks about PyTorch 2.14's MPS, "cupy 13 changelog" about CuPy)."""
    after = _UNLISTED_AFTER.match(text, end)
    if start or mentions is None or len(name) < 3 or after is None:
        return False
    if common(name) or name in NOT_NAMES or is_platform(name):
        return False
    version = after.group(0).split()[0].lstrip("vV")
    return not mentions(name) or not any(version_matches(r, version) for r in releases)


def _naming(text: str, start: int, end: int, kind: str = "plain") -> bool:
    """Whether the words at ``text[start:end]`` stand where a question names a product.

    ``kind`` is "plain" for a distinctive name, "common" for a common English word ("select",
    "requests") and "mentioned" for a name the corpus's notes use (a dependency: "triton" in
    PyTorch's, "urllib3" in httpx's): those two count only where the question is about the
    product's own releases or workings ("Triton 3.7", "urllib3's proxies", "does click support",
    "how do I set a proxy in urllib3?"), not where they name what the held product uses ("what
    triton version is pinned", "the safetensors package", "nvshmem plugin for triton")."""
    before, after = text[:start], text[end:]
    if _VERSION_AFTER.match(after) or _POSSESSIVE_AFTER.match(after) or _OWN_RELEASE_AFTER.match(after):
        return True
    if _RELEASE_OF_BEFORE.search(before) or (_ASKS_BEFORE.search(before) and _VERB_AFTER.match(after)):
        return True
    if kind == "common":
        return False
    if _UPGRADE_BEFORE.search(before):
        return True
    end_of_question = bool(_END_AFTER.fullmatch(after))
    if kind == "mentioned":
        return end_of_question and bool(re.search(r"\bin\s+(?:the\s+)?$", before, re.IGNORECASE)) and bool(
            is_howto(text) or _NEW_IN.search(before))
    if _USED_AS_AFTER.match(after) or (_CONTEXT_BEFORE.search(before) and end_of_question):
        return True
    return not before.strip() and bool(_LEAD_AFTER.match(after))


def _kind(text: str, start: int, name: str, mentions: Callable[[str], bool] | None) -> str:
    """How sure a name is to name a product (``_naming``): "common", "mentioned" or "plain"."""
    if common(name) and not _capitalised(text, start):
        return "common"
    if mentions is not None and mentions(name):
        return "mentioned"
    return "plain"


def _capitalised(text: str, start: int) -> bool:
    """Whether the word at ``start`` is written as a name: capitalised, and not opening a sentence."""
    return text[start].isupper() and bool(text[:start].strip()) and not re.search(r"[.!?:]\s*$", text[:start])


def _with_vs(text: str, found: tuple[Named, ...], held: dict[str, str]) -> tuple[Named, ...]:
    """``found`` and a well-known name compared with a named product ("httpx vs requests")."""
    out = list(found)
    taken = {n.span for n in found}
    for m in _TOKEN.finditer(text):
        name = m.group(0).lower()
        if m.span() in taken or name in held or not known(name):  # compared with a product: a product, word or not
            continue
        left = re.search(r"(" + _TOKEN.pattern + r")\s+(?:vs\.?|versus)\s+$", text[: m.start()], re.IGNORECASE)
        right = _VS_AFTER.match(text, m.end())
        if (left and any(n.span[1] == left.end(1) for n in found)) or (
                right and any(n.span[0] > m.end() for n in found)):
            out.append(Named(m.group(0), m.span()))
    return tuple(sorted(out, key=lambda n: n.span))
