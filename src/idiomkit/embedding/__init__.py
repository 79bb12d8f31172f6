"""Turning text into vectors: pooling modules (:mod:`.pooling`), span embeddings (:mod:`.spans`), batched text
encoding (:mod:`.encode`), MWE tokens (:mod:`.mwe`) and embedding caches (:mod:`.cache`).

Import from the submodules; this package re-exports nothing (so that importing one never loads the others).
"""
