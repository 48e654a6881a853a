"""Ranking: the tokenizer, BM25, dense and sentence vectors, fusion, filters and the searcher."""
