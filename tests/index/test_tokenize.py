"""Tests for the code-aware tokenizer shared by documents and queries."""

import json

import pytest

from index.retrieve.tokenizer import TOKENIZER_VERSION, make_tokenizer, tokenize, tokenizer_settings

CASES = {
    "torch.compile": ["torch.compile", "torch", "compil"],
    "all_gather_single": ["all_gather_single", "all", "gather", "singl"],
    "sm_107": ["sm_107", "sm", "107"],
    "cu130": ["cu130", "cu", "130"],
    "F.linear": ["f.linear", "f", "linear"],
    "torch::stable::Tensor": ["torch::stable::tensor", "torch", "stabl", "tensor"],
    "nccl2": ["nccl2", "nccl", "2"],
    "fp16": ["fp16", "fp", "16"],
    "2.14": ["2.14"],
    "v2.14.0": ["v2.14.0", "2.14.0", "2.14"],
    "--flag-name": ["flag-name", "flag", "name"],
    "CamelCase": ["camelcas", "camel", "case"],
    "MPSGraph": ["mpsgraph", "mps", "graph"],
    "torch.MPSGraph": ["torch.mpsgraph", "torch", "mpsgraph", "mps", "graph"],
    "0.5mg": ["0.5mg", "0.5", "mg"],
}


@pytest.mark.parametrize("text,expected", CASES.items(), ids=list(CASES))
def test_code_tokens_whole_and_parts(text, expected):
    assert tokenize(text) == expected


@pytest.mark.parametrize(
    "whole,part",
    [
        ("torch.compile", "compile"),
        ("torch.compile", "torch"),
        ("all_gather_single", "gather"),
        ("sm_107", "sm"),
        ("cu130", "130"),
        ("torch::stable::Tensor", "Tensor"),
        ("F.linear", "linear"),
        ("nccl2", "NCCL"),
        ("--flag-name", "flag"),
        ("CamelCase", "camel"),
        ("MPSGraph", "graph"),
    ],
)
def test_a_part_in_a_query_matches_the_whole_in_a_document(whole, part):
    assert set(tokenize(part)) <= set(tokenize(f"We added {whole} here."))


@pytest.mark.parametrize("whole", ["torch.compile", "all_gather_single", "sm_107", "F.linear", "2.14"])
def test_the_whole_token_matches(whole):
    assert whole.lower() in tokenize(f"See `{whole}`.")


def test_version_numbers_stay_whole():
    tokens = tokenize("PyTorch 2.14 and 2.9")
    assert "2.14" in tokens and "2.9" in tokens
    assert "14" not in tokens and "9" not in tokens


def test_sentence_final_period_is_not_part_of_the_token():
    assert tokenize("Use torch.compile.") == tokenize("Use torch.compile")


def test_lowercase_stemming_and_stop_words():
    assert tokenize("The Compiled") == tokenize("compiles")
    assert tokenize("the of and is") == ["of"]


def test_markdown_noise_is_stripped_link_text_kept():
    assert tokenize("**`torch.compile`** is _fast_") == tokenize("torch.compile is fast")
    tokens = tokenize("see the [release notes](https://github.com/pytorch/pytorch/releases/tag/v2.14.0)")
    assert tokens == tokenize("see the release notes")
    assert tokenize("visit https://pytorch.org/get-started now") == tokenize("visit now")
    assert tokenize("line<br/>break <b>bold</b>") == tokenize("line break bold")


def test_possessive_is_dropped():
    assert tokenize("PyTorch's compiler") == tokenize("PyTorch compiler")


def test_unicode_letters_are_tokens():
    assert tokenize("TNF-α") == ["tnf-α", "tnf", "α"]


def test_empty_text():
    assert tokenize("") == [] and tokenize("  ** `` ") == []


def test_settings_are_json_and_versioned():
    settings = tokenizer_settings()
    assert json.loads(json.dumps(settings)) == settings
    assert isinstance(TOKENIZER_VERSION, str) and TOKENIZER_VERSION


def test_options():
    assert make_tokenizer(split_alnum=False)("cu130 sm_107") == ["cu130", "sm_107", "sm", "107"]
    assert make_tokenizer(parts=False)("torch.compile CamelCase") == ["torch.compile", "camelcas"]
    assert make_tokenizer(stemmer=None, stopwords=None)("The compiled") == ["the", "compiled"]
    with pytest.raises(ValueError, match="lucene"):
        make_tokenizer(stopwords="nltk")


@pytest.mark.parametrize("typed", ["flexattention", "FlexAttention", "Flexattention"])
def test_a_compound_typed_in_lower_case_matches_the_document_form(typed):
    """Users type "flexattention"; the document says "FlexAttention": the whole tokens must agree."""
    assert tokenize(typed)[0] == tokenize("FlexAttention")[0]
    assert tokenize(f"x.{typed}")[2] == tokenize("x.FlexAttention")[2]
