#!/usr/bin/env python3
"""Converts a BERT-family sentence embedder to one GGUF file for llama.cpp.

    bert-to-gguf.py MODEL_DIR OUT.gguf [--outtype f32|f16]

MODEL_DIR holds what the model hub gives for a sentence-transformers model:
config.json, tokenizer.json (or vocab.txt), model.safetensors and, when
present, 1_Pooling/config.json. The GGUF has llama.cpp's `bert`
architecture: its hyperparameters, non-causal attention, the pooling the
model was trained with (mean, or the [CLS] token), and the WordPiece
vocabulary as llama.cpp's WPM tokenizer reads it. The vectors are not
normalised in the file: the caller does that.

Needs numpy and the `gguf` package only; safetensors is read directly (an
8-byte little-endian header length, a JSON header, raw little-endian data).
OUT.gguf appears only complete: it is written to OUT.gguf.part first.
"""

import argparse
import json
import os
import struct
import sys
from pathlib import Path

import numpy as np
import gguf

ARCH = "bert"
# Word start marker of llama.cpp's WPM tokenizer: it looks words up as
# "\u2581word" and continuations without BERT's "##".
PHANTOM = "\u2581"
DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": np.uint16, "I64": np.int64}
SPECIALS = ("cls", "sep", "unk", "pad", "mask")
# Hugging Face BERT tensor names (after any "bert." prefix) to llama.cpp's.
TOP_NAMES = {
    "embeddings.word_embeddings": "token_embd",
    "embeddings.position_embeddings": "position_embd",
    "embeddings.token_type_embeddings": "token_types",
    "embeddings.LayerNorm": "token_embd_norm",
}
LAYER_NAMES = {
    "attention.self.query": "attn_q",
    "attention.self.key": "attn_k",
    "attention.self.value": "attn_v",
    "attention.output.dense": "attn_output",
    "attention.output.LayerNorm": "attn_output_norm",
    "intermediate.dense": "ffn_up",
    "output.dense": "ffn_down",
    "output.LayerNorm": "layer_output_norm",
}
# Stay f32 in an f16 file: llama.cpp adds the token-type row to f32
# activations directly, and looks positions up as llama.cpp's own converter
# leaves them.
KEEP_F32 = {"token_types.weight", "position_embd.weight"}
# Parts of a checkpoint a sentence embedder does not use.
SKIPPED = ("embeddings.position_ids", "pooler.", "cls.")


class ConversionError(Exception):
    """A model this converter cannot turn into a working GGUF."""


def read_safetensors(path):
    """Every tensor in a safetensors file, as float32 or int64 numpy arrays."""
    data = np.memmap(path, dtype=np.uint8, mode="r")
    if data.size < 8:
        raise ConversionError(f"{path} is not a safetensors file")
    (length,) = struct.unpack("<Q", bytes(data[:8]))
    if length + 8 > data.size:
        raise ConversionError(f"{path} is truncated")
    header = json.loads(bytes(data[8 : 8 + length]))
    base = 8 + length
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = DTYPES.get(info["dtype"])
        if dtype is None:
            raise ConversionError(f"{name} has dtype {info['dtype']}, not F32, F16 or BF16")
        start, end = info["data_offsets"]
        raw = data[base + start : base + end].view(np.dtype(dtype).newbyteorder("<"))
        array = raw.reshape(info["shape"])
        if info["dtype"] == "BF16":
            array = (array.astype(np.uint32) << 16).view(np.float32)
        tensors[name] = array if info["dtype"] == "I64" else array.astype(np.float32)
    return tensors


def gguf_name(name, layers):
    """llama.cpp's name for a checkpoint tensor, or None when it is unused."""
    name = name.removeprefix("bert.")
    name = name.replace(".gamma", ".weight").replace(".beta", ".bias")
    if name.startswith(SKIPPED):
        return None
    stem, _, kind = name.rpartition(".")
    if kind not in ("weight", "bias"):
        raise ConversionError(f"unexpected tensor {name}")
    if stem in TOP_NAMES:
        return f"{TOP_NAMES[stem]}.{kind}"
    parts = stem.split(".", 3)
    if len(parts) == 4 and parts[:2] == ["encoder", "layer"] and parts[3] in LAYER_NAMES:
        if int(parts[2]) >= layers:
            raise ConversionError(f"{name} is past the {layers} layers config.json names")
        return f"blk.{int(parts[2])}.{LAYER_NAMES[parts[3]]}.{kind}"
    raise ConversionError(f"unexpected tensor {name}")


