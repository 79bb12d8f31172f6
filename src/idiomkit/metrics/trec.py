"""Retrieval runs and the TREC run-file format (``qid Q0 docid rank score tag``)."""

from __future__ import annotations

Run = dict[str, list[tuple[str, float]]]  # query id -> ranked (doc id, score), best first


def trec_run(run: Run, tag: str = "idiomkit") -> str:
    """A TREC run file: ``qid Q0 docid rank score tag`` (rank from 1)."""
    lines = [
        f"{qid} Q0 {doc} {rank} {score:.6f} {tag}"
        for qid, docs in run.items()
        for rank, (doc, score) in enumerate(docs, start=1)
    ]
    return "\n".join(lines) + "\n"


def read_trec_run(text: str) -> Run:
    """Parse :func:`trec_run` output back (order by rank)."""
    rows: dict[str, list[tuple[int, str, float]]] = {}
    for line in text.splitlines():
        if line.strip():
            qid, _, doc, rank, score, *_ = line.split()
            rows.setdefault(qid, []).append((int(rank), doc, float(score)))
    return {q: [(d, s) for _, d, s in sorted(r)] for q, r in rows.items()}
