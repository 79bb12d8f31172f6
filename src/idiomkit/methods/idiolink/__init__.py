"""Trained systems for IdioLink retrieval (BM25, usage re-ranking, twin expansion)."""
