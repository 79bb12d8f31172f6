"""Sense check: is a matched idiom meant figuratively in this sentence, or literally?

"The fisherman landed a big fish" should not be rewritten as "an important person". :class:`SenseCheck` is a
logistic regression over sparse, model-free features (:func:`features`) of one sentence and the matched span:

- ``window``: the words and bigrams within five words left and right (separately; the nearest two by position);
- ``span``: whether the idiom's words are inflected or split by inserted words, the span with its idiom words
  masked ("X all X"), its capitalisation (Title Case mid-sentence is usually a name), quotes and brackets;
- ``cues``: cue words anywhere ("literally", "so-called", "called", "literalmente"...) and how many words are
  capitalised; ``lang``: EN or PT;
- ``idiom``: the idiom's own words, and whether they (or words sharing their first four letters) recur in the
  sentence;
- ``sentence``: the bag of the sentence's other words.

It is stored as one JSON file (feature names, weights, threshold, groups, training summary) and scored in pure
Python: no model, no pickle. :func:`idiomkit.idioms.sense_training.train_sense_check` fits it on SemEval-2022 2A
train (zero-shot), the ITU literal/figurative sentences, the mt-ambiguity figurative/literal contexts and the EPIE
formal usages, every source through :func:`~idiomkit.data.heldout.filter_heldout`; the feature groups, C and the
threshold are chosen on 15% of the training idioms (by a fixed hash), and 2A dev (whose idioms are unseen) is only
evaluated. The shipped weights name words of those sources' sentences, so the sources' licences apply to
``sense.json``.

Example::

    sentence = "The fisherman landed a big fish."
    match = Matcher(Lexicon.from_pairs([("big fish", "an important person")])).find(sentence)[0]
    default_sense_check().is_figurative(sentence, match)  # False
"""

from __future__ import annotations

import json
import logging
import math
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, Protocol

from idiomkit.data.csvio import JSON_TOO_DEEP
from idiomkit.data.errors import DataError
from idiomkit.data.keys import normalise_idiom
from idiomkit.idioms.matcher import tokenize
from idiomkit.idioms.morphology import pt_forms
from idiomkit.idioms.morphology_en import en_forms
from idiomkit.results import atomic_write_text

log = logging.getLogger(__name__)

FORMAT = "idiomkit-sense-check"
VERSION = 1
RESOURCE = Path(__file__).parent / "resources" / "sense.json"
GROUPS = ("window", "span", "cues", "lang", "idiom", "sentence")
DEFAULT_GROUPS = ("window", "span", "cues", "lang", "idiom")
WINDOW = 5  # context words on each side
LONG_TEXT = 2_000  # characters: SenseCheck.score indexes a text this long once for all its matches (_TextIndex)

# --- features -------------------------------------------------------------------------------------------------

_WORD = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")
_DIGIT = re.compile(r"\d")
_QUOTES = frozenset("\"'“”‘’«»„`")
_SKIP = frozenset(
    ("a", "an", "the", "this", "that", "these", "those", "my", "your", "his", "her", "its", "our", "their", "one's")
    + ("o", "os", "as", "um", "uma", "uns", "umas")
)  # articles and possessives: not counted as inserted words or in the masked span
CUES = {
    "literal": ("literally", "literal", "literalmente", "actual", "actually", "real", "real-life", "physical"),
    "figurative": (
        "figuratively",
        "figurative",
        "metaphorically",
        "metaphor",
        "metaphorical",
        "proverbial",
        "figurativamente",
        "metaforicamente",
        "figurado",
        "metáfora",
        "so-called",
        "chamado",
        "chamada",
    ),
    "naming": (
        "called",
        "named",
        "known",
        "term",
        "phrase",
        "expression",
        "idiom",
        "saying",
        "coined",
        "dubbed",
        "conhecido",
        "conhecida",
        "termo",
        "expressão",
        "ditado",
        "denominado",
        "apelidado",
    ),
}
_CUE_OF = {word: kind for kind, words in CUES.items() for word in words}


class Span(Protocol):
    """What the sense check reads of a match: :class:`~idiomkit.idioms.matcher.Match` has it."""

    start: int
    end: int
    idiom: str
    language: str


def _words(text: str) -> list[str]:
    """Lower-cased word and punctuation tokens, digits as 0."""
    return [_DIGIT.sub("0", w) for w in _WORD.findall(text.lower().replace("’", "'"))]


