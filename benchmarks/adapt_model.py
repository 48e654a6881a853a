"""An experiment, not the product: adapt the embedding model to a corpus's own items
with contrastive pairs and measure dense item retrieval on a question set, before and after.

    .venv/bin/python benchmarks/adapt_model.py --corpus ../shared/data/changelogs \
        --questions benchmarks/questions/changelogs-16.jsonl --variant A [--max-batches 50]

Variants: base (no training), A (an item with its identifiers removed -> the whole item),
B (product and heading -> item), C (A and B). MultipleNegativesRankingLoss, batch 32, lr 2e-5,
128 tokens while training; no two equal texts in a batch. An item is relevant when it is of the
question's release and holds its answer span (normalised). Prints and writes a JSON summary;
the adapted model is saved under --out. Measured once, by a helper: docs/decisions/0004-adapt-the-model-opt-in.md.
"""

import argparse
import json
import os
import random
import re
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from sentence_transformers import SentenceTransformer, losses  # noqa: E402

from index import open_index  # noqa: E402
from index.encode.encoders import bundled_model_path  # noqa: E402


def norm(s):
    s = s.replace("`", "").replace("*", "").lower()
    return re.sub(r"\s+", " ", s).strip()


def load_items(corpus):
    loaded, _ = open_index([Path(corpus)])
    items = []  # dicts: text, version, product, heading
    for c in loaded.chunks:
        for it in c.items:
            t = c.text[it.start:it.end]
            items.append(dict(text=t, version=c.version, product=c.product,
                              heading=c.section[-1] if c.section else ""))
    return items


def load_questions(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def evaluate(model, items, qs, item_emb=None):
    t0 = time.time()
    if item_emb is None:
        item_emb = model.encode([i["text"] for i in items], batch_size=64,
                                normalize_embeddings=True, convert_to_numpy=True)
    embed_s = time.time() - t0
    qe = model.encode([q["question"] for q in qs], batch_size=64,
                      normalize_embeddings=True, convert_to_numpy=True)
    normed = [norm(i["text"]) for i in items]
    sims = qe @ item_emb.T
    per = []
    for qi, q in enumerate(qs):
        a = norm(q["answer"])
        rel = {j for j, it in enumerate(items) if it["version"] == q["version"] and a in normed[j]}
        order = np.argsort(-sims[qi])
        rank = None
        for r, j in enumerate(order[:1000]):
            if j in rel:
                rank = r + 1; break
        per.append(dict(id=q.get("id"), kind=q["kind"], rank=rank, nrel=len(rel)))
    res = {}
    for k in ["ALL", "paraphrase", "lexical", "version", "which"]:
        sel = [p for p in per if k == "ALL" or p["kind"] == k]
        if not sel: continue
        mrr = np.mean([1 / p["rank"] if p["rank"] and p["rank"] <= 10 else 0 for p in sel])
        h5 = np.mean([1 if p["rank"] and p["rank"] <= 5 else 0 for p in sel])
        res[k] = dict(n=len(sel), mrr10=round(float(mrr), 3), hit5=round(float(h5), 3))
    return dict(embed_s=round(embed_s, 1), metrics=res, per=per,
                norel=[p["id"] for p in per if p["nrel"] == 0])


# ---------- anchors ----------
def strip_bullet(t):
    return re.sub(r"^\s*[-*+]\s+", "", t)


def anchor_A(t):
    s = strip_bullet(t)
    s = re.sub(r"\]\([^)]*\)", "]", s)            # markdown link targets
    s = re.sub(r"\]\[[^\]]*\]", "]", s)           # reference links [text][123]
    s = re.sub(r"https?://\S+", " ", s)
    s = re.sub(r"`[^`]*`", " ", s)                # backticked spans
    s = re.sub(r"\bby @[\w-]+(,? (and )?@[\w-]+)*", " ", s)
    s = re.sub(r"@[\w-]+", " ", s)
    s = re.sub(r"\bin \[?#\d+\]?", " ", s)
    s = re.sub(r"#\d+", " ", s)
    s = re.sub(r"\[\d+\]", " ", s)
    s = s.replace("[", " ").replace("]", " ")
    s = re.sub(r"(?<!\w)--?[A-Za-z][\w-]*", " ", s)  # flags
    s = re.sub(r"\b\w+(?:\.\w+)+(?:\(\))?", " ", s)    # dotted identifiers
    s = re.sub(r"\b\w*_\w*\b", " ", s)               # snake_case
    s = re.sub(r"\b[a-z]+[A-Z]\w*\b", " ", s)        # camelCase
    s = re.sub(r"\b[A-Z][a-z0-9]+[A-Z]\w*\b", " ", s)  # CamelCase
    s = re.sub(r"\w+::\w+(::\w+)*", " ", s)
    s = re.sub(r"\b\d+\b", " ", s)
    s = re.sub(r"[()<>{}\"]", " ", s)
    s = re.sub(r"\s+", " ", s).strip(" ,.;:")
    return s


def pairs_A(items):
    out = []
    for it in items:
        a = anchor_A(it["text"])
        if len(re.findall(r"[A-Za-z]{2,}", a)) >= 3:
            out.append((a, it["text"]))
    return out


def pairs_B(items):
    return [(f"{it['product']} {it['heading']}", it["text"]) for it in items if it["product"]]


from transformers import get_linear_schedule_with_warmup  # noqa: E402


parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--corpus", required=True)
parser.add_argument("--questions", required=True)
parser.add_argument("--variant", choices=("base", "A", "B", "C"), default="A")
parser.add_argument("--max-batches", type=int, default=None)
parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / ".cache" / "adapt")
args = parser.parse_args()
corpus, qfile, variant, max_batches = args.corpus, args.questions, args.variant, args.max_batches
args.out.mkdir(parents=True, exist_ok=True)
torch.set_num_threads(os.cpu_count() or 2)
tag = f"{Path(corpus).name}-{variant}"
random.seed(0); torch.manual_seed(0)
items = load_items(corpus)
qs = load_questions(qfile)
model = SentenceTransformer(str(bundled_model_path()), device="cpu")
default_len = model.max_seq_length
info = dict(tag=tag, n_items=len(items), default_max_seq_length=default_len)


