#!/usr/bin/env python3
"""Reference sentence vectors for the embedder tests, from numpy alone.

    embed-reference.py MODEL_DIR > tests/data/embed/reference.json

Runs all-MiniLM-L6-v2 (any BERT sentence model with config.json,
tokenizer.json and model.safetensors) the way sentence-transformers does:
BERT's WordPiece tokenizer (lowercased, accents stripped, as tokenizer.json
says), at most MAX_TOKENS word pieces with [CLS] and [SEP], a float64
forward pass with erf GELU, mean pooling, L2 normalisation. No torch and no
tokenizer library: the vectors check llama.cpp's, not another copy of it.
"""

import json
import math
import struct
import sys
import unicodedata
from pathlib import Path

import numpy as np

# sentence-transformers' max_seq_length for all-MiniLM-L6-v2
# (sentence_bert_config.json): longer texts are cut to this many pieces.
MAX_TOKENS = 256
LONG = " ".join(["The tide came in slowly over the old harbour wall, and nobody on the pier said a word."] * 20)
SENTENCES = [
    "Was the old man her father?",
    "Is the elderly man Ana's dad?",
    "Does the weather matter in this story?",
    "The lighthouse keeper's daughter vanished in 1923!",
    "Café owners don't like naïve questions, do they?",
    "A short one.",
    "",
    LONG,
]


def load_tensors(path):
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    out = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        start, end = info["data_offsets"]
        raw = np.frombuffer(data, dtype="<f4", count=(end - start) // 4, offset=8 + length + start)
        out[name.removeprefix("bert.")] = raw.reshape(info["shape"]).astype(np.float64)
    return out


def is_punctuation(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def is_cjk(cp):
    ranges = [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
              (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)]
    return any(lo <= cp <= hi for lo, hi in ranges)


def normalise(text, lowercase, strip_accents):
    """BERT's normaliser: clean control characters, space out CJK, lowercase
    and strip accents."""
    out = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or (unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\t\n\r"):
            continue
        if ch in "\t\n\r" or unicodedata.category(ch) == "Zs":
            out.append(" ")
        elif is_cjk(cp):
            out.append(f" {ch} ")
        else:
            out.append(ch)
    text = "".join(out)
    if strip_accents:
        text = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
    return text.lower() if lowercase else text


def words(text):
    """BERT's pre-tokenizer: split on whitespace, each punctuation mark alone."""
    pieces, current = [], ""
    for ch in text:
        if ch.isspace() or is_punctuation(ch):
            if current:
                pieces.append(current)
            current = ""
            if not ch.isspace():
                pieces.append(ch)
        else:
            current += ch
    return pieces + ([current] if current else [])


def wordpiece(word, vocab, unk):
    """Greedy longest-match-first, continuations as "##piece"."""
    if len(word) > 100:
        return [unk]
    ids, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                ids.append(vocab[piece])
                break
            end -= 1
        if end == start:
            return [unk]
        start = end
    return ids


def tokenize(text, spec):
    vocab = spec["model"]["vocab"]
    norm = spec.get("normalizer") or {}
    lowercase = norm.get("lowercase", True)
    strip = lowercase if norm.get("strip_accents") is None else norm["strip_accents"]
    ids = [i for w in words(normalise(text, lowercase, strip)) for i in wordpiece(w, vocab, vocab["[UNK]"])]
    return [vocab["[CLS]"]] + ids[: MAX_TOKENS - 2] + [vocab["[SEP]"]]


def layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def linear(x, t, name):
    return x @ t[f"{name}.weight"].T + t[f"{name}.bias"]


def embed(ids, t, config):
    eps, heads = config["layer_norm_eps"], config["num_attention_heads"]
    n = len(ids)
    x = t["embeddings.word_embeddings.weight"][ids] + t["embeddings.position_embeddings.weight"][:n]
    x = layer_norm(x + t["embeddings.token_type_embeddings.weight"][0], t["embeddings.LayerNorm.weight"],
                   t["embeddings.LayerNorm.bias"], eps)
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}"
        split = lambda m: m.reshape(n, heads, -1).transpose(1, 0, 2)  # noqa: E731
        q, k, v = (split(linear(x, t, f"{p}.attention.self.{m}")) for m in ("query", "key", "value"))
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
        weights = np.exp(scores - scores.max(-1, keepdims=True))
        weights /= weights.sum(-1, keepdims=True)
        context = (weights @ v).transpose(1, 0, 2).reshape(n, -1)
        attended = linear(context, t, f"{p}.attention.output.dense") + x
        x = layer_norm(attended, t[f"{p}.attention.output.LayerNorm.weight"],
                       t[f"{p}.attention.output.LayerNorm.bias"], eps)
        out = linear(gelu(linear(x, t, f"{p}.intermediate.dense")), t, f"{p}.output.dense") + x
        x = layer_norm(out, t[f"{p}.output.LayerNorm.weight"], t[f"{p}.output.LayerNorm.bias"], eps)
    mean = x.mean(0)
    return mean / max(np.linalg.norm(mean), 1e-12)


def main():
    model_dir = Path(sys.argv[1])
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    spec = json.loads((model_dir / "tokenizer.json").read_text(encoding="utf-8"))
    tensors = load_tensors(model_dir / "model.safetensors")
    items = []
    for text in SENTENCES:
        ids = tokenize(text, spec)
        vector = embed(ids, tensors, config)
        items.append({"text": text, "ids": ids, "vector": [round(float(v), 6) for v in vector]})
    reference = {
        "model": model_dir.resolve().name,
        "max_tokens": MAX_TOKENS,
        "pooling": "mean",
        "normalised": True,
        "items": items,
    }
    # One line per list keeps the file readable and its diffs small.
    head = {k: v for k, v in reference.items() if k != "items"}
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()] + [' "items": [']
    for n, item in enumerate(items):
        fields = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in item.items()]
        lines.append("  {" + ",\n ".join(fields)[1:] + ("}," if n + 1 < len(items) else "}"))
    lines += [" ]", "}"]
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
