"""Sentences of a passage: the splitter lives in ``corpus.sentences`` (the index embeds them at build time)."""

from corpus.sentences import Span, split_sentences

__all__ = ["Span", "split_sentences"]