def nodup_batches(pairs, bs=32):
    pool = pairs[:]; random.shuffle(pool)
    batches = []
    while True:
        batch, seen, rest = [], set(), []
        for p in pool:
            if len(batch) < bs and p[0] not in seen and p[1] not in seen:
                batch.append(p); seen.add(p[0]); seen.add(p[1])
            else:
                rest.append(p)
        if len(batch) < bs:
            break
        batches.append(batch); pool = rest
    random.shuffle(batches)
    return batches


if variant != "base":
    A = pairs_A(items) if variant in "AC" else []
    B = pairs_B(items) if variant in "BC" else []
    pairs = A + B
    batches = nodup_batches(pairs)
    if max_batches: batches = batches[:max_batches]
    info.update(n_pairs=len(pairs), n_batches=len(batches), pairs_used=32 * len(batches))
    model.max_seq_length = 128
    loss_fn = losses.MultipleNegativesRankingLoss(model)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-5)
    sched = get_linear_schedule_with_warmup(opt, int(0.1 * len(batches)), len(batches))
    model.train()
    t0 = time.time()
    for bi, batch in enumerate(batches):
        feats = [model.tokenize([a for a, _ in batch]), model.tokenize([p for _, p in batch])]
        loss = loss_fn(feats, None)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step(); sched.step(); opt.zero_grad()
        if bi % 20 == 0:
            print(f"batch {bi}/{len(batches)} loss {loss.item():.3f} t={time.time()-t0:.0f}s", flush=True)
    info["train_s"] = round(time.time() - t0, 1)
    model.eval()
    model.max_seq_length = default_len
    model.save(str(args.out / "models" / tag))

with torch.no_grad():
    r = evaluate(model, items, qs)
info.update(r)
json.dump(info, open(args.out / f"result-{tag}.json", "w"), indent=1)
print(json.dumps({k: v for k, v in info.items() if k != "per"}, indent=1))
