"""Text normalisation for matching rule sentences across spellings, damage and languages.

Both the query and every layer of every clause go through :func:`fold`, so that
"ђ", "ѣ" and "е" match each other (the OCR damage, the pre-1918 letter and the
modern spelling), final "ъ" disappears, "і" matches "и", case, punctuation
and spacing never matter, and Latin diacritics may be typed or left out
("kąty" = "katy").
"""

from __future__ import annotations

import re
import unicodedata

_OLD_RUSSIAN = str.maketrans({
    "ђ": "е", "ѣ": "е", "ё": "е", "є": "е",
    "і": "и", "ї": "и", "ѵ": "и", "й": "и",
    "ѳ": "ф",
    "ł": "l",
})
_HARD_SIGN_AT_END = re.compile(r"ъ\b")
_NON_WORD = re.compile(r"[\W_]+")


def _strip_latin_marks(text: str) -> str:
    out = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def fold(text: str) -> str:
    """The matching form of ``text``: lower case, old and damaged letters mapped, words separated by one space."""
    t = text.casefold().translate(_OLD_RUSSIAN)
    t = _HARD_SIGN_AT_END.sub("", t)
    t = _strip_latin_marks(t)
    t = _NON_WORD.sub(" ", t)
    return " ".join(t.split())
