"""Word pieces in Python (index.encode.wordpiece): the `tokenizers` library's ids on real notes and on
hard cases, the files it leaves to the library, and the characters it hands over."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
import tokenizers

from corpus import load_chunks
from corpus.sentences import split_sentences
from index.encode.encoders import bundled_model_path
from index.encode.onnx_query import load_tokenizer
from index.encode.wordpiece import Encoding, WordPieceTokenizer, load_query_tokenizer
from index.encode.wordpiece_unsure import UNSURE_RANGES
from tests.support.paths import REPO

MAX_LENGTH = 256  # the bundled model's max_seq_length
BUNDLED = bundled_model_path() / "tokenizer.json"
SHARED_DATA = REPO.parent / "shared" / "data"  # optional: skipped without it
HARD = {
    "empty": "",
    "blank": " \t\n\r ",
    "accents": "café Ångström naïve résumé ÉCOLE",
    "combining marks": "cafe\u0301 e\u0316\u0301 a\u0328\u0301 \u0301 x\u0301\u0301\u0301y",
    "cjk": "日本語のリリースノート 中文发布说明 한국어 릴리스 㐀𠀀",
    "emoji": "🚀 fixed 👍🏽 👨‍👩‍👧 🥰🤯 ❤️",
    "control chars": "a\x00b\x01c\x07d\x1be\x7ff\x85g\x0bh\x0ci\x1cj\x1fk",
    "zero width": "zero\u200bwidth\u200cnon\u200djoiner\ufeffbom\u2060wj\u00adsoft",
    "nbsp and spaces": "a\u00a0b\u2003c\u3000d\u202fe\u205ff\u1680g\u2028h\u2029i",
    "tabs and newlines": "line one\n\tline two\r\nline\u2028three",
    "special tokens": "[MASK] is [CLS] not [cls] but [SEP][SEP] [PAD]x[UNK]y [[MASK]] [MASK",
    "special tokens glued": "torch[SEP]compile",
    "long word": "a" * 101 + " " + "b" * 100 + " " + "é" * 101 + " x",
    "long text": " ".join(f"release {n} fixed torch.compile item {n}" for n in range(200)),
    "only punctuation": "?!...,;:'\"()[]{}<>-—–…«»¿¡§¶†‡•‰′″‹›",
    "code": "torch.compile() x86_64 C++ C# sm_107 all_gather_single(x)->y != z; a::b<T>::c @decorator",
    "turkish": "İstanbul İ ı I i ǰ",
    "german": "Straße STRASSE ß ẞ",
    "fullwidth": "ＡＢＣ１２３！？（）ｆｕｌｌ",
    "digraphs": "Ǆ ǅ ǆ Ǳ ǲ ǳ",
    "greek": "ΟΔΟΣ Σ σς ΣΑΣ ὈΔΥΣΣΕΎΣ",
    "replacement char": "bad\ufffdbyte",
    "private use": "a\ue000b \U000f0000",
    "unassigned": "a\u0378b \U0001fb99",
    "hangul jamo": "\u1100\u1161\u11a8 \uac00",
    "math": "∑∫√ ≤≥ ∞ ℕ ℝ ⅓ ² ₂",
    "ligatures": "ﬁle ﬂow Æther œuvre",
    "mixed scripts": "Привет мир שלום عالم नमस्ते ไทย",
    "version numbers": "v2.14.0rc1 ~=3.11 >=1.24,<2 py3-none-any",
    "urls": "https://pytorch.org/blog/pytorch-2.14/?a=b#c user@example.com",
}


@pytest.fixture(scope="module")
def library():
    """The library's tokenizer of the bundled model, set up as before (truncation, no padding)."""
    return load_tokenizer(BUNDLED, MAX_LENGTH)[0]


@pytest.fixture(scope="module")
def ours() -> WordPieceTokenizer:
    tokenizer, pad_id = load_query_tokenizer(BUNDLED, MAX_LENGTH)
    assert isinstance(tokenizer, WordPieceTokenizer) and pad_id == 0
    return tokenizer


def _same(ours: WordPieceTokenizer, library, texts: list[str]) -> None:
    """Our own split of every text gives the library's ids, attention mask and type ids."""
    want = library.encode_batch(texts)
    for text, w in zip(texts, want):
        got = ours.split(text)
        assert (list(got.ids), list(got.attention_mask), list(got.type_ids)) == (w.ids, w.attention_mask,
                                                                               w.type_ids), repr(text[:200])


