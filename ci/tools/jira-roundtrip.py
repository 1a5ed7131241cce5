"""Converts JIRA comments back to Markdown and checks that nothing a reviewer reads was lost.

Usage: jira-roundtrip.py COMMENT.jira... ; writes COMMENT.md beside each. Exits 1 when a
converted comment has fewer tables or code blocks than the JIRA text it came from: a table
header row (`||...||`) must become a Markdown table, a {noformat} pair a fenced block.
"""
import os
import re
import sys
from concurrent.futures import ProcessPoolExecutor

from jira2markdown import convert


def counts_jira(text):
    tables = len(re.findall(r"^\|\|.*\|\|$", text, re.M))
    code = len(re.findall(r"^\{noformat\}$", text, re.M)) // 2
    return tables, code


def counts_markdown(text):
    tables = len(re.findall(r"^\|---", text, re.M))
    code = len(re.findall(r"^```", text, re.M)) // 2
    return tables, code


def roundtrip(path):
    """Converts one comment; returns its line of the report and whether nothing was lost."""
    jira = open(path, encoding="utf-8").read()
    markdown = convert(jira)
    out = re.sub(r"\.jira$", "", path) + ".md"
    with open(out, "w", encoding="utf-8") as f:
        f.write(markdown)
    (jt, jc), (mt, mc) = counts_jira(jira), counts_markdown(markdown)
    ok = (jt, jc) == (mt, mc)
    return f"{'ok' if ok else 'LOST'} {path}: {mt} of {jt} tables, {mc} of {jc} code blocks -> {out}", ok


if __name__ == "__main__":
    # jira2markdown's parser takes seconds per comment, on one core: one process per core, each
    # converting its share (under PyPy, whose JIT then serves every comment of a process).
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        results = list(pool.map(roundtrip, sys.argv[1:]))
    for line, _ in results:
        print(line)
    sys.exit(0 if all(ok for _, ok in results) else 1)
