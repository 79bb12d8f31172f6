"""adaptive-triplet: the hand-made training pairs (unit/training, integration/training, unit recipes)."""

from idiomkit.data.semeval2022 import TrainPair


def tp(i, s1, s2, sim, alt1=None, alt2=None, mwe="home run"):
    return TrainPair(str(i), mwe, None, "EN", s1, s2, sim, alt1, alt2)


HAND = [
    tp(1, "Ruth's home run record.", "Ruth's baseball run record.", 1.0),
    tp(
        2,
        "Ruth's home run record.",
        "Ruth's house run record.",
        None,
        "Ruth's baseball run record.",
        "Ruth's house run record.",
    ),
    tp(3, "The small fry win.", "The insignificant win.", 1.0, mwe="small fry"),
    tp(
        4,
        "The small fry win.",
        "The little fry win.",
        None,
        "The insignificant win.",
        "The little fry win.",
        mwe="small fry",
    ),
    tp(
        5,
        "The small fry win.",
        "The little kid win.",
        None,
        "The insignificant win.",
        "The little kid win.",
        mwe="small fry",
    ),
]
