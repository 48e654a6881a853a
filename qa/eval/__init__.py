"""Evaluation: question sets (``questions``), the run over modes (``run``), metrics, and BEIR datasets."""
