"""Compares a rendered timeline DOM with the plan report it was drawn from.

usage: count_rects.py DOM REPORT.json
Prints "buffers N rects R drawn D" and exits 1 unless the report's planned
buffers, the <rect class="buffer"> elements and the page's own count agree.
"""
import json
import sys
from html.parser import HTMLParser


class Rects(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rects = 0
        self.drawn = None
        self.tips = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "rect" and "buffer" in (a.get("class") or "").split():
            self.rects += 1
            if a.get("data-tip"):
                self.tips += 1
        if a.get("id") == "status":
            self.drawn = a.get("data-drawn")

    handle_startendtag = handle_starttag


dom = Rects()
dom.feed(open(sys.argv[1], encoding="utf-8").read())
report = json.load(open(sys.argv[2]))
buffers = sum(len(a["buffers"]) for f in report["functions"] for a in f["arenas"])
print(f"buffers {buffers} rects {dom.rects} drawn {dom.drawn} tips {dom.tips}")
ok = buffers == dom.rects == dom.tips and str(buffers) == dom.drawn
sys.exit(0 if ok else 1)
