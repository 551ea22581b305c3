#!/usr/bin/env python3
"""Writes the seed corpus of the chat-template fuzz target (tests/jinja_fuzz/corpus/): the four
family templates of tests/fixtures/jinja/templates/, every single-construct template of
tests/fixtures/jinja/constructs.json, and a few inputs aimed at the bounds (deep nesting,
recursion, loops, large strings, broken tags, bytes that are not UTF-8).

    python3 tests/jinja_fuzz/make_corpus.py
"""

import json
import os
import shutil

HERE = os.path.dirname(os.path.realpath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "jinja")
CORPUS = os.path.join(HERE, "corpus")

EDGES = {
    "deep-parens": "{{ " + "(" * 200 + "1" + ")" * 200 + " }}",
    "deep-ifs": "{% if true %}" * 100 + "x" + "{% endif %}" * 100,
    "long-filter-chain": "{{ messages" + " | list" * 100 + " }}",
    "macro-recursion": "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}",
    "macro-exponential": "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(40) }}",
    "loop-cubic": "{% for a in range(100) %}{% for b in range(100) %}{% for c in range(100) %}{% endfor %}{% endfor %}{% endfor %}",
    "string-bomb": "{{ 'x' * 100000 * 100000 }}",
    "list-bomb": "{{ ([1] * 4000) * 4000 }}",
    "namespace-self": "{% set ns = namespace() %}{% set ns.me = ns %}",
    "namespace-deep": "{% set ns = namespace(x=[]) %}{% for i in range(1000) %}{% set ns.x = [ns.x] %}{% endfor %}{{ ns.x }}",
    "unclosed-tag": "{% for x in messages %}{{ x",
    "unclosed-raw": "{% raw %} never closed",
    "bad-utf8": b"{{ '\xff\xfe' }}",
    "int-overflow": "{{ big + 1 }}{{ big * big }}{{ -big - 2 }}{{ 2 ** 64 }}",
    "slices": "{{ messages[::-1] }}{{ messages[big:] }}{{ 'abc'[-big:big:-1] }}{{ messages[::0] }}",
    "tojson-everything": "{{ messages | tojson(indent=2, sort_keys=true) }}{{ nested | tojson(ensure_ascii=true) }}",
    "unicode-methods": "{% for m in messages %}{{ m.content.upper() }}{{ m.content | title }}{{ m.content.split() }}{% endfor %}",
}


def main():
    if os.path.isdir(CORPUS):
        for name in os.listdir(CORPUS):
            if name.startswith(("family-", "construct-", "edge-")):
                os.remove(os.path.join(CORPUS, name))
    os.makedirs(CORPUS, exist_ok=True)
    templates = os.path.join(FIXTURES, "templates")
    for name in sorted(os.listdir(templates)):
        shutil.copy(os.path.join(templates, name), os.path.join(CORPUS, "family-" + name))
    with open(os.path.join(FIXTURES, "constructs.json"), encoding="utf-8") as f:
        for c in json.load(f)["constructs"]:
            with open(os.path.join(CORPUS, "construct-" + c["name"] + ".jinja"), "w", encoding="utf-8") as out:
                out.write(c["template"])
    for name, text in EDGES.items():
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        with open(os.path.join(CORPUS, "edge-" + name + ".jinja"), "wb") as out:
            out.write(data)
    print(f"{len(os.listdir(CORPUS))} files in {CORPUS}")


if __name__ == "__main__":
    main()
