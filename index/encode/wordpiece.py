"""Word pieces of a BERT ``tokenizer.json`` in plain Python: the `tokenizers` library's ids, without it.

A cold ask loaded `tokenizers` (about 85 ms) to split one short question. For a file declaring the
bundled model's pipeline (added tokens matched in the raw text, BertNormalizer, BertPreTokenizer,
WordPiece, a [CLS] $A [SEP] template; lowercase and strip_accents either way) this module reruns it
from the file read with ``json``; ``load_query_tokenizer`` gives any other file to the library. The
library's character classes predate Unicode 9: a text holding a character it and Python class
differently (``wordpiece_unsure``, made by ``benchmarks/wordpiece_unsure.py`` from every code point)
goes to the library, loaded then. Decision: docs/decisions/0018-questions-tokenized-in-python.md.
"""

from __future__ import annotations

import json
import re
import threading
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import QueryEncoderUnavailable
from .wordpiece_unsure import UNICODE_VERSION, UNSURE_RANGES

# Rust's char::is_whitespace (the White_Space property): what the library's pre-tokenizer splits at.
_WHITESPACE = frozenset("\t\n\v\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
                        + "".join(map(chr, range(0x2000, 0x200B))))
# The library's punctuation: ASCII 33-47, 58-64, 91-96, 123-126, and the Unicode categories P*.
_ASCII_PUNCTUATION = frozenset(chr(c) for r in ((33, 48), (58, 65), (91, 97), (123, 127)) for c in range(*r))
# What BertNormalizer drops: Cc (NUL, \v, \f, U+0085 among them), Cf, Co, Cs. Not Cn: an unassigned
# code point is a letter to the library.
_DROPPED = frozenset(("Cc", "Cf", "Co", "Cs"))
# The blocks whose ideographs BertNormalizer puts spaces around (its is_chinese_char).
_CJK = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
        (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0x2F800, 0x2FA1F))
_UNSURE_STARTS = tuple(first for first, _ in UNSURE_RANGES)
_MODEL_KEYS = {"type", "unk_token", "continuing_subword_prefix", "max_input_chars_per_word", "vocab"}
_NORMALIZER_KEYS = {"type", "clean_text", "handle_chinese_chars", "strip_accents", "lowercase"}


@dataclass(frozen=True, slots=True)
class Encoding:
    """One text's model inputs, under the names ``tokenizers.Encoding`` gives them (not padded)."""

    ids: tuple[int, ...]
    attention_mask: tuple[int, ...]
    type_ids: tuple[int, ...]


def _template(processor: Any) -> tuple:
    """(special tokens before the text, after it, the text's type id) of a BERT post-processor;
    ValueError for another."""
    if processor["type"] == "BertProcessing" and set(processor) == {"type", "sep", "cls"}:
        return ((int(processor["cls"][1]), 0),), ((int(processor["sep"][1]), 0),), 0
    if processor["type"] != "TemplateProcessing" or set(processor) != {"type", "single", "pair", "special_tokens"}:
        raise ValueError(f"a {processor['type']} post-processor")
    parts: list[list[tuple[int, int]]] = [[]]
    type_id = None
    for piece in processor["single"]:
        if set(piece) == {"Sequence"} and piece["Sequence"]["id"] == "A" and type_id is None:
            type_id = int(piece["Sequence"]["type_id"])
            parts.append([])
        elif set(piece) == {"SpecialToken"}:
            kind, name = int(piece["SpecialToken"]["type_id"]), piece["SpecialToken"]["id"]
            parts[-1] += [(int(i), kind) for i in processor["special_tokens"][name]["ids"]]
        else:
            raise ValueError(f"a template with {piece}")
    if type_id is None:
        raise ValueError("a template without its text")
    return tuple(parts[0]), tuple(parts[1]), type_id


