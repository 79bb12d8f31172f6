"""SemEval 2A: one hand-made example (unit/tasks, integration/tasks)."""

from idiomkit.data.semeval2a import Example2A


def example_2a(i, mwe="big fish", label=0, lang="EN", setting="zero_shot", target=None):
    return Example2A(str(i), lang, mwe, "", target or f"A {mwe} here {i}.", "", label, setting)
