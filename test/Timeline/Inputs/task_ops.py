"""Checks a timeline page against the report it was drawn from: the peak
line of each section names the report's peak task and the op its "task_ops"
table gives for it, and each buffer's tooltip names the ops of its first and
last task from the same table.

usage: task_ops.py REPORT.json PAGE.html
Prints one line per section; exits 1 when the page and the report disagree.
"""
import json
import sys
from html.parser import HTMLParser


def describe(ops, task):
    """The page's words for a task (Timeline.h, describeTask)."""
    text = f"task {task}"
    op = ops.get(task)
    if op:
        text += ", " + (op["result"] + " = " if "result" in op else "")
        text += op["op"] + " at " + op["location"]
        if "in" in op:
            text += " in " + op["in"]["op"] + " at " + op["in"]["location"]
    return text


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections = []
        self.in_line = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and a.get("class") == "sec":
            self.sections.append({"line": None, "task": None, "tips": []})
        elif tag == "p" and a.get("class") == "peak-line":
            self.sections[-1]["task"] = a.get("data-task")
            self.sections[-1]["line"] = ""
            self.in_line = True
        elif tag == "rect" and "buffer" in (a.get("class") or "").split():
            self.sections[-1]["tips"].append(a.get("data-tip") or "")

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        if tag == "p":
            self.in_line = False

    def handle_data(self, data):
        if self.in_line:
            self.sections[-1]["line"] += data


report = json.load(open(sys.argv[1], encoding="utf-8"))
page = Page()
page.feed(open(sys.argv[2], encoding="utf-8").read())
expected = []
for f in report["functions"]:
    for a in f["arenas"]:
        expected.append((a, {t["task"]: t for t in a.get("task_ops", [])}))
ok = len(expected) == len(page.sections)
print(f"sections {len(page.sections)} arenas {len(expected)}")
for n, ((a, ops), sec) in enumerate(zip(expected, page.sections)):
    task = a["peak"]["task"]
    want = "peak: " + describe(ops, task) + ";"
    line_ok = sec["task"] == str(task) and (sec["line"] or "").startswith(want)
    good_tips = sum(
        1
        for b, tip in zip(a["buffers"], sec["tips"])
        if "\nfirst: " + describe(ops, b["first_task"]) + "\n" in tip
        and "\nlast: " + describe(ops, b["last_task"]) in tip)
    tips_ok = not ops or (good_tips == len(a["buffers"]) == len(sec["tips"]))
    ok = ok and line_ok and tips_ok and (task in ops or not ops)
    op = ops.get(task, {}).get("op", "-")
    print(f"section {n}: peak task {task} op {op}: line "
          f"{'agrees' if line_ok else 'DISAGREES: ' + repr(sec['line'])}, "
          f"tooltips {good_tips if ops else '-'} of {len(a['buffers'])}")
sys.exit(0 if ok else 1)
