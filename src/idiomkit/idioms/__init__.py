"""Idiom lexicons and an inflection-tolerant idiom matcher (English and Portuguese).

Example::

    from idiomkit.idioms import Lexicon, Matcher

    matcher = Matcher(Lexicon.from_pairs([("kick the bucket", "to die")]))
    matcher.find("He kicked the bucket.")  # [Match(start=3, end=20, text="kicked the bucket", ...)]
"""

from idiomkit.idioms.lexicon import Entry, Lexicon
from idiomkit.idioms.matcher import Match, Matcher

__all__ = ["Entry", "Lexicon", "Match", "Matcher"]
