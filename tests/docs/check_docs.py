#!/usr/bin/env python3
"""The docs stay true to the tree and describe the design as it is now: this reads README.md and
every page under docs/ and fails, one line per problem, on

  - a relative link that leads nowhere, or a repository path in backticks or in a code block that
    names nothing in the tree: a word that starts with a top-level folder (`formats/npy.h`,
    `tests/llama/`) must exist as written; a source file named without its folder (`llama_rope.h`)
    or by its last folders (`compiler/program.h`) must be the end of some path of the tree;
  - in the pages written by hand (docs/ but the generated docs/perf.md): a date (2026-12-06), a
    commit-like hash (7 to 40 hex digits, letters and digits mixed), a heading that says "tried",
    a paragraph that starts with "Tried", a reference to an issue by number, a prose line over 160
    characters or a table row or code line over 400; the lines between a family page's markers
    (perf/report writes them from the runs it names) may hold dates and hashes, and a marker
    without its pair is a problem;
  - a machine's path: anything under /work/, /home/ or /root/ on any page, and any absolute path
    on the generated docs/perf.md or between the markers.

Dated measurements, what was tried and not kept, and commits belong in perf/notes.md.

    tests/docs/check_docs.py [--root DIR]     exit 1 and one line per problem
"""

import argparse
import os
import re
import sys

GENERATED = "docs/perf.md"      # perf/report writes it from perf/runs/: its header names runs and commits
REGION_BEGIN = "<!-- perf/report: family table begin -->"   # perf/report writes the lines between
REGION_END = "<!-- perf/report: family table end -->"       # (perf/report_lib/family_pages.py)
SOURCE_SUFFIXES = (".h", ".cpp", ".py", ".def", ".sh", ".cmake", ".md", ".in", ".supp", ".dict")
SKIPPED_FOLDERS = {".git", ".cache", "__pycache__"}
PLACEHOLDER = re.compile(r"[<>*$|=\\]|\.\.\.|…")    # `schedules/<home>/`, `*_model`, `a|b`: not one path
FENCE = re.compile(r"^\s*```")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"\]\(([^()\s]+)\)")
DATE = re.compile(r"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b")
HEX = re.compile(r"(?<![\w.])[0-9a-f]{7,40}\b")     # not the tail of 1.5365e16
TRIED_HEADING = re.compile(r"^#+ .*\btried\b", re.I)
TRIED_PARAGRAPH = re.compile(r"^Tried\b")
ISSUE = re.compile(r"\bissues? \d+\b", re.I)
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|home|root)/")
ABSOLUTE_PATH = re.compile(r"(?:^|[\s`'\"(])(/[\w.+-]+/[\w./+-]*)")
PROSE_LIMIT, ROW_LIMIT = 160, 400


def tree_paths(root):
    """Every file and folder of the tree relative to `root` (folders with a trailing /), build
    folders and git's own left out; symbolic links followed (a test's copy links the real tree)."""
    paths = set()
    for folder, dirs, files in os.walk(root, followlinks=True):
        rel = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs if d not in SKIPPED_FOLDERS and not (rel == "." and d.startswith("build"))]
        prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        paths.update(prefix + d + "/" for d in dirs)
        paths.update(prefix + f for f in files)
    return paths


def pages(root):
    """README.md and the Markdown pages under docs/, relative to `root`, in a stable order."""
    found = ["README.md"] if os.path.exists(os.path.join(root, "README.md")) else []
    for folder, dirs, files in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        found += sorted(os.path.relpath(os.path.join(folder, f), root).replace(os.sep, "/")
                        for f in files if f.endswith(".md"))
    return found


def expand_braces(word):
    """`llama_tiny_{untied,tied}.json` as the two names a shell would make of it."""
    match = re.search(r"\{([^{}]*)\}", word)
    if not match:
        return [word]
    head, tail = word[:match.start()], word[match.end():]
    return [w for choice in match.group(1).split(",") for w in expand_braces(head + choice + tail)]


def paragraphs(lines):
    """(first line number, text) of each run of prose lines and of each line in a fenced block
    (fenced: True), so that a code span broken across two lines of a paragraph is one span."""
    fenced, start, prose = False, 0, []
    for number, line in enumerate(lines, 1):
        fence = FENCE.match(line)
        if prose and (fence or fenced or not line.strip()):
            yield start, "\n".join(prose), False
            prose = []
        if fence:
            fenced = not fenced
        elif fenced:
            yield number, line, True
        elif line.strip():
            start = start if prose else number
            prose.append(line)
    if prose:
        yield start, "\n".join(prose), False


def code_words(lines):
    """(line number, word) for each word in a code span or a fenced code block."""
    for start, text, fenced in paragraphs(lines):
        spans = [(0, text)] if fenced else [(m.start(2), m.group(2)) for m in CODE_SPAN.finditer(text)]
        for offset, span in spans:
            for word in re.finditer(r"\S+", span):
                yield start + text.count("\n", 0, offset + word.start()), word.group(0)


