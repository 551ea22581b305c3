#!/usr/bin/env python3
"""Text in, text out through the command line, on a tiny random model with its random tokenizer:
`llama init` writes the tokenizer's files; `tokenize` and `detokenize` give the text back, also
through the chat template and from a folder that holds only the tokenizer; `generate --prompt`
streams exactly the text its --json run reports and that `detokenize` makes of the new ids; a
--stop string cuts the text before it; an end id from generation_config.json ends generation
(and --ignore-eos goes past it); `chat` answers three turns through a pipe, reusing the cache for
what the turns share, and /reset starts again."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

HALOGEN = os.environ.get("HALOGEN_CLI", "halogen")


def run(*args, check=True, stdin=None):
    # Newlines as written: "\r\n" in a text stays "\r\n".
    done = subprocess.run([HALOGEN, *args], capture_output=True, timeout=600,
                          input=None if stdin is None else stdin.encode())
    done.stdout, done.stderr = done.stdout.decode(), done.stderr.decode()
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(args)}: rc {done.returncode}: {done.stderr}")
    return done


class Text(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.model = os.path.join(cls.tmp.name, "tiny")
        cls.init = run("llama", "init", "--preset", "tiny", "--seed", "9", "--out", cls.model)
        cls.greedy = json.loads(run("llama", "generate", "--model", cls.model, "--prompt", "Once upon a time",
                                    "--max-new", "24", "--ignore-eos", "--json").stdout)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def ids_of(self, text, *extra, model=None):
        out = run("llama", "tokenize", "--model", model or self.model, "--text", text, *extra).stdout.strip()
        return [int(x) for x in out.split(",")] if out else []

    def test_init_writes_the_tokenizer(self):
        self.assertIn("tokenizer: a random byte-level BPE of 512 tokens", self.init.stdout)
        for name in ("tokenizer.json", "tokenizer_config.json", "generation_config.json"):
            self.assertTrue(os.path.isfile(os.path.join(self.model, name)), name)
        with open(os.path.join(self.model, "config.json")) as f:
            config = json.load(f)
        with open(os.path.join(self.model, "generation_config.json")) as f:
            generation = json.load(f)
        self.assertEqual(config["bos_token_id"], generation["bos_token_id"])
        self.assertIn(config["eos_token_id"], generation["eos_token_id"])

    def test_tokenize_and_detokenize_give_the_text_back(self):
        text = "Hello, wörld! 12345 日本語 🙂 tabs\tand\r\nlines  "
        ids = self.ids_of(text)
        bos = self.ids_of("")
        self.assertEqual(len(bos), 1)   # the template's BOS alone
        self.assertEqual(ids[0], bos[0])
        back = run("llama", "detokenize", "--model", self.model, "--ids", ",".join(map(str, ids))).stdout
        self.assertEqual(back, "<|begin_of_text|>" + text + "\n")
        back = run("llama", "detokenize", "--model", self.model, "--ids", ",".join(map(str, ids)), "--skip-special").stdout
        self.assertEqual(back, text + "\n")
        j = json.loads(run("llama", "tokenize", "--model", self.model, "--text", "ab", "--json").stdout)
        self.assertEqual(j["ids"], self.ids_of("ab"))
        self.assertEqual(j["tokens"][0], "<|begin_of_text|>")

    def test_tokenize_chat_ends_in_the_generation_prompt(self):
        ids = self.ids_of("Hi there", "--chat", "--system", "Be brief.")
        text = run("llama", "detokenize", "--model", self.model, "--ids", ",".join(map(str, ids))).stdout
        self.assertEqual(text, "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|>"
                               "<|start_header_id|>user<|end_header_id|>\n\nHi there<|eot_id|>"
                               "<|start_header_id|>assistant<|end_header_id|>\n\n\n")
        self.assertEqual(ids.count(ids[0]), 1)   # one BOS

    def test_a_folder_of_tokenizer_files_alone_tokenizes(self):
        with tempfile.TemporaryDirectory() as only:
            for name in ("tokenizer.json", "tokenizer_config.json"):
                shutil.copy(os.path.join(self.model, name), only)
            self.assertEqual(self.ids_of("same text", model=only), self.ids_of("same text"))

    def test_errors_are_one_line(self):
        for args, words in [
            (("llama", "detokenize", "--model", self.model, "--ids", "1,99999"), "id 99999 is not in the vocabulary"),
            (("llama", "tokenize", "--model", self.tmp.name, "--text", "x"), "no tokenizer.json"),
            (("llama", "generate", "--model", self.model, "--ids", "1", "--chat"), "--chat and --system take a text prompt"),
            (("llama", "generate", "--model", self.model), "give the prompt as --prompt TEXT"),
        ]:
            done = run(*args, check=False)
            self.assertNotEqual(done.returncode, 0, args)
            self.assertIn(words, done.stderr)
            self.assertEqual(done.stderr.strip().count("\n"), 0, done.stderr)

    def test_generate_streams_what_json_reports(self):
        streamed = run("llama", "generate", "--model", self.model, "--prompt", "Once upon a time", "--max-new", "24",
                       "--ignore-eos")
        self.assertEqual(streamed.stdout, self.greedy["text"] + "\n")
        self.assertIn("finish: length (24 new tokens)", streamed.stderr)
        self.assertEqual(self.greedy["prompt_ids"], self.ids_of("Once upon a time"))
        self.assertEqual(len(self.greedy["new_ids"]), 24)
        decoded = run("llama", "detokenize", "--model", self.model, "--ids", ",".join(map(str, self.greedy["new_ids"])))
        self.assertEqual(decoded.stdout, self.greedy["text"] + "\n")
        self.assertEqual(self.greedy["finish_reason"], "length")
        for key in ("first_token_seconds", "prefill_tokens_per_second", "decode_tokens_per_second"):
            self.assertGreater(self.greedy["timings"][key], 0)

    def test_a_stop_string_cuts_the_text(self):
        text = self.greedy["text"]
        self.assertGreaterEqual(len(text), 8)
        stop = text[len(text) // 2:len(text) // 2 + 2]
        j = json.loads(run("llama", "generate", "--model", self.model, "--prompt", "Once upon a time", "--max-new", "24",
                           "--ignore-eos", "--stop", stop, "--stop", "never appears", "--json").stdout)
        self.assertEqual(j["finish_reason"], "stop")
        self.assertEqual(j["text"], text[:text.index(stop)])
        self.assertEqual(j["new_ids"], self.greedy["new_ids"][:len(j["new_ids"])])

    def test_an_end_id_ends_generation_unless_ignored(self):
        with tempfile.TemporaryDirectory() as tmp:
            model = os.path.join(tmp, "m")
            shutil.copytree(self.model, model)
            end = self.greedy["new_ids"][5]
            with open(os.path.join(model, "generation_config.json"), "w") as f:
                json.dump({"eos_token_id": [end]}, f)
            j = json.loads(run("llama", "generate", "--model", model, "--prompt", "Once upon a time", "--max-new", "24",
                               "--json").stdout)
            first = self.greedy["new_ids"].index(end)
            self.assertEqual(j["finish_reason"], "eos")
            self.assertEqual(j["new_ids"], self.greedy["new_ids"][:first + 1])
            past = json.loads(run("llama", "generate", "--model", model, "--prompt", "Once upon a time", "--max-new",
                                  "24", "--ignore-eos", "--json").stdout)
            self.assertEqual(past["new_ids"], self.greedy["new_ids"])

    def test_chat_answers_three_turns_through_a_pipe(self):
        done = run("llama", "chat", "--model", self.model, "--system", "You are terse.", "--max-new", "6",
                   stdin="Hello there\nHow are you?\nAnd then?\n/reset\nAgain\n")
        lines = done.stdout.split("\n")
        self.assertIn("(the conversation starts again)", lines)
        turns = re.findall(r"llama chat: turn ([0-9]+): ([0-9]+) new tokens? prefilled, ([0-9]+) reused", done.stderr)
        self.assertEqual([t[0] for t in turns], ["1", "2", "3", "1"], done.stderr)
        self.assertEqual(turns[0][2], "0")
        # The second turn reuses the first's prompt at least (and its reply, unless the template
        # trimmed the reply's text: models/llama/llama_text.h, chat_continuation_ids).
        self.assertGreaterEqual(int(turns[1][2]), int(turns[0][1]))
        self.assertGreater(int(turns[2][2]), int(turns[1][2]))
        self.assertEqual(turns[3][2], "0")        # after /reset, nothing is reused
        # The first answer after /reset is the first answer of the conversation (greedy, same ids),
        # when the message is the same: here it differs, so check the prompt instead.
        again = run("llama", "chat", "--model", self.model, "--system", "You are terse.", "--max-new", "6",
                    stdin="Hello there\n")
        self.assertEqual(again.stdout.split("\n")[0], lines[0])


if __name__ == "__main__":
    unittest.main()