class WordPieceTokenizer:
    """Splits texts as ``tokenizers.Tokenizer`` does with the same file, truncating, not padding."""

    def __init__(self, spec: Any, path: Path, max_length: int) -> None:
        """Args:
            spec: the parsed ``tokenizer.json``.
            path: where it was read, for the library on a text this module is unsure of.
            max_length: word pieces a text keeps, special tokens included.

        Raises:
            ValueError: the file declares a pipeline this module does not rerun exactly, or
                ``max_length`` leaves no room between the template's special tokens.
        """
        try:
            model, norm, vocab = spec["model"], spec["normalizer"], spec["model"]["vocab"]
            ours = (set(model) == _MODEL_KEYS and model["type"] == "WordPiece" and isinstance(vocab, dict)
                    and isinstance(model["continuing_subword_prefix"], str)
                    and isinstance(model["max_input_chars_per_word"], int)
                    and spec["pre_tokenizer"] == {"type": "BertPreTokenizer"}
                    and set(norm) == _NORMALIZER_KEYS and norm["type"] == "BertNormalizer"
                    and norm["clean_text"] is True and norm["handle_chinese_chars"] is True
                    and isinstance(norm["lowercase"], bool)
                    and (norm["strip_accents"] is None or isinstance(norm["strip_accents"], bool)))
            # an added token matched in the normalized text, or with the spaces around it, is not rerun here
            ours = ours and all(t["normalized"] is False and not (t["lstrip"] or t["rstrip"] or t["single_word"])
                                and isinstance(t["content"], str) and t["content"] for t in spec["added_tokens"])
            if not ours:
                raise ValueError("not the BERT WordPiece pipeline")
            before, after, self._type_id = _template(spec["post_processor"])
            self._vocab: dict[str, int] = vocab
            self._unk_id = int(vocab[model["unk_token"]])
            self._prefix, self._max_word_chars = model["continuing_subword_prefix"], model["max_input_chars_per_word"]
            self._added = {t["content"]: int(t["id"]) for t in spec["added_tokens"]}
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"not the BERT WordPiece pipeline ({type(exc).__name__}: {exc})") from None
        self._lowercase = norm["lowercase"]
        self._strip_accents = self._lowercase if norm["strip_accents"] is None else norm["strip_accents"]
        self._budget = max_length - len(before) - len(after)
        self._head, self._head_types = tuple(i for i, _ in before), tuple(t for _, t in before)
        self._tail, self._tail_types = tuple(i for i, _ in after), tuple(t for _, t in after)
        if self._budget <= 0:
            raise ValueError(f"max_length {max_length} leaves no room for a text")
        self.path, self.max_length = path, max_length
        # longest first: at a position the longest added token wins, as in the library's matcher
        self._added_re = re.compile("|".join(map(re.escape, sorted(self._added, key=len, reverse=True))) or "(?!)")
        self._library: Any = None
        self._lock = threading.Lock()

    def encode(self, text: str) -> Encoding | Any:
        """One text's ids, attention mask and type ids (a ``tokenizers.Encoding`` when the text
        holds a character the library's tables class differently: the library's then)."""
        if not text.isascii() and _unsure(text):
            return self.library().encode(text)
        return self.split(text)

    def encode_batch(self, texts: list[str]) -> list:
        """``encode`` of each text, in order."""
        return [self.encode(text) for text in texts]

    def split(self, text: str) -> Encoding:
        """This module's own split of a text, whatever it holds (``encode`` sends the texts it is
        unsure of to the library; the tests and benchmarks/wordpiece_unsure.py compare the two)."""
        ids: list[int] = []
        start = 0
        for match in self._added_re.finditer(text):
            ids += self._words(text[start:match.start()])
            ids.append(self._added[match.group()])
            start = match.end()
        ids += self._words(text[start:])
        del ids[self._budget:]
        return Encoding(ids=(*self._head, *ids, *self._tail),
                        attention_mask=(1,) * (len(self._head) + len(ids) + len(self._tail)),
                        type_ids=(*self._head_types, *(self._type_id,) * len(ids), *self._tail_types))

    def library(self) -> Any:
        """The library's tokenizer of the same file, truncating alike, loaded on first use.

        Raises:
            QueryEncoderUnavailable: the library is missing or cannot read the file.
        """
        with self._lock:
            if self._library is None:
                from ..runtime import configure_runtime
                from .onnx_query import load_tokenizer

                configure_runtime()  # TOKENIZERS_PARALLELISM=false and friends, before tokenizers loads
                try:
                    self._library = load_tokenizer(self.path, self.max_length)[0]
                except Exception as exc:  # noqa: BLE001 - tokenizers raises bare Exception subclasses here
                    raise QueryEncoderUnavailable(f"Cannot load the tokenizer {self.path} ({exc})") from None
            return self._library

    def _words(self, text: str) -> list[int]:
        """The word pieces of a stretch of text between added tokens."""
        vocab, prefix, unk = self._vocab, self._prefix, self._unk_id
        out: list[int] = []
        for word in _pre_tokenized(_normalized(text, self._strip_accents, self._lowercase)):
            if len(word) > self._max_word_chars:
                out.append(unk)
                continue
            pieces, start = [], 0
            while start < len(word):  # the longest known prefix of what is left, "##" after the first
                for end in range(len(word), start, -1):
                    found = vocab.get(word[start:end] if start == 0 else prefix + word[start:end])
                    if found is not None:
                        pieces.append(found)
                        start = end
                        break
                else:
                    pieces = [unk]  # a word it cannot spell is one unknown token
                    break
            out += pieces
        return out