def _window(side: str, words: list[str]) -> set[str]:
    """Position (1, 2), bag and bigram features of the context words on one side, nearest first."""
    edge = "<s>" if side == "L" else "</s>"
    near = (words[::-1] if side == "L" else words)[:WINDOW]
    padded = near + ([edge] if len(near) < WINDOW else [])
    out = {f"{side}1={padded[0]}"} | ({f"{side}2={padded[1]}"} if len(padded) > 1 else set())
    out |= {f"{side}w={w}" for w in near}
    out |= {f"{side}b={a}_{b}" for a, b in zip(padded, padded[1:], strict=False)}
    return out


def _shape(text: str) -> str:
    """Capitalisation of the span's words: lower, title, upper or mixed."""
    words = [w for w in re.findall(r"[^\W\d_]+", text) if w.lower() not in _SKIP]
    if not words or all(w.islower() for w in words):
        return "lower"
    if all(w.isupper() and len(w) > 1 for w in words):
        return "upper"
    return "title" if all(w[0].isupper() for w in words) else "mixed"


def word_forms(word: str, language: str) -> frozenset[str]:
    """Every surface form an idiom word may take in ``language`` (``PT``: :func:`~idiomkit.idioms.morphology.pt_forms`,
    else :func:`~idiomkit.idioms.morphology_en.en_forms`): what the span features and the training's idiom
    locating accept as the idiom's word.

    Example::

        "kicked" in word_forms("kick", "EN"), "chutou" in word_forms("chutar", "PT")  # True, True
    """
    return pt_forms(word) if language == "PT" else en_forms(word)


def _span_features(sentence: str, start: int, end: int, idiom: str, language: str) -> set[str]:
    """Inflection, inserted words, the masked span, capitalisation, quotes and brackets around it."""
    before, after = sentence[:start].rstrip(), sentence[end:].lstrip()
    return _span_shape(
        sentence[start:end],
        idiom,
        language,
        before[-1:],
        after[:1],
        not re.search(r"\w", before),
        not re.search(r"\w", after),
    )


def _span_shape(
    span: str, idiom: str, language: str, before: str, after: str, at_start: bool, at_end: bool
) -> set[str]:
    """:func:`_span_features` of the span's text, given the nearest non-space character before and after it ("" for
    none) and whether no word comes before / after it."""
    idiom_words = normalise_idiom(idiom).split()
    span_words = [t for t, _, _ in tokenize(span)]
    forms = frozenset().union(*(word_forms(w, language) for w in idiom_words))
    inserted = [w for w in span_words if w not in forms and w not in _SKIP]
    masked = " ".join("X" if w in forms else w for w in span_words if w not in _SKIP)
    out = {f"shape={_shape(span)}{'@start' if at_start else ''}", f"masked={masked}"}
    out.add(f"inserted={min(len(inserted), 2)}")
    if any(w not in span_words for w in idiom_words):
        out.add("inflected")
    if span_words and idiom_words and span_words[-1] != idiom_words[-1] and span_words[-1].endswith("s"):
        out.add("plural")
    quote_before, quote_after = before in _QUOTES, after in _QUOTES
    out |= {"quote_before"} if quote_before else set()
    out |= {"quote_after"} if quote_after else set()
    out |= {"quoted"} if quote_before and quote_after else set()
    out |= {"bracketed"} if before == "(" or after == ")" else set()
    out |= {"hyphen"} if "-" in span else set()
    out |= {"at_end"} if at_end else set()
    return out


def _caps(sentence: str) -> str:
    """The capitalised-word ratio feature (0..3: fifths of the words, capped)."""
    caps = re.findall(r"\b[^\W\d_]+", sentence)
    ratio = sum(w[0].isupper() for w in caps) / max(1, len(caps))
    return f"caps={min(int(ratio * 5), 3)}"


def _sentence_features(caps: str, words: Iterable[str], groups: Sequence[str]) -> set[str]:
    """Cue words, the capitalised-word ratio (:func:`_caps`) and the bag of sentence words (``sentence`` group)."""
    out: set[str] = set()
    words = list(words)
    if "cues" in groups:
        out |= {f"cue={_CUE_OF[w]}" for w in words if w in _CUE_OF}
        out |= {f"cueword={w}" for w in words if w in _CUE_OF}
        out.add(caps)
    if "sentence" in groups:
        out |= {f"S={w}" for w in words if re.match(r"\w", w)}
    return out


