"""Reads what a timeline page's own self-test (page.html#selftest) left in
the DOM dumped by headless Chromium.

usage: selftest.py DOM
Prints the status line, the self-test result, the y scale each section
started on and the "live at the peak" tables found; exits 1 when any check
of the page failed.
"""
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.result = None
        self.drawn = self.expected = None
        self.modes = []
        self.tables = 0
        self.peaks = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") == "selftest":
            self.result = a.get("data-result")
        if a.get("id") == "status":
            self.drawn, self.expected = a.get("data-drawn"), a.get("data-expected")
        if tag == "div" and a.get("class") == "sec":
            self.modes.append(a.get("data-mode"))
        if tag == "table" and "peak-table" in (a.get("class") or ""):
            self.tables += 1
        if tag == "line" and a.get("class") == "peak" and "data-task" in a:
            self.peaks += 1

    handle_startendtag = handle_starttag


p = Page()
p.feed(open(sys.argv[1], encoding="utf-8").read())
print(f"drawn {p.drawn} of {p.expected}")
print(f"peak markers {p.peaks} tables {p.tables} modes {' '.join(map(str, p.modes))}")
print(f"selftest {p.result}")
ok = p.result is not None and "bad" not in p.result and p.drawn == p.expected
sys.exit(0 if ok else 1)