def read_config(model_dir):
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    if config.get("model_type") != "bert":
        raise ConversionError(f"config.json says model_type {config.get('model_type')!r}; only 'bert' converts")
    if config.get("hidden_act", "gelu") != "gelu":
        raise ConversionError(f"hidden_act {config['hidden_act']!r}: llama.cpp's BERT computes GELU")
    if config.get("position_embedding_type", "absolute") != "absolute":
        raise ConversionError("only absolute position embeddings convert")
    return config


def read_pooling(model_dir):
    """The pooling sentence-transformers applies: mean unless it says [CLS]."""
    path = model_dir / "1_Pooling" / "config.json"
    if not path.is_file():
        return gguf.PoolingType.MEAN
    pooling = json.loads(path.read_text(encoding="utf-8"))
    if pooling.get("pooling_mode_mean_tokens"):
        return gguf.PoolingType.MEAN
    if pooling.get("pooling_mode_cls_token"):
        return gguf.PoolingType.CLS
    raise ConversionError(f"{path} asks for a pooling llama.cpp does not have (mean and [CLS] only)")


def read_vocab(model_dir):
    """Tokens by id, the ids of the special tokens that are added as control
    tokens, and the normaliser's lowercase and strip-accents flags."""
    path = model_dir / "tokenizer.json"
    if path.is_file():
        spec = json.loads(path.read_text(encoding="utf-8"))
        model = spec.get("model", {})
        if model.get("type") != "WordPiece":
            raise ConversionError(f"tokenizer.json has a {model.get('type')} model, not WordPiece")
        vocab = model["vocab"]
        control = {t["content"] for t in spec.get("added_tokens", []) if t.get("special")}
        norm = spec.get("normalizer") or {}
        lowercase = bool(norm.get("lowercase", True))
        strip = norm.get("strip_accents")
    else:
        words = (model_dir / "vocab.txt").read_text(encoding="utf-8").splitlines()
        vocab = {w: i for i, w in enumerate(words)}
        control = {"[CLS]", "[SEP]", "[UNK]", "[PAD]", "[MASK]"} & vocab.keys()
        settings_path = model_dir / "tokenizer_config.json"
        settings = json.loads(settings_path.read_text(encoding="utf-8")) if settings_path.is_file() else {}
        lowercase = bool(settings.get("do_lower_case", True))
        strip = settings.get("strip_accents")
    tokens = [None] * (max(vocab.values()) + 1)
    for token, i in vocab.items():
        tokens[i] = token
    return tokens, control, lowercase, lowercase if strip is None else bool(strip)


def wpm_tokens(tokens, control):
    """The vocabulary as llama.cpp's WPM tokenizer expects it, and the types."""
    texts, types = [], []
    for i, token in enumerate(tokens):
        if token is None:
            texts.append(f"[PAD{i}]")
            types.append(gguf.TokenType.UNUSED)
        elif token in control:
            texts.append(token)
            types.append(gguf.TokenType.CONTROL)
        else:
            texts.append(token[2:] if token.startswith("##") else PHANTOM + token)
            types.append(gguf.TokenType.NORMAL)
    seen = {}
    for i, text in enumerate(texts):
        if text == "":
            # A lone "##" in the vocabulary; llama.cpp refuses empty tokens.
            texts[i] = f"[EMPTY{i}]"
            types[i] = gguf.TokenType.UNUSED
        elif text in seen:
            raise ConversionError(f"tokens {seen[text]} and {i} both become {text!r}")
        seen[texts[i]] = i
    return texts, types


def special_ids(tokens):
    ids = {}
    for kind in SPECIALS:
        token = f"[{kind.upper()}]"
        if token not in tokens:
            raise ConversionError(f"the vocabulary has no {token} token")
        ids[kind] = tokens.index(token)
    return ids