class _Bag:
    """The distinct tokens outside a span: those ``count`` (the text's) has more often than ``inside`` (the
    span's); ``by_prefix``: the text's distinct tokens of 4+ characters by their first four."""

    def __init__(
        self, count: Mapping[str, int], inside: Mapping[str, int], by_prefix: Mapping[str, Sequence[str]]
    ) -> None:
        self.count, self.inside, self.by_prefix = count, inside, by_prefix

    @classmethod
    def of(cls, tokens: Iterable[str]) -> _Bag:
        count = Counter(tokens)
        return cls(count, {}, _by_prefix(count))

    def __contains__(self, token: object) -> bool:
        return self.count.get(token, 0) > self.inside.get(token, 0)  # type: ignore[call-overload]

    def with_prefix(self, prefix: str) -> int:
        """How many of the distinct tokens outside the span have 4+ characters and begin with ``prefix``."""
        return sum(1 for t in self.by_prefix.get(prefix, ()) if t in self)


def _by_prefix(tokens: Iterable[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for t in tokens:
        if len(t) >= 4:
            out.setdefault(t[:4], []).append(t)
    return out


def _idiom_features(idiom: str, language: str, outside: _Bag) -> set[str]:
    """The idiom's words and their number, and whether they (or words sharing their first four letters: "fish",
    "fisherman") recur outside the span: a literal use tends to talk about what the words name."""
    words = normalise_idiom(idiom).split()
    out = {f"I={w}" for w in words} | {f"Iwords={min(len(words), 4)}"}
    if any(f in outside for w in words if w not in _SKIP for f in word_forms(w, language)):
        out.add("repeated")
    related = sum(outside.with_prefix(stem) for stem in {w[:4] for w in words if len(w) >= 4})
    if related:
        out.add(f"related={min(related, 3)}")
    return out


def features(
    sentence: str, start: int, end: int, idiom: str, language: str, groups: Sequence[str] = DEFAULT_GROUPS
) -> list[str]:
    """The sorted feature names of the idiom ``idiom`` at ``sentence[start:end]`` (see the module docstring)."""
    left, right = _words(sentence[:start]), _words(sentence[end:])
    out: set[str] = set()
    if "window" in groups:
        out |= _window("L", left) | _window("R", right)
    if "span" in groups:
        out |= _span_features(sentence, start, end, idiom, language)
    if "lang" in groups:
        out.add(f"lang={language}")
    out |= _sentence_features(_caps(sentence) if "cues" in groups else "", left + right, groups)
    if "idiom" in groups:
        out |= _idiom_features(
            idiom, language, _Bag.of(t for t, _, _ in tokenize(sentence[:start] + " " + sentence[end:]))
        )
    return sorted(out)


class _TextIndex:
    """A long text's words and tokens, counted once, so that the features of each of its matches cost about the
    size of the match instead of the size of the text (``idiomkit read`` of a document with a thousand idioms).

    :meth:`features` gives exactly :func:`features`' list; the bag of the sentence's words (``S=`` features, one
    contiguous run of the sorted list) is the text's, less the words that occur only inside the span, and
    :meth:`terms` gives the weights of that list in its order, so that their sum is the same number. A text whose
    lower-casing changes its length or depends on context (a capital sigma) is not indexed, nor a span that cuts a
    word (``usable``, and :meth:`features` returns None): :func:`features` reads those."""

    def __init__(self, text: str, weights: Mapping[str, float]) -> None:
        self.text, self.weights = text, weights
        lowered = text.lower().replace("’", "'")
        self.usable = len(lowered) == len(text) and "\u03a3" not in text
        if not self.usable:
            return
        found = list(_WORD.finditer(lowered))
        self.word_starts, self.word_ends = [m.start() for m in found], [m.end() for m in found]
        self.words = [_DIGIT.sub("0", m.group()) for m in found]
        self.word_count = Counter(self.words)
        tokens = tokenize(text)
        self.token_starts, self.token_ends = [t[1] for t in tokens], [t[2] for t in tokens]
        self.tokens = [t[0] for t in tokens]
        self.token_count = Counter(self.tokens)
        self.by_prefix = _by_prefix(self.token_count)
        first, last = re.search(r"\w", text), re.search(r"\w", text[::-1])
        self.first_word = first.start() if first else len(text)  # at_start: no word character before the span
        self.last_word = len(text) - 1 - last.start() if last else -1
        self.caps = _caps(text)
        self.cues = sorted(w for w in self.word_count if w in _CUE_OF)
        self.bag = sorted(w for w in self.word_count if re.match(r"\w", w))  # the S= features, in sorted order
        self.bag_at = {w: i for i, w in enumerate(self.bag)}
        self.bag_weights = [weights.get(f"S={w}", 0.0) for w in self.bag]

    def _parts(
        self,
        start: int,
        end: int,
        idiom: str,
        language: str,
        groups: Sequence[str],
    ) -> tuple[list[str], list[tuple[int, int]]] | None:
        """The sorted features but the ``S=`` ones, and the runs of :attr:`bag` that are the ``S=`` ones."""
        if not self.usable or not 0 <= start <= end <= len(self.text):
            return None
        ws, we, ts, te = self.word_starts, self.word_ends, self.token_starts, self.token_ends
        i, j, a, b = bisect_left(ws, start), bisect_left(ws, end), bisect_left(ts, start), bisect_left(ts, end)
        if (i and we[i - 1] > start) or (j and we[j - 1] > end) or (a and te[a - 1] > start) or (b and te[b - 1] > end):
            return None  # the span cuts a word or a token
        text, inside = self.text, Counter(self.words[i:j])
        out: set[str] = set()
        if "window" in groups:
            out |= _window("L", self.words[max(0, i - WINDOW) : i]) | _window("R", self.words[j : j + WINDOW])
        if "span" in groups:
            out |= _span_shape(
                text[start:end],
                idiom,
                language,
                self._edge(start, -1),
                self._edge(end, 1),
                self.first_word >= start,
                self.last_word < end,
            )
        if "lang" in groups:
            out.add(f"lang={language}")
        outside = _Bag(self.word_count, inside, {})
        out |= _sentence_features(
            self.caps, [w for w in self.cues if w in outside], [g for g in groups if g != "sentence"]
        )
        if "idiom" in groups:
            out |= _idiom_features(idiom, language, _Bag(self.token_count, Counter(self.tokens[a:b]), self.by_prefix))
        runs: list[tuple[int, int]] = []
        if "sentence" in groups:
            at = 0
            for k in sorted(self.bag_at[w] for w in inside if w in self.bag_at and w not in outside):
                runs.append((at, k))
                at = k + 1
            runs.append((at, len(self.bag)))
        return sorted(out), runs

    def _edge(self, at: int, step: int) -> str:
        """The nearest non-space character before (``step`` -1) or from (1) ``at``; "" when there is none."""
        text, k = self.text, at - 1 if step < 0 else at
        while 0 <= k < len(text) and text[k].isspace():
            k += step
        return text[k] if 0 <= k < len(text) else ""

    def features(
        self, start: int, end: int, idiom: str, language: str, groups: Sequence[str] = DEFAULT_GROUPS
    ) -> list[str] | None:
        """:func:`features` of the span ``text[start:end]``; None when it cannot be read from the index."""
        parts = self._parts(start, end, idiom, language, groups)
        if parts is None:
            return None
        names, runs = parts
        k = bisect_left(names, "S=")  # every other feature sorts before "S=..." (uppercase) or after (lowercase)
        return [*names[:k], *(f"S={w}" for a, b in runs for w in self.bag[a:b]), *names[k:]]

    def terms(self, start: int, end: int, idiom: str, language: str, groups: Sequence[str]) -> Iterator[float] | None:
        """The weights of :meth:`features`' list in its order (0.0 for a feature without one), or None."""
        parts = self._parts(start, end, idiom, language, groups)
        if parts is None:
            return None
        names, runs = parts
        k, weights = bisect_left(names, "S="), self.weights
        return chain(
            (weights.get(f, 0.0) for f in names[:k]),
            *(self.bag_weights[a:b] for a, b in runs),
            (weights.get(f, 0.0) for f in names[k:]),
        )


# --- the model ------------------------------------------------------------------------------------------------


@dataclass
class SenseCheck:
    """A logistic model of "the idiom is meant figuratively" over :func:`features` (see the module docstring).

    Args:
        weights: feature name -> weight (features not listed weigh 0).
        bias: the intercept.
        threshold: :meth:`is_figurative` is ``figurative_probability >= threshold``.
        groups: the feature groups the weights were trained on.
        summary: how it was trained (sources, sizes, C, validation numbers).
    """

    weights: dict[str, float]
    bias: float
    threshold: float = 0.5
    groups: tuple[str, ...] = DEFAULT_GROUPS
    summary: dict[str, Any] = field(default_factory=dict)
    _index: _TextIndex | None = field(default=None, init=False, repr=False, compare=False)

    def score(self, sentence: str, start: int, end: int, idiom: str, language: str) -> float:
        """The probability for a span given by offsets (the features of a long text's many spans are read from
        one index of it, :class:`_TextIndex`: the same numbers, in linear time)."""
        terms = self._indexed(sentence, start, end, idiom, language)
        if terms is None:
            terms = (self.weights.get(f, 0.0) for f in features(sentence, start, end, idiom, language, self.groups))
        z = self.bias + sum(terms)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def _indexed(self, text: str, start: int, end: int, idiom: str, language: str) -> Iterator[float] | None:
        if len(text) < LONG_TEXT:
            return None
        index = self._index
        if index is None or index.weights is not self.weights or (index.text is not text and index.text != text):
            index = self._index = _TextIndex(text, self.weights)
        return index.terms(start, end, idiom, language, self.groups)

    def figurative_probability(self, sentence: str, match: Span) -> float:
        """The probability that ``match`` (a span of ``sentence``) is meant figuratively."""
        return self.score(sentence, match.start, match.end, match.idiom, match.language)

    def threshold_for(self, language: str) -> float:
        """The threshold of ``language``: the feature model has one for every language."""
        return self.threshold

    def is_figurative(self, sentence: str, match: Span) -> bool:
        """Whether the figurative probability reaches :attr:`threshold`."""
        return self.figurative_probability(sentence, match) >= self.threshold

    def to_json(self) -> dict[str, Any]:
        names = sorted(self.weights, key=lambda f: (-abs(self.weights[f]), f))
        return {
            "format": FORMAT,
            "version": VERSION,
            "threshold": self.threshold,
            "bias": self.bias,
            "groups": list(self.groups),
            "summary": self.summary,
            "features": names,
            "weights": [self.weights[f] for f in names],
        }

    def save(self, path: str | Path) -> Path:
        """Write the model as one JSON file, atomically."""
        text = json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))
        return atomic_write_text(path, text + "\n")

    @classmethod
    def load(cls, path: str | Path) -> SenseCheck:
        """A model written by :meth:`save`; DataError naming the file and field when it is not one."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DataError(path, None, None, f"not a readable sense-check JSON file ({exc})") from None
        except RecursionError:
            raise DataError(path, None, None, JSON_TOO_DEEP) from None
        return cls(**_parse(Path(path), data))


def _field(path: Path, data: dict, name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise DataError(path, None, name, f"missing or not {getattr(kind, '__name__', 'a number')}")
    return value


def _parse(path: Path, data: Any) -> dict[str, Any]:
    """The constructor arguments of a saved model, every field checked."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError(path, None, "format", f"not a sense-check model (expected format '{FORMAT}')")
    if data.get("version") != VERSION:
        raise DataError(path, None, "version", f"{data.get('version')!r} (this code reads version {VERSION})")
    names, weights = _field(path, data, "features", list), _field(path, data, "weights", list)
    if len(names) != len(weights) or not all(isinstance(n, str) for n in names):
        raise DataError(path, None, "weights", f"{len(weights)} weights for {len(names)} feature names")
    if not all(isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) for w in weights):
        raise DataError(path, None, "weights", "a weight is not a finite number")
    groups = _field(path, data, "groups", list)
    if unknown := [g for g in groups if g not in GROUPS]:
        raise DataError(path, None, "groups", f"unknown feature group {unknown[0]!r}")
    threshold = float(_field(path, data, "threshold", (int, float)))
    if not 0.0 <= threshold <= 1.0:  # NaN too
        raise DataError(path, None, "threshold", f"{threshold} is not within [0, 1]")
    bias = float(_field(path, data, "bias", (int, float)))
    if not math.isfinite(bias):  # NaN or inf would call every match figurative (or none)
        raise DataError(path, None, "bias", f"{bias} is not a finite number")
    return {
        "weights": dict(zip(names, map(float, weights), strict=True)),
        "threshold": threshold,
        "bias": bias,
        "groups": tuple(groups),
        "summary": _field(path, data, "summary", dict),
    }


def default_sense_check() -> SenseCheck:
    """The shipped model (``idioms/resources/sense.json``, written by ``benchmarks/sense/sense_check.py``)."""
    return SenseCheck.load(RESOURCE)
