#!/usr/bin/env python3
"""--help shows every memplan option's default, and the strategy option the
registered strategies.

  help_defaults.py HELP PASSES_TD PIPELINE_H STRATEGY_LIST

HELP is the output of memplan-opt --help (or mlir-opt --help with the
plugin). The expected defaults are read from the option definitions
(Passes.td's Option<...> records, Pipeline.h's cl::init), enum values by
their first cl::values name; the expected strategy names are the first
column of STRATEGY_LIST (memplan-solve --list). Prints one line per pass;
exit 1 on any difference.
"""
import re
import sys


def td_records(text, keyword):
    """Yields each `keyword<...>` record of a .td text as its argument list."""
    pos = 0
    while True:
        j = text.find(keyword + "<", pos)
        if j < 0:
            return
        k, depth, args, cur = j + len(keyword) + 1, 1, [], ""
        while depth:
            if text.startswith("[{", k):
                e = text.index("}]", k)
                cur += text[k:e + 2]
                k = e + 2
                continue
            c = text[k]
            if c == '"':
                e = k + 1
                while text[e] != '"':
                    e += 2 if text[e] == "\\" else 1
                cur += text[k:e + 1]
                k = e + 1
                continue
            if text.startswith("/*", k):
                k = text.index("*/", k) + 2
                continue
            if c == "<":
                depth += 1
            elif c == ">":
                depth -= 1
            if c == "," and depth == 1:
                args.append(cur.strip())
                cur = ""
            elif depth:
                cur += c
            k += 1
        args.append(cur.strip())
        yield args
        pos = k


def td_string(arg):
    """The value of adjacent TableGen string literals ("a" "b")."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', arg)
    return "".join(p.replace('\\"', '"') for p in parts)


def shown(default, flags):
    """What --help should print for a C++ default expression."""
    names = re.findall(r'clEnumValN\(\s*([\w:]+)\s*,\s*"([^"]+)"', flags)
    for value, name in names:
        if value == default:
            return name
    m = re.fullmatch(r'"(.*)"', default)
    if m:
        return m.group(1) or '""'
    return default


def passes_from_td(path):
    text = open(path).read()
    passes = {}
    for m in re.finditer(r'^def \w+\s*:\s*Pass<"([\w-]+)"', text, re.M):
        end = text.find("\ndef ", m.end())
        body = text[m.end():end if end >= 0 else len(text)]
        opts = {}
        o = body.find("let options")
        if o >= 0:
            for args in td_records(body[o:body.index("];", o)], "Option"):
                arg, default = td_string(args[1]), td_string(args[3])
                flags = args[5] if len(args) > 5 else ""
                opts[arg] = shown(default, flags)
        passes[m.group(1)] = opts
    return passes


def pipeline_from_header(path):
    text = open(path).read()
    opts = {}
    for m in re.finditer(r'Option<[\w:]+>\s+\w+\{\s*\*this,\s*"([\w-]+)"(.*?)\};',
                         text, re.S):
        init = re.search(r'cl::init\((.*?)\)\s*[,}]', m.group(2) + "}", re.S)
        opts[m.group(1)] = shown(init.group(1).strip(), m.group(2))
    return {"memplan-pipeline": opts}


def help_sections(path):
    sections, cur = {}, None
    for line in open(path):
        m = re.match(r"^      --([\w-]+)\s", line)
        if m:
            cur = sections.setdefault(m.group(1), {})
            continue
        m = re.match(r"^        --([\w-]+)(=<\w+>)?\s+- (.*)$", line)
        if m and cur is not None:
            cur[m.group(1)] = m.group(3)
        elif not re.match(r"^\s+=", line):  # an enum option's values
            cur = None
    return sections


def main():
    help_file, td, header, strategies = sys.argv[1:5]
    names = [l.split()[0] for l in open(strategies) if l.strip()]
    expected = passes_from_td(td)
    expected.update(pipeline_from_header(header))
    sections = help_sections(help_file)
    bad = 0
    for name, opts in sorted(expected.items()):
        got = sections.get(name)
        if got is None:
            print("%s: not in --help" % name)
            bad += 1
            continue
        problems = []
        for arg, value in sorted(opts.items()):
            desc = got.get(arg)
            if desc is None:
                problems.append("%s: not in --help" % arg)
                continue
            m = re.search(r"\(default: (.*?)\)", desc)
            if not m or m.group(1) != value:
                problems.append("%s: default %s in --help, %s defined" %
                                (arg, m.group(1) if m else "missing", value))
            if arg == "strategy":
                r = re.search(r"\(registered: (.*?)\)", desc)
                listed = r.group(1).split(", ") if r else []
                if listed != names:
                    problems.append("strategy: registered %s, memplan-solve "
                                    "--list %s" % (listed, names))
        for arg in sorted(set(got) - set(opts)):
            problems.append("%s: in --help, not defined" % arg)
        bad += len(problems)
        print("%s: %d options%s" % (name, len(opts),
                                    ", defaults as defined" if not problems
                                    else "\n  " + "\n  ".join(problems)))
    print("strategies: %d, problems: %d" % (len(names), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
