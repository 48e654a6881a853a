"""``relnotes index --adapt``: the embedding model adapted to one corpus's items, kept in the cache.

The bundled all-MiniLM-L6-v2 does not bridge a user's words to a changelog's terms well. A short
contrastive fine-tune on the corpus's own items (``index.encode.adapt_pairs``: an item without its
identifiers -> the whole item, in-batch negatives) moves it (docs/decisions/0102-adapt-recipe.md).

    <user cache>/relnotes-qa/models/<key>/   a sentence-transformers folder (safetensors, no
                                             pickle) with adapted.json: base model, recipe, corpus

The key hashes the base model's key, the recipe and the corpus fingerprint, so a corpus trained
once is not trained again; the index's manifest records the adapted model (``model["adapted"]``)
and every later open of that index embeds with it (queries through its ONNX export, like the
bundled model's). The folder is written into a temporary sibling and renamed into place.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from corpus.model import Chunk

from .adapt_pairs import batches, training_pairs
from ..store.atomic import build_lock, make_tmp, recover, swap_into_place
from ..errors import AdaptError
from ..store.layout import ADAPTED_RECORD, MODELS, cache_home

# why: 50 batches move paraphrases in minutes; more forget lexical questions
# (docs/decisions/0102-adapt-recipe.md).
RECIPE = {"version": 1, "pairs": "anchor->item", "loss": "multiple-negatives-ranking", "batch_size": 32,
          "batches": 50, "learning_rate": 2e-5, "warmup": 0.1, "max_seq_length": 128, "seed": 0}
MIN_BATCHES = 4  # fewer distinct items than this many batches hold: too little to learn from

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class AdaptedModel:
    """An adapted model folder in the cache and what made it."""

    path: Path
    record: dict  # adapted.json: key, base, recipe, corpus fingerprint, pairs, seconds, created


def models_root() -> Path:
    """The cache folder of adapted models, beside ``indexes/`` and ``encoders/``."""
    return cache_home() / MODELS


def adapted_key(base_key: str, fingerprint: str, recipe: dict = RECIPE) -> str:
    """Which folder the model adapted from ``base_key`` to a corpus with ``fingerprint`` lives in."""
    blob = json.dumps({"base": base_key, "recipe": recipe, "corpus": fingerprint}, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def read_adapted(path: Path | str) -> AdaptedModel | None:
    """The adapted model at ``path`` when it is complete (its record and model files), else None."""
    path = Path(path)
    try:
        record = json.loads((path / ADAPTED_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or not (path / "modules.json").is_file():
        return None
    return AdaptedModel(path, record)


def adapt(base, chunks: Sequence[Chunk], fingerprint: str, *, progress: Progress | None = None,
          notify: Callable[[str], None] | None = None, recipe: dict | None = None) -> AdaptedModel:
    """The model ``base`` adapted to ``chunks``, trained now unless the cache already holds it.

    Args:
        base: the ``index.encode.encoders.Encoder`` to start from (a sentence-transformers folder).
        chunks: every chunk of the corpus.
        fingerprint: the corpus fingerprint (``describe_corpus``); part of the cache key.
        progress: called with (batches done, batches) while training.
        notify: called with a one-line notice before training starts.
        recipe: the training settings; RECIPE (the measured one) when None.

    Raises:
        AdaptError: the corpus has too few list items to adapt to.
        IndexWriteError, IndexBusy: the cache folder is not writable or stays locked.
    """
    from .encoder_cache import model_key

    recipe = recipe or RECIPE
    key = adapted_key(model_key(base.path, {"adapt": recipe["version"]}), fingerprint, recipe)
    directory = models_root() / key
    found = read_adapted(directory)
    if found is not None:
        return found
    pairs = training_pairs(chunks)
    least = MIN_BATCHES * recipe["batch_size"]
    if len(pairs) < least:
        raise AdaptError(
            f"--adapt needs at least {least} list items with words besides identifiers; this corpus has "
            f"{len(pairs)}. It is for changelogs of many one-line items: index without --adapt"
        )
    with build_lock(directory):
        recover(directory)
        found = read_adapted(directory)  # another process trained it while we waited
        if found is not None:
            return found
        plan = batches(pairs, recipe["batch_size"], recipe["batches"], recipe["seed"])
        if notify:
            notify(f"Adapting {base.name} to this corpus ({len(plan)} batches of {len(pairs):,} item pairs; "
                   "about 4 s a batch on 2 cores) ...")
        tmp = make_tmp(directory)
        try:
            started = time.perf_counter()
            _train(base, plan, recipe, tmp, progress)
            record = {"key": key, "base": {"name": base.name, "path": str(base.path)}, "recipe": recipe,
                      "corpus": fingerprint, "pairs": len(pairs), "batches": len(plan),
                      "seconds": round(time.perf_counter() - started, 1),
                      "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
            (tmp / ADAPTED_RECORD).write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            swap_into_place(tmp, directory)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return AdaptedModel(directory, record)


def _train(base, plan: list[list[tuple[str, str]]], recipe: dict, out: Path, progress: Progress | None) -> None:
    """Fine-tune a fresh copy of the base model on ``plan`` and save it (safetensors) into ``out``."""
    from ..runtime import import_sentence_transformers

    st = import_sentence_transformers()
    import torch
    from transformers import get_linear_schedule_with_warmup

    try:
        from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss
    except ImportError:  # sentence-transformers before 6
        MultipleNegativesRankingLoss = st.losses.MultipleNegativesRankingLoss

    torch.manual_seed(recipe["seed"])
    model = st.SentenceTransformer(str(base.path), device="cpu")  # a copy: the base stays as it is
    served_length = model.max_seq_length
    model.max_seq_length = recipe["max_seq_length"]
    loss = MultipleNegativesRankingLoss(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=recipe["learning_rate"])
    schedule = get_linear_schedule_with_warmup(optimizer, int(recipe["warmup"] * len(plan)), len(plan))
    tokenize = getattr(model, "preprocess", None) or model.tokenize
    model.train()
    for done, batch in enumerate(plan, start=1):
        features = [tokenize([a for a, _ in batch]), tokenize([item for _, item in batch])]
        loss(features, None).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad()
        if progress is not None:
            progress(done, len(plan))
    model.eval()
    model.max_seq_length = served_length
    model.save(str(out), safe_serialization=True)


def adapted_encoder(model: AdaptedModel):
    """The Encoder of an adapted model, named for its base and carrying its record to the manifest."""
    from .encoders import Encoder

    encoder = Encoder(model.path)
    base = model.record.get("base", {})
    encoder.name = f"{base.get('name', 'model')} adapted {model.record.get('key', model.path.name)}"
    encoder.adapted = {k: model.record.get(k) for k in ("key", "base", "corpus", "pairs", "batches", "seconds",
                                                        "created")}
    return encoder


def kept_encoder(manifest, base, notify: Callable[[str], None] | None = None):
    """The encoder an index keeps when not told otherwise: its adapted model when it was built
    with one adapted from ``base`` and that model is still in the cache, else ``base`` (a
    pruned adapted model means a rebuild with the base model, said in a notice)."""
    info = manifest.model.get("adapted") if manifest is not None else None
    if not isinstance(info, dict) or (info.get("base") or {}).get("path") != str(base.path):
        return base
    found = read_adapted(manifest.model.get("path", ""))
    if found is not None:
        try:  # its last use, for relnotes cache prune (an index outside the cache uses it too)
            os.utime(found.path)
        except OSError:
            pass
    if found is None:
        if notify:
            notify(f"The adapted model {manifest.model.get('path')} is gone from the cache; the index goes back to "
                   f"{base.name} (adapt it again with: relnotes index --adapt)")
        return base
    return adapted_encoder(found)
