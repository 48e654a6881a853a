"""Make index/encode/wordpiece_unsure.py: the characters on which Python's word pieces and the library's differ.

    PYTHONPATH=. .venv/bin/python benchmarks/wordpiece_unsure.py [--out index/encode/wordpiece_unsure.py]

Every code point but the surrogates (which the library refuses), alone and in the contexts
"a{c}b", "{c}" + a combining acute, "x{c}{c}", is split by ``index.encode.wordpiece`` (its own
``split``, no table consulted) and by the library, under the bundled model's ``tokenizer.json``
and its three other BertNormalizer settings (lowercase and strip_accents on or off). The code
points whose ids differ anywhere, and the surrogates, become the table's ranges. About 4 minutes
a setting on this machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

from index.encode.encoders import bundled_model_path
from index.encode.onnx_query import load_tokenizer
from index.encode.wordpiece import WordPieceTokenizer

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ({}, {"lowercase": False}, {"strip_accents": False}, {"lowercase": False, "strip_accents": True})
CONTEXTS = ("{0}", "a{0}b", "{0}\u0301", "x{0}{0}")
SURROGATES = (0xD800, 0xDFFF)


def differing(path: Path, codes: list[int]) -> set[int]:
    """The code points whose ids differ between this module and the library with ``path``."""
    ours = WordPieceTokenizer(json.loads(path.read_text(encoding="utf-8")), path, 256)
    library, _ = load_tokenizer(path, 256)
    out: set[int] = set()
    for context in CONTEXTS:
        start = time.perf_counter()
        texts = [context.format(chr(c)) for c in codes]
        want = library.encode_batch(texts)
        out.update(c for c, text, w in zip(codes, texts, want) if list(ours.split(text).ids) != w.ids)
        print(f"  {context!r}: {len(out)} so far, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return out


def ranges(codes: set[int]) -> list[tuple[int, int]]:
    """Sorted code points as inclusive (first, last) runs."""
    runs: list[list[int]] = []
    for c in sorted(codes):
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return [(a, b) for a, b in runs]


def render(runs: list[tuple[int, int]]) -> str:
    """The table module's text."""
    import tokenizers

    lines = [
        '"""Characters Python\'s tables and the `tokenizers` library\'s class differently (generated: do not edit).',
        "",
        f"Made by benchmarks/wordpiece_unsure.py with tokenizers {tokenizers.__version__} and Python's unicodedata",
        f"{unicodedata.unidata_version}: every code point, alone and in three contexts, under four BertNormalizer",
        "settings. The library's ``unicode_categories`` tables are older than Unicode 9 (Adlam's marks are",
        "letters to them): what is punctuation, a nonspacing mark or a format character to Python and was",
        "not then is a letter to the library. ``index.encode.wordpiece`` gives a text holding one of these",
        "to the library; the surrogates, which the library refuses, are among them.",
        '"""',
        "",
        f'UNICODE_VERSION = "{unicodedata.unidata_version}"',
        "UNSURE_RANGES = (",
    ]
    for a, b in runs:
        first = unicodedata.name(chr(a), "surrogates" if a == SURROGATES[0] else "?")
        lines.append(f"    (0x{a:04X}, 0x{b:04X}),  # {first}" + (f" (+{b - a})" if b > a else ""))
    lines.append(")")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "index" / "encode" / "wordpiece_unsure.py")
    ns = parser.parse_args()
    bundled = json.loads((bundled_model_path() / "tokenizer.json").read_text(encoding="utf-8"))
    codes = [c for c in range(0x110000) if not SURROGATES[0] <= c <= SURROGATES[1]]
    found: set[int] = set(range(SURROGATES[0], SURROGATES[1] + 1))
    with tempfile.TemporaryDirectory() as tmp:
        for n, setting in enumerate(SETTINGS):
            spec = {**bundled, "normalizer": {**bundled["normalizer"], **setting}}
            path = Path(tmp) / f"tokenizer-{n}.json"
            path.write_text(json.dumps(spec), encoding="utf-8")
            print(f"normalizer {spec['normalizer']}", file=sys.stderr)
            found |= differing(path, codes)
    runs = ranges(found)
    ns.out.write_text(render(runs), encoding="utf-8")
    print(f"{len(found)} code points in {len(runs)} ranges -> {ns.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
