"""The facts a front end shows about the index it answers from (``qa.service.AnswerService.info``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone


@dataclass(frozen=True, slots=True)
class IndexInfo:
    """The facts a front end shows about the index it answers from."""

    corpus: str
    documents: int
    chunks: int
    created: str | None = None
    stale: bool = False
    directory: str = ""

    def age(self, now: datetime | None = None) -> str:
        """How long ago the index was built, for people: "just now", "5 min ago", "3 days ago"."""
        if not self.created:
            return "unknown age"
        try:
            built = datetime.fromisoformat(self.created.replace("Z", "+00:00"))
        except ValueError:
            return "unknown age"
        if built.tzinfo is None:
            built = built.replace(tzinfo=timezone.utc)
        seconds = max(0.0, ((now or datetime.now(timezone.utc)) - built).total_seconds())
        for unit, size in (("day", 86400), ("h", 3600), ("min", 60)):
            if seconds >= size:
                count = int(seconds // size)
                return f"{count} {unit}{'s' if unit == 'day' and count > 1 else ''} ago"
        return "just now"
