"""The shared vector stores in the cache (``relnotes cache list`` / ``prune``): one per model,
their texts, size and last use; pruning the pieces not used for a while, or whole stores."""

from __future__ import annotations

from dataclasses import dataclass

from ..store.shared import SharedVectors, StoreInfo, list_stores, remove_store


@dataclass(frozen=True, slots=True)
class PrunedStore:
    """What a prune removed from one store (``whole``: the store itself)."""

    store: StoreInfo
    pieces: int
    bytes: int
    whole: bool = False


def prune_stores(older_than_days: float | None, *, everything: bool = False,
                 dry_run: bool = False) -> tuple[list[PrunedStore], list[StoreInfo]]:
    """Remove the pieces of every store not used for ``older_than_days`` (whole stores with
    ``everything``); (what was removed, the stores a build holds now, left alone). An index keeps
    its own vectors: pruning only makes the next index of those texts embed them again."""
    if older_than_days is None and not everything:
        raise ValueError("say which: older_than_days or everything")
    removed, busy = [], []
    for info in list_stores():
        if everything:
            if dry_run or remove_store(info):
                removed.append(PrunedStore(info, info.pieces, info.bytes, whole=True))
            else:
                busy.append(info)
            continue
        done = SharedVectors(info.directory, info.model).prune(older_than_days, dry_run=dry_run)
        if done is None:
            busy.append(info)
        elif done[0]:
            removed.append(PrunedStore(info, *done))
    return removed, busy
