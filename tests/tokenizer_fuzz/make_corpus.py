#!/usr/bin/python3
# Writes the seed corpus of the tokenizer fuzz target into tests/tokenizer_fuzz/corpus/. The first
# byte of each file picks the mode (tokenizer_fuzz_target.cpp): 0 a tokenizer.json, 1 text for the
# fixed llama3-style tokenizer, 2 text for the SmolLM2-style one with lstrip/rstrip/single_word
# tokens. Seeds: small valid tokenizer.json files of each supported shape and hostile ones; texts
# with every class the pre-tokenizer patterns separate, special tokens and invalid UTF-8.
# Files named fuzzed-* (inputs the fuzzer found that add coverage) and regression-* (inputs that
# once crashed) are kept.   Run: python3 tests/tokenizer_fuzz/make_corpus.py
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def byte_chars():
    visible = [b for b in range(256) if 0x21 <= b <= 0x7E or 0xA1 <= b <= 0xAC or 0xAE <= b <= 0xFF]
    out, extra = [], 0
    for b in range(256):
        if b in visible:
            out.append(chr(b))
        else:
            out.append(chr(256 + extra))
            extra += 1
    return out


def tokenizer(pre, merges_as_pairs=False, **model_extra):
    vocab = {c: i for i, c in enumerate(byte_chars())}
    for t in ["he", "ll", "hell", "hello", "\u0120w", "\u0120wo"]:
        vocab[t] = len(vocab)
    merges = [("h", "e"), ("l", "l"), ("he", "ll"), ("hell", "o"), ("\u0120", "w"), ("\u0120w", "o")]
    model = {"type": "BPE", "dropout": None, "unk_token": None, "fuse_unk": False, "byte_fallback": False,
             "ignore_merges": True, "vocab": vocab,
             "merges": [list(m) for m in merges] if merges_as_pairs else [" ".join(m) for m in merges]}
    model.update(model_extra)
    n = len(vocab)
    return {"version": "1.0", "truncation": None, "padding": None,
            "added_tokens": [{"id": n, "content": "<|bos|>", "single_word": False, "lstrip": False, "rstrip": False,
                              "normalized": False, "special": True},
                             {"id": n + 1, "content": "<m>", "single_word": True, "lstrip": True, "rstrip": True,
                              "normalized": True, "special": False}],
            "normalizer": None, "pre_tokenizer": pre,
            "post_processor": {"type": "TemplateProcessing",
                               "single": [{"SpecialToken": {"id": "<|bos|>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
                               "special_tokens": {"<|bos|>": {"id": "<|bos|>", "ids": [n], "tokens": ["<|bos|>"]}}},
            "decoder": {"type": "ByteLevel"}, "model": model}


LLAMA3 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|"
          r"\s*[\r\n]+|\s+(?!\S)|\s+")
BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}


def seeds():
    llama3 = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": LLAMA3}, "behavior": "Isolated", "invert": False},
        dict(BYTE_LEVEL, use_regex=False)]}
    smollm = {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": True}, BYTE_LEVEL]}
    files = {
        "json-llama3": tokenizer(llama3, merges_as_pairs=True),
        "json-gpt2": tokenizer(BYTE_LEVEL),
        "json-smollm": tokenizer(smollm),
        "json-prefix-space": tokenizer(dict(BYTE_LEVEL, add_prefix_space=True)),
        "json-split-string": tokenizer({"type": "Split", "pattern": {"String": "o"}, "behavior": "Isolated"}),
        "json-empty-matches": tokenizer({"type": "Split", "pattern": {"Regex": "x*"}, "behavior": "Isolated"}),
        "json-unk": tokenizer(None, unk_token="he", fuse_unk=True),
        "json-nfc": dict(tokenizer(None), normalizer={"type": "NFC"}),
        "json-byte-fallback": tokenizer(None, byte_fallback=True),
    }
    out = {name: b"\x00" + json.dumps(tj, ensure_ascii=False).encode() for name, tj in files.items()}
    out["json-not-json"] = b"\x00{\"model\": [1, 2"
    out["json-repeated-key"] = b"\x00{\"a\": 1, \"a\": 2}"
    out["json-bad-merge"] = b"\x00" + json.dumps(tokenizer(None, merges=["h e l"])).encode()
    texts = {
        "contractions": "I'm you're HE'S they'LL we've I'd don't ’s",
        "digits": "1 12 123 1234 12345 123456 1234567 ٣٤٥ ²",
        "cjk-emoji": "你好，世界 日本語 😀 👨‍👩‍👧 🇺🇸",
        "marks": "e\u0301 नमस्ते Z\u0351\u036b",
        "newlines": "a\r\nb\r\n\r\n  c\n\n\n\t d   \t",
        "white-space": "a\u00a0b\u3000c\u2028d\x85e\u180ef",
        "specials": "<|begin_of_text|>x<|eot_id|>  <|end_of_text|><|eot",
        "added": "a <mask>  b<sep>  c [W] d[W]e <mask><mask>",
        "code": "def f(x):\n    return x ** 2  # sq\n",
    }
    for name, t in texts.items():
        out["text1-" + name] = b"\x01" + t.encode()
        out["text2-" + name] = b"\x02" + t.encode()
    invalid = b"ok \xff\xfe \xe2\x82 \xf0\x9f\x98 \xc0\xaf \xed\xa0\x80 end\xe2"
    out["text1-invalid-utf8"] = b"\x01" + invalid
    out["text2-invalid-utf8"] = b"\x02" + invalid
    out["text1-long-word"] = b"\x01" + b"a" * 2000
    return out


def main():
    os.makedirs(CORPUS, exist_ok=True)
    for f in os.listdir(CORPUS):
        if not f.startswith(("fuzzed-", "regression-")):
            os.remove(os.path.join(CORPUS, f))
    for name, data in seeds().items():
        with open(os.path.join(CORPUS, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(seeds())} seeds to {CORPUS}")


if __name__ == "__main__":
    main()