def _bundled_sentences() -> list[str]:
    """Every sentence of the bundled corpus's chunks, and the chunks whole (some past 256 pieces)."""
    chunks = [c.text for c in load_chunks(None)]
    return [s.text for text in chunks for s in split_sentences(text)] + chunks


def test_the_bundled_corpus_gives_the_library_ids(ours, library) -> None:
    texts = _bundled_sentences()
    assert len(texts) > 500
    _same(ours, library, texts)
    assert max(len(library.encode(t).ids) for t in texts) == MAX_LENGTH  # truncation was reached


def _shared_texts() -> list[str]:
    """Paragraphs of the shared data's text files, the string fields of its JSON lines."""
    texts = []
    for path in sorted(p for p in SHARED_DATA.rglob("*") if p.is_file()):
        raw = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix == ".jsonl":
            texts += [v for line in raw.splitlines() if line.strip()
                      for v in json.loads(line).values() if isinstance(v, str)]
        elif path.suffix in {".md", ".rst", ".txt", ".tsv"}:
            texts += [p for p in raw.split("\n\n") if p.strip()]
    return texts


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="no ../shared/data")
def test_the_shared_data_gives_the_library_ids(ours, library) -> None:
    texts = _shared_texts()
    assert len(texts) > 1000
    _same(ours, library, texts)


@pytest.mark.parametrize("text", HARD.values(), ids=HARD.keys())
def test_hard_cases_give_the_library_ids(ours, library, text) -> None:
    _same(ours, library, [text, f"x {text} y", text.upper(), text.lower()])
    got = ours.encode(text)
    assert isinstance(got, Encoding), "a hard case left to the library"
    assert list(got.ids) == library.encode(text).ids


def test_encode_batch_is_encode_of_each(ours, library) -> None:
    texts = list(HARD.values())
    assert [e.ids for e in ours.encode_batch(texts)] == [ours.encode(t).ids for t in texts]
    assert ours.encode("").ids == (101, 102)  # [CLS] [SEP]


def _variant(tmp_path: Path, changes: dict) -> Path:
    """The bundled tokenizer.json with top-level entries replaced and normalizer options changed
    (the whole normalizer replaced when the change names its type)."""
    spec = json.loads(BUNDLED.read_text(encoding="utf-8"))
    changes = dict(changes)
    normalizer = changes.pop("normalizer", {})
    spec["normalizer"] = normalizer if "type" in normalizer else {**spec["normalizer"], **normalizer}
    spec.update(changes)
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


VARIANTS = {
    "cased": {"normalizer": {"lowercase": False}},
    "lowercase, accents kept": {"normalizer": {"strip_accents": False}},
    "cased, accents stripped": {"normalizer": {"strip_accents": True, "lowercase": False}},
    "BertProcessing": {"post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]}},
    "no padding, no truncation": {"padding": None, "truncation": None},
    "added words": {"added_tokens": [
        *json.loads(BUNDLED.read_text(encoding="utf-8"))["added_tokens"],
        *({"id": 30522 + n, "special": False, "content": word, "single_word": False, "lstrip": False,
           "rstrip": False, "normalized": False} for n, word in enumerate(["torch.compile", "[MASK]ed", "Café"]))]},
    "three specials": {"post_processor": {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 1}},
                   {"SpecialToken": {"id": "[SEP]", "type_id": 1}}, {"SpecialToken": {"id": "[MASK]", "type_id": 0}}],
        "pair": [], "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [101], "tokens": ["[CLS]"]},
                                       "[SEP]": {"id": "[SEP]", "ids": [102], "tokens": ["[SEP]"]},
                                       "[MASK]": {"id": "[MASK]", "ids": [103], "tokens": ["[MASK]"]}}}},
}


@pytest.mark.parametrize("changes", VARIANTS.values(), ids=VARIANTS.keys())
def test_the_variants_it_takes_give_the_library_ids(tmp_path, changes) -> None:
    path = _variant(tmp_path, changes)
    tokenizer, pad_id = load_query_tokenizer(path, MAX_LENGTH)
    assert isinstance(tokenizer, WordPieceTokenizer) and pad_id == 0
    texts = [*HARD.values(), *(t.upper() for t in HARD.values()), *_bundled_sentences()[:300],
             "torch.compile()[MASK]ed [MASK]e Café café torch.compiled"]
    _same(tokenizer, load_tokenizer(path, MAX_LENGTH)[0], texts)


