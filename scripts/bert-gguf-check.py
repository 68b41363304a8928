#!/usr/bin/env python3
"""Checks a GGUF made by bert-to-gguf.py against the model it came from.

    bert-gguf-check.py MODEL_DIR FILE.gguf

Reads the GGUF back with the `gguf` package's reader and checks that every
tensor equals its safetensors original (f32 files bit for bit, f16 files to
f16 precision), that no tensor is missing or extra, and that the metadata
llama.cpp's BERT needs is there with the values config.json and the
tokenizer give. Prints one line per check; exits 1 on the first mismatch.
"""

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import gguf

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("bert_to_gguf", HERE / "bert-to-gguf.py")
convert = importlib.util.module_from_spec(spec)
spec.loader.exec_module(convert)


def field(reader, key):
    """A scalar, string or array value of the GGUF's metadata."""
    f = reader.fields.get(key)
    if f is None:
        raise SystemExit(f"FAIL: {key} is missing")
    if f.types[0] == gguf.GGUFValueType.STRING:
        return bytes(f.parts[f.data[0]]).decode("utf-8")
    if f.types[0] == gguf.GGUFValueType.ARRAY:
        if f.types[1] == gguf.GGUFValueType.STRING:
            return [bytes(f.parts[i]).decode("utf-8") for i in f.data]
        return [int(f.parts[i][0]) for i in f.data]
    return f.parts[f.data[0]][0].item()


def expect(what, got, want):
    if got != want:
        raise SystemExit(f"FAIL: {what}: {got!r} != {want!r}")
    print(f"ok  {what} = {got!r}" if not isinstance(got, list) else f"ok  {what} ({len(got)} entries)", flush=True)


def check_tensors(reader, model_dir, layers):
    original = convert.read_safetensors(model_dir / "model.safetensors")
    by_name = {convert.gguf_name(n, layers): a for n, a in original.items()}
    by_name.pop(None, None)
    stored = {t.name: t for t in reader.tensors}
    expect("tensor names", sorted(stored), sorted(by_name))
    for name, tensor in stored.items():
        want = by_name[name]
        got = np.asarray(tensor.data)
        if got.shape != want.shape:
            raise SystemExit(f"FAIL: tensor {name} has shape {got.shape}, not {want.shape}")
        if got.dtype == np.float16:
            equal = np.array_equal(got, want.astype(np.float16))
        else:
            equal = got.dtype == np.float32 and np.array_equal(got, want)
        if not equal:
            raise SystemExit(f"FAIL: tensor {name} differs from the safetensors one")
    print(f"ok  {len(stored)} tensors equal their safetensors originals")


def check_metadata(reader, model_dir, config):
    expect("general.architecture", field(reader, "general.architecture"), "bert")
    expect("bert.context_length", field(reader, "bert.context_length"), config["max_position_embeddings"])
    expect("bert.embedding_length", field(reader, "bert.embedding_length"), config["hidden_size"])
    expect("bert.feed_forward_length", field(reader, "bert.feed_forward_length"), config["intermediate_size"])
    expect("bert.block_count", field(reader, "bert.block_count"), config["num_hidden_layers"])
    expect("bert.attention.head_count", field(reader, "bert.attention.head_count"), config["num_attention_heads"])
    eps = field(reader, "bert.attention.layer_norm_epsilon")
    expect("bert.attention.layer_norm_epsilon", np.float32(eps), np.float32(config["layer_norm_eps"]))
    expect("bert.attention.causal", field(reader, "bert.attention.causal"), False)
    expect("bert.pooling_type", field(reader, "bert.pooling_type"), int(convert.read_pooling(model_dir)))
    expect("tokenizer.ggml.model", field(reader, "tokenizer.ggml.model"), "bert")
    tokens, control, lowercase, strip = convert.read_vocab(model_dir)
    texts, types = convert.wpm_tokens(tokens, control)
    expect("tokenizer.ggml.tokens", field(reader, "tokenizer.ggml.tokens"), texts)
    expect("tokenizer.ggml.token_type", field(reader, "tokenizer.ggml.token_type"), [int(t) for t in types])
    expect("tokenizer.ggml.token_type_count", field(reader, "tokenizer.ggml.token_type_count"),
           config["type_vocab_size"])
    ids = gguf.Keys.Tokenizer
    for token, key in [("[CLS]", ids.BOS_ID), ("[SEP]", ids.SEP_ID), ("[UNK]", ids.UNK_ID), ("[PAD]", ids.PAD_ID),
                       ("[MASK]", ids.MASK_ID)]:
        expect(key, texts[field(reader, key)], token)
    expect("normalizer.lowercase", field(reader, "tokenizer.ggml.normalizer.lowercase"), lowercase)
    expect("normalizer.strip_accents", field(reader, "tokenizer.ggml.normalizer.strip_accents"), strip)
    words = {t for t in texts if t.startswith(convert.PHANTOM)}
    expect("word-start tokens carry the phantom space", "\u2581the" in words and "the" not in words, True)


def main():
    model_dir, path = Path(sys.argv[1]), Path(sys.argv[2])
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    reader = gguf.GGUFReader(path)
    check_metadata(reader, model_dir, config)
    check_tensors(reader, model_dir, config["num_hidden_layers"])
    print("all checks passed")


if __name__ == "__main__":
    main()