def _normalized(text: str, strip_accents: bool, lowercase: bool) -> str:
    """BertNormalizer with clean_text and handle_chinese_chars, in the library's order."""
    import unicodedata

    chars = []
    for c in text:
        if c in "\t\n\r":
            chars.append(" ")
        elif c == "\ufffd" or unicodedata.category(c) in _DROPPED:  # dropped before whitespace is mapped
            continue
        elif c in _WHITESPACE:
            chars.append(" ")
        elif c >= "\u3400" and any(lo <= ord(c) <= hi for lo, hi in _CJK):
            chars += (" ", c, " ")
        else:
            chars.append(c)
    out = "".join(chars)
    if strip_accents:
        out = "".join(c for c in unicodedata.normalize("NFD", out) if unicodedata.category(c) != "Mn")
    if lowercase:  # char by char, as Rust's char::to_lowercase: str.lower() would end a word in "ς"
        out = "".join(c.lower() for c in out)
    return out


def _pre_tokenized(text: str) -> list[str]:
    """BertPreTokenizer: words split at whitespace, each punctuation char a word of its own."""
    import unicodedata

    words: list[str] = []
    word: list[str] = []
    for c in text:
        punctuation = c in _ASCII_PUNCTUATION or (c > "\x7f" and unicodedata.category(c)[0] == "P")
        if punctuation or c in _WHITESPACE:
            if word:
                words.append("".join(word))
                word = []
            if punctuation:
                words.append(c)
        else:
            word.append(c)
    if word:
        words.append("".join(word))
    return words


def _unsure(text: str) -> bool:
    """Whether ``text`` holds a character Python's tables and the library's may class differently."""
    import unicodedata

    if unicodedata.unidata_version != UNICODE_VERSION:
        return True  # the table was made against another Unicode: only ASCII is sure
    for c in text:
        i = bisect_right(_UNSURE_STARTS, ord(c)) - 1
        if i >= 0 and ord(c) <= UNSURE_RANGES[i][1]:
            return True
    return False


def load_query_tokenizer(path: Path, max_length: int) -> tuple[Any, int]:
    """The tokenizer of a ``tokenizer.json``, truncating at ``max_length`` and padding nothing,
    and the id it pads with: a ``WordPieceTokenizer`` when the file declares its pipeline, else
    the library's (``onnx_query.load_tokenizer``).

    Raises:
        OSError, ValueError: the file cannot be read or is not JSON.
        Exception: what the library raises on a file it cannot load.
    """
    spec = json.loads(Path(path).read_text(encoding="utf-8"))
    try:
        tokenizer = WordPieceTokenizer(spec, Path(path), max_length)
    except ValueError:
        from .onnx_query import load_tokenizer

        return load_tokenizer(Path(path), max_length)
    return tokenizer, int((spec.get("padding") or {}).get("pad_id", 0))