def link_problems(page, lines, root):
    """(line number, problem) for each relative Markdown link of `page` whose target is missing."""
    folder = os.path.dirname(page)
    for start, text, fenced in paragraphs(lines):
        if fenced:
            continue
        for match in LINK.finditer(text):
            target = match.group(1).split("#")[0]
            if not target or re.match(r"^[a-z]+:", target):
                continue
            if not os.path.exists(os.path.join(root, folder, target)):
                yield start + text.count("\n", 0, match.start()), f"a link to {target}, which does not exist"


def path_problem(word, top_folders, paths):
    """Why `word` names nothing in the tree, or None when it does or is no repository path."""
    word = word.strip("()[],;:'\"").rstrip(".")
    if word.startswith("#"):
        return None
    if word.startswith(("-", "/", "~", "http", "build", "$")) or "::" in word or PLACEHOLDER.search(word):
        return None
    for name in expand_braces(word):
        if name.startswith("./"):
            name = name[2:]
        first = name.split("/")[0] + "/"
        if "/" in name and first in top_folders:
            if name not in paths and name.rstrip("/") not in paths and name.rstrip("/") + "/" not in paths:
                return f"`{name}` does not exist"
        elif name.endswith(SOURCE_SUFFIXES) and re.fullmatch(r"[a-z0-9_./+-]+", name):   # not Halide.h
            if not any(p == name or p.endswith("/" + name) for p in paths):
                return f"`{name}` is no file of the tree"
    return None


def generated_lines(lines):
    """(the numbers of the lines strictly between a begin marker line and the next end marker line,
    (line number, problem) for each marker without its pair, which exempts no line)."""
    inside, problems, begin, pending = set(), [], None, []
    for number, line in enumerate(lines, 1):
        if line.strip() == REGION_BEGIN:
            if begin is not None:
                problems.append((begin, "a generated region's begin marker without its end marker"))
            begin, pending = number, []
        elif line.strip() == REGION_END:
            if begin is None:
                problems.append((number, "a generated region's end marker without its begin marker"))
            inside.update(pending)
            begin, pending = None, []
        elif begin is not None:
            pending.append(number)
    if begin is not None:
        problems.append((begin, "a generated region's begin marker without its end marker"))
    return inside, problems


def hygiene_problems(lines, generated=frozenset()):
    """(line number, problem) for what a hand-written page about the design as it is must not hold;
    the `generated` lines (perf/report's region) may name runs, commits and dates."""
    fenced = False
    for number, line in enumerate(lines, 1):
        if FENCE.match(line):
            fenced = not fenced
        if number not in generated:
            if DATE.search(line):
                yield number, f"a date ({DATE.search(line).group(0)}): dated entries belong in perf/notes.md"
            for match in HEX.finditer(line):
                token = match.group(0)
                if re.search(r"\d", token) and re.search(r"[a-f]", token):
                    yield number, f"a commit-like hash ({token}): commits belong in perf/notes.md"
        if not fenced and TRIED_HEADING.match(line):
            yield number, "a heading about what was tried: that belongs in perf/notes.md"
        if not fenced and TRIED_PARAGRAPH.match(line):
            yield number, "a paragraph about what was tried: that belongs in perf/notes.md"
        if not fenced and ISSUE.search(line):
            yield number, f"a reference to an issue ({ISSUE.search(line).group(0)}): say what is, not its history"
        limit = ROW_LIMIT if fenced or line.lstrip().startswith("|") else PROSE_LIMIT
        if len(line) > limit:
            yield number, f"a line of {len(line)} characters (at most {limit} here)"


def check(root):
    """Every problem of the pages under `root`, as 'page:line: problem' lines."""
    paths = tree_paths(root)
    top_folders = {p for p in paths if p.endswith("/") and p.count("/") == 1}
    problems = []
    for page in pages(root):
        with open(os.path.join(root, page), encoding="utf-8") as f:
            lines = f.read().splitlines()
        for number, word in code_words(lines):
            why = path_problem(word, top_folders, paths)
            if why:
                problems.append(f"{page}:{number}: {why}")
        problems += [f"{page}:{number}: {why}" for number, why in link_problems(page, lines, root)]
        generated, marker_problems = generated_lines(lines)
        if page != GENERATED and page.startswith("docs/"):
            problems += [f"{page}:{number}: {why}" for number, why in marker_problems]
            problems += [f"{page}:{number}: {why}" for number, why in hygiene_problems(lines, generated)]
        for number, line in enumerate(lines, 1):
            if MACHINE_PATH.search(line):
                problems.append(f"{page}:{number}: a path of this machine ({line.strip()[:60]}...)")
            elif (page == GENERATED or number in generated) and ABSOLUTE_PATH.search(line):
                problems.append(f"{page}:{number}: an absolute path on a generated page "
                                f"({ABSOLUTE_PATH.search(line).group(1)})")
    return problems


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", ".."),
                        help="the repository's root (default: this checkout)")
    problems = check(os.path.realpath(parser.parse_args(argv).root))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
