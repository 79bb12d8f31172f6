"""Turning text into vectors: pooling modules (:mod:`.pooling`), span embeddings (:mod:`.spans`), batched text
encoding (:mod:`.encode`), MWE tokens (:mod:`.mwe`) and embedding caches (:mod:`.cache`).

Import from the submodules; this package re-exports nothing (so that importing one never loads the others). It
declares :data:`POOLINGS` here, without torch, so that the command line can offer them before a model is needed.
"""

POOLINGS = ("mean", "last2")  # the sentence poolings of :func:`idiomkit.embedding.pooling.with_pooling`
