"""What a question sets its change against or tells as context, not what it asks: "when was collate actually
removed, not just deprecated?", "bring back X after removing it in 3.0", "so I know what to pin"."""

from __future__ import annotations

import re

from corpus.regex import lazy_compile


# the words of another change a question tells as context ("after removing it in 3.0"): here and ``releases``
OTHER_CHANGE = r"(?:remov|drop|deprecat|delet|add|introduc|renam)\w*"


def without_contrast(question: str) -> str:
    """``question`` without what it sets its change against ("when was collate actually removed,
    not just deprecated?": a removal; "dropped rather than deprecated") or tells as what came
    before ("bring back X after removing it in 3.0"), or what the answer is for ("so I know what to pin"): no
    kind, change or topic of it."""
    return _CONTRAST.sub(" ", question)


_CONTRAST = lazy_compile(r"[,;]?\s*\b(?:(?:and|but)\s+)?(?:not\s+(?:just|only|merely|simply|yet)|rather\s+than"
                         r"|as\s+opposed\s+to)\s+(?:being\s+|been\s+|getting\s+|got\s+)?(?:the\s+|a\s+|an\s+)?[\w-]+"
                         r"(?:\s+[\w-]+(?=\W*$))?"  # "..., not just single jobs?": two words ending the question
                         # "... after removing it in 3.0", "the encoder that was deprecated in 2.2": another
                         # change, told as context (``releases._CONTEXT`` drops its release as a filter)
                         r"|\b(?:after|once|since|that|which)\s+(?:(?:was|were|had\s+been|has\s+been|having\s+been)\s+)?"
                         r"(?:\w+\s+){0,2}?" + OTHER_CHANGE + r"(?:\s+(?:it|them))?\s+in\s+v?\d+(?:\.\d+)*"
                         r"|\b(?:after|once)\s+(?:\w+\s+){0,2}?" + OTHER_CHANGE + r"(?:\s+(?:it|them))?"
                         # "so I can silence its deprecation warnings": no deprecation asked about
                         r"|\b(?:silenc|suppress|ignor|hid|filter|mut)\w*\s+(?:\w+\s+){0,3}?deprecation\s+warn\w*"
                         # "... dropped Python 2 so I know what to pin below?": what the answer is for
                         r"|\bso\s+(?:that\s+)?(?:i|we)\s+know\b(?:[^?!:;,.]|\.(?=\S))*",
                         re.IGNORECASE)
