"""Reference vectors for the golden-vector test, made by sentence-transformers itself
(the reference implementation of all-MiniLM-L6-v2). Run once by hand:
    python make_golden.py MODEL_DIR > golden.json
Needs sentence-transformers (and torch) in a venv; CI never runs this."""
import json
import sys

from sentence_transformers import SentenceTransformer

SENTENCES = [
    "CI runs clippy with RUSTFLAGS=-D warnings, so any new warning fails the pipeline",
    "The local Postgres for development listens on port 5433, not the default 5432",
    "why does the linter break the build in continuous integration",
    "Ünïcödé text, emoji 🚀 and CJK 日本語 are tokenized too",
    "a",
]

model = SentenceTransformer(sys.argv[1], device="cpu")
vectors = model.encode(SENTENCES, normalize_embeddings=False)
out = [{"text": s, "vector": [round(float(x), 7) for x in v]} for s, v in zip(SENTENCES, vectors)]
json.dump({"model": "all-MiniLM-L6-v2", "made_by": "sentence-transformers", "cases": out}, sys.stdout)
