"""Sense matcher: one hand-made 2A shot (unit/methods, integration/methods)."""

from idiomkit.data.semeval2a import Example2A


def shot_example(i, mwe, label, target=None):
    return Example2A(str(i), "EN", mwe, "", target or f"The {mwe} here {i}.", "", label, "zero_shot")