def add_metadata(writer, config, pooling, vocab, name, outtype):
    tokens, control, lowercase, strip_accents = vocab
    writer.add_name(name)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16 if outtype == "f16" else gguf.LlamaFileType.ALL_F32)
    writer.add_context_length(config["max_position_embeddings"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_block_count(config["num_hidden_layers"])
    writer.add_head_count(config["num_attention_heads"])
    writer.add_layer_norm_eps(config.get("layer_norm_eps", 1e-12))
    writer.add_causal_attention(False)
    writer.add_pooling_type(pooling)

    texts, types = wpm_tokens(tokens, control)
    ids = special_ids(tokens)
    writer.add_tokenizer_model("bert")
    writer.add_token_list(texts)
    writer.add_token_types(types)
    writer.add_token_type_count(config.get("type_vocab_size", 2))
    # llama.cpp's WPM tokenizer opens a text with the BOS token: BERT's [CLS].
    writer.add_bos_token_id(ids["cls"])
    writer.add_sep_token_id(ids["sep"])
    writer.add_unk_token_id(ids["unk"])
    writer.add_pad_token_id(ids["pad"])
    writer.add_mask_token_id(ids["mask"])
    writer.add_add_bos_token(True)
    writer.add_add_sep_token(True)
    writer.add_add_eos_token(False)
    writer.add_bool("tokenizer.ggml.normalizer.lowercase", lowercase)
    writer.add_bool("tokenizer.ggml.normalizer.strip_accents", strip_accents)


def add_tensors(writer, config, tensors, outtype):
    layers = config["num_hidden_layers"]
    written = set()
    for hf_name in sorted(tensors):
        name = gguf_name(hf_name, layers)
        if name is None:
            continue
        array = tensors[hf_name]
        if outtype == "f16" and array.ndim > 1 and name not in KEEP_F32:
            array = array.astype(np.float16)
        writer.add_tensor(name, np.ascontiguousarray(array))
        written.add(name)
    needed = {"token_embd.weight", "position_embd.weight", "token_embd_norm.weight", "token_embd_norm.bias"}
    for i in range(layers):
        needed |= {f"blk.{i}.{t}.{k}" for t in LAYER_NAMES.values() for k in ("weight", "bias")}
    if needed - written:
        raise ConversionError(f"model.safetensors lacks {', '.join(sorted(needed - written))}")
    rows = tensors[next(n for n in tensors if gguf_name(n, layers) == "token_embd.weight")].shape[0]
    if rows != config["vocab_size"]:
        raise ConversionError(f"config.json says {config['vocab_size']} tokens, the weights have {rows}")


def convert(model_dir, out, outtype):
    config = read_config(model_dir)
    pooling = read_pooling(model_dir)
    vocab = read_vocab(model_dir)
    tokens = vocab[0]
    config.setdefault("vocab_size", len(tokens))
    if len(tokens) > config["vocab_size"]:
        raise ConversionError(f"config.json says {config['vocab_size']} tokens, the vocabulary has {len(tokens)}")
    # Rows past the vocabulary (padding some checkpoints carry) get names.
    tokens.extend([None] * (config["vocab_size"] - len(tokens)))
    tensors = read_safetensors(model_dir / "model.safetensors")
    part = out.with_name(out.name + ".part")
    writer = gguf.GGUFWriter(part, ARCH)
    try:
        add_metadata(writer, config, pooling, vocab, model_dir.name or model_dir.resolve().name, outtype)
        add_tensors(writer, config, tensors, outtype)
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        os.replace(part, out)
    finally:
        writer.close()
        part.unlink(missing_ok=True)


def main():
    parser = argparse.ArgumentParser(description="Convert a BERT sentence embedder to GGUF for llama.cpp.")
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--outtype", choices=("f32", "f16"), default="f32")
    args = parser.parse_args()
    try:
        convert(args.model_dir, args.out, args.outtype)
    except KeyError as error:
        print(f"cannot convert {args.model_dir}: config.json lacks {error}", file=sys.stderr)
        return 1
    except (ConversionError, OSError, ValueError) as error:
        print(f"cannot convert {args.model_dir}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