OTHERS = {
    "NFKC normalizer": {"normalizer": {"type": "NFKC"}},
    "no text cleaning": {"normalizer": {"clean_text": False}},
    "CJK not spaced": {"normalizer": {"handle_chinese_chars": False}},
    "whitespace pre-tokenizer": {"pre_tokenizer": {"type": "Whitespace"}},
    "normalized added token": {"added_tokens": [{"id": 0, "special": True, "content": "[PAD]", "single_word": False,
                                                 "lstrip": False, "rstrip": False, "normalized": True}]},
    "no post-processor": {"post_processor": None},
    "RoBERTa post-processor": {"post_processor": {"type": "RobertaProcessing", "sep": ["[SEP]", 102],
                                                  "cls": ["[CLS]", 101], "trim_offsets": True, "add_prefix_space": False}},
}


@pytest.mark.parametrize("changes", OTHERS.values(), ids=OTHERS.keys())
def test_any_other_pipeline_goes_to_the_library(tmp_path, changes) -> None:
    tokenizer, _ = load_query_tokenizer(_variant(tmp_path, changes), MAX_LENGTH)
    assert isinstance(tokenizer, tokenizers.Tokenizer)
    assert tokenizer.truncation["max_length"] == MAX_LENGTH and tokenizer.padding is None


def test_a_max_length_with_no_room_for_a_text_goes_to_the_library() -> None:
    tokenizer, _ = load_query_tokenizer(BUNDLED, 2)  # [CLS] and [SEP] fill it
    assert isinstance(tokenizer, tokenizers.Tokenizer) and tokenizer.truncation["max_length"] == 2


def _unsure(code: int) -> bool:
    return any(a <= code <= b for a, b in UNSURE_RANGES)


def test_a_text_with_an_unsure_character_is_tokenized_by_the_library(ours, library) -> None:
    text = "a dash\u2e43with a left upturn"  # Po to Python 14, a letter to the library's tables
    assert _unsure(0x2E43)
    assert list(ours.split(text).ids) != library.encode(text).ids  # why the table exists
    got = ours.encode(text)
    assert isinstance(got, tokenizers.Encoding) and got.ids == library.encode(text).ids
    with pytest.raises(TypeError):  # a lone surrogate: the library's error, as before
        ours.encode("a\ud800b")


def test_under_another_unicode_only_ascii_texts_are_split_in_python(ours, monkeypatch) -> None:
    from index.encode import wordpiece

    monkeypatch.setattr(wordpiece, "UNICODE_VERSION", "0.0.0")  # the table was made with another Python
    assert isinstance(ours.encode("torch.compile() in 2.14"), Encoding)
    assert isinstance(ours.encode("café"), tokenizers.Encoding)


def test_the_table_still_holds_for_the_installed_library(ours, library) -> None:
    """Outside the table, our split is the library's on every code point whose classes matter
    (punctuation, marks, separators, controls and formats, cased or decomposable; private use in
    the BMP only) and on every 31st of the others (benchmarks/wordpiece_unsure.py checks them all)."""
    codes = []
    for code in range(0x110000):
        c, kind = chr(code), unicodedata.category(chr(code))
        if _unsure(code):
            continue
        if (kind[0] in "PMZ" or kind in ("Cc", "Cf") or (kind == "Co" and code < 0x10000) or c.lower() != c
                or unicodedata.decomposition(c) or code % 31 == 0):
            codes.append(code)
    assert len(codes) > 40_000
    _same(ours, library, [f"a{chr(code)}b" for code in codes])


def test_the_numpy_encoder_asks_without_loading_tokenizers(bundled_index) -> None:
    probe = (
        "import sys\n"
        "from index.retrieve.reader import LoadedIndex\n"
        f"encoder = LoadedIndex({str(bundled_index)!r}).encoder()\n"
        "vector = encoder.encode_query('when is the live Q&A webinar for 2.14? café 日本 🚀')\n"
        "print(type(encoder).__name__, type(encoder._tokenizer).__name__, 'tokenizers' in sys.modules)\n"
        "encoder.encode_query('a dash\\u2e43with a left upturn')\n"
        "print('tokenizers' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["NumpyQueryEncoder", "WordPieceTokenizer", "False", "True"]
