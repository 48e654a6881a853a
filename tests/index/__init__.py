"""Tests of index/: tokenizer, BM25, dense, fusion, sentence list, build, lifecycle, ONNX."""
