"""The generated region of the family pages (docs/families/<home>.md): the home's table as
docs/perf.md has it, and a line naming the runs it comes from, between two marker lines

    <!-- perf/report: family table begin -->
    <!-- perf/report: family table end -->

perf/report rewrites what lies between them whenever it writes the page beside the families folder
(docs/perf.md), so the pages' numbers come from the same runs; the rest of a page is written by
hand and left as it is. A page's home is its file name; a page without the markers is not touched."""

import os
import textwrap
from typing import Dict, List, Tuple

from . import family_tables
from .header import command_of
from .metrics import Limits
from .runs import Runs

BEGIN = "<!-- perf/report: family table begin -->"
END = "<!-- perf/report: family table end -->"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # the repository


def shown_path(path: str) -> str:
    """A run's path relative to the repository (perf/runs/full-x.json), however it was given; a
    file outside the repository by its name alone, so that no machine's path reaches a page."""
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, ROOT)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return os.path.basename(absolute)
    return relative.replace(os.sep, "/")


def source_line(runs: Runs, document_link: str) -> str:
    """The paragraph naming the runs the table comes from and the commands that made them."""
    made = " and ".join(f"`{shown_path(path)}` (made by `{command_of(ctx)}`)" for path, ctx in runs.sources)
    later = "; a later run's benchmarks replace an earlier one's" if len(runs.sources) > 1 else ""
    name = os.path.basename(document_link)
    text = (f"From {made}{later}: written by `perf/report` with [{name}]({document_link}), which "
            f"explains the columns.")
    return textwrap.fill(text, width=100, break_long_words=False, break_on_hyphens=False)


def marked_lines(lines: List[str], page: str) -> Tuple[int, int]:
    """The indices of the begin and end marker lines; ValueError naming `page` unless there is
    exactly one of each, in that order."""
    begins = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    ends = [i for i, line in enumerate(lines) if line.strip() == END]
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise ValueError(f"{page}: needs one line '{BEGIN}' and, after it, one line '{END}' "
                         f"(found {len(begins)} and {len(ends)})")
    return begins[0], ends[0]


def has_region(text: str) -> bool:
    return any(line.strip() in (BEGIN, END) for line in text.splitlines())


def region_of(text: str, page: str) -> str:
    """What lies between the markers of `text`."""
    lines = text.splitlines()
    begin, end = marked_lines(lines, page)
    return "\n".join(lines[begin + 1:end])


def replace_region(text: str, region: str, page: str) -> str:
    """`text` with `region` between its markers, the rest as it was."""
    lines = text.split("\n")
    begin, end = marked_lines(lines, page)
    return "\n".join(lines[:begin + 1] + ["", region.strip(), ""] + lines[end:])


def region(runs: Runs, limits: Limits, home: str, page: str, document: str) -> str:
    """The generated region of `page`, the page of `home`, beside `document` (docs/perf.md)."""
    cases = family_tables.groups(runs).get(home)
    if not cases:
        raise ValueError(f"{page}: the runs hold no case of home '{home}' (a family page's home is its "
                         f"file name)")
    link = os.path.relpath(os.path.abspath(document), os.path.dirname(os.path.abspath(page)))
    return source_line(runs, link.replace(os.sep, "/")) + "\n\n" + family_tables.group_table(runs, limits, cases)


def default_folder(document: str) -> str:
    """The family pages' folder beside `document`: docs/families for docs/perf.md."""
    return os.path.join(os.path.dirname(document), "families")


def regenerate(folder: str, runs: Runs, limits: Limits, document: str) -> Dict[str, str]:
    """{page: its new text} for every page of `folder` that holds the markers, nothing written;
    ValueError naming the page when its markers are malformed or the runs hold none of its home."""
    updated = {}
    for name in sorted(os.listdir(folder)):
        page = os.path.join(folder, name)
        if not name.endswith(".md") or not os.path.isfile(page):
            continue
        with open(page, encoding="utf-8") as f:
            text = f.read()
        if has_region(text):
            home = os.path.splitext(name)[0]
            updated[page] = replace_region(text, region(runs, limits, home, page, document), page)
    return updated
