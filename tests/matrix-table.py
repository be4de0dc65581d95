#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The crash-point matrix of a finished tests/run, as tables per kernel.

Reads what the run left under PC_OUT: prep/K.ready and K.order (each
series' kernel release and its results' names), REL/cases/matrix_*.sh
(the generated cases: their cells and what each predicts) and
results/SERIES-CASE.{result,out,console}.  Each cell is judged again on
its own, from its own header lines, so that one failing cell does not
hide the others of its guest:

  r refused   the write failed with EINVAL and its log line
  m missed    every hit counted as missed, the reason logged
  f fired     fired, and the kernel printed the type's text
  x XFAIL     fired where this kernel cannot catch the type: missed, with
              its XFAIL line
  C crashed   a fatal cell (its own guest): crashed as named
  ! FAIL      a header line of the cell was not met, or its guest failed
  s skipped   the case was skipped (the reason is on its KTAP line)

Usage: tests/matrix-table.py [PC_OUT] [--grid]   (PC_OUT: default
$PC_OUT, else build).  --grid adds one line per type: a letter per path
and kind of point (entry, +offset, %return).
"""
import glob
import os
import re
import sys

KINDS = ("entry", "offset", "return")
PATHS = ("task", "preempt", "rcu", "softirq", "hardirq", "nmi")
SMP = "2cpu:"


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read().replace("\r", "")
    except OSError:
        return None


def series_releases(out):
    """{series: release} from the run's preparation files."""
    found = {}
    for ready in glob.glob(os.path.join(out, "prep", "*.ready")):
        k = os.path.basename(ready)[: -len(".ready")]
        rel = (read(ready) or "").strip()
        for name in (read(os.path.join(out, "prep", k + ".order")) or "").split():
            if "-matrix_" in name:
                found[name.split("-matrix_")[0]] = rel
                break
    return found


def case_cells(case_file):
    """The cells of a generated case: [(path, name, predicted, [(where, ERE)])]."""
    text = read(case_file) or ""
    base = os.path.basename(case_file)[:-3]
    m = re.match(r"matrix_fatal_([a-z]+)_(entry|offset|return)_(.+)$", base)
    if m:
        return m.group(2), [(m.group(1), m.group(3), "crashed", [])]
    m = re.match(r"matrix_smp_(entry|offset|return)$", base)
    smp = bool(m)
    if not m:
        m = re.match(r"matrix_([a-z]+)_(entry|offset|return)", base)
    kind = m.group(m.lastindex)
    path = None if smp else m.group(1)
    cells, order, current = {}, [], None
    for line in text.splitlines():
        if line.startswith("# expect-out: ^T "):
            ere = line[len("# expect-out: "):]
            words = ere.split()
            key = (SMP + words[1], words[2]) if smp else (path, words[1])
            if key not in cells:
                cells[key] = {"predicted": None, "checks": []}
                order.append(key)
            cell = cells[key]
            cell["checks"].append(("out", ere))
            if " refused: " in ere:
                cell["predicted"] = "refused"
            elif " missed: it needs " in ere:
                cell["predicted"] = "missed"
            elif " verdict: " in ere:
                cell["predicted"] = "fired"
            current = key
        elif line.startswith("# expect: ") and current:
            cells[current]["checks"].append(("console", line[len("# expect: "):]))
        elif line.startswith("# expect-out: "):
            current = None
    return kind, [(p, n, cells[(p, n)]["predicted"], cells[(p, n)]["checks"])
                  for p, n in order]


def judge_cell(path, name, predicted, checks, result, out, console):
    """The cell's letter."""
    if result is None:
        return None
    first = result.splitlines()[0] if result else ""
    if "# SKIP" in first:
        return "s"
    if predicted == "crashed":
        return "C" if first.startswith("ok ") else "!"
    if out is None:
        return "!"
    logs = {"out": out.splitlines(), "console": (console or "").splitlines()}
    for where, ere in checks:
        try:
            rx = re.compile(ere)
        except re.error:
            return "!"
        if not any(rx.search(line) for line in logs[where]):
            return "!"
    if predicted == "refused":
        return "r"
    if predicted == "missed":
        return "m"
    tag = "T %s%s" % (path[len(SMP):] + " " if path.startswith(SMP) else "", name)
    verdict = re.search(r"^%s verdict: (\S+)$" % re.escape(tag), out, re.M)
    return "x" if verdict and verdict.group(1) == "missed/xfail" else "f"


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    grid = "--grid" in argv
    out = args[0] if args else os.environ.get("PC_OUT", "build")
    results = os.path.join(out, "results")
    names = {"r": "refused", "m": "missed", "f": "fired", "x": "xfail",
             "C": "crashed", "s": "skipped", "!": "FAIL"}
    releases = series_releases(out)
    if not releases:
        print(f"no matrix case in the run under {out}")
        return 1
    bad = 0
    for series, rel in releases.items():
        table = {}  # (path, kind) -> {letter: count}
        types = {}  # name -> {(path, kind): letter}
        failed_cases = []
        for case_file in sorted(glob.glob(os.path.join(out, rel, "cases", "matrix_*.sh"))):
            case = os.path.basename(case_file)[:-3]
            res = os.path.join(results, f"{series}-{case}")
            result = read(res + ".result")
            if result is None:
                continue
            if not result.startswith("ok "):
                failed_cases.append(result.splitlines()[0])
            out_text, console = read(res + ".out"), read(res + ".console")
            kind, cells = case_cells(case_file)
            for path, name, predicted, checks in cells:
                letter = judge_cell(path, name, predicted, checks, result, out_text, console)
                if letter is None:
                    continue
                # A cell that met its lines in a guest that failed on a
                # line of no cell (a reject, a timeout) fails too.
                if letter in "rmfx" and not result.startswith("ok "):
                    letter = "!"
                counts = table.setdefault((path, kind), {})
                counts[letter] = counts.get(letter, 0) + 1
                types.setdefault(name, {})[(path, kind)] = letter
        total = sum(sum(c.values()) for c in table.values())
        fails = sum(c.get("!", 0) for c in table.values())
        bad += fails + len(failed_cases)
        print(f"## {series} ({rel}): {total} cells, {total - fails} pass, {fails} FAIL")
        cols = ("r", "m", "f", "x", "C", "s", "!")
        print(f"{'path':<13} {'kind':<7} {'cells':>5} " +
              " ".join(f"{names[c]:>7}" for c in cols))
        order = [p for p in PATHS] + [SMP + p for p in PATHS]
        for path in order:
            for kind in KINDS:
                c = table.get((path, kind))
                if not c:
                    continue
                print(f"{path:<13} {kind:<7} {sum(c.values()):>5} " +
                      " ".join(f"{c.get(x, 0):>7}" for x in cols))
        sums = {x: sum(c.get(x, 0) for c in table.values()) for x in cols}
        print(f"{'all':<13} {'':<7} {total:>5} " + " ".join(f"{sums[x]:>7}" for x in cols))
        for line in failed_cases:
            print(f"  case: {line}")
        if grid:
            seen = [p for p in order if any((p, k) in table for k in KINDS)]
            print()
            print("type" + " " * 29 + " ".join(f"{p:<5}" for p in seen))
            print(" " * 33 + " ".join("eor  " for _ in seen))
            for name in sorted(types):
                row = " ".join("".join(types[name].get((p, k), ".") for k in KINDS) + "  "
                               for p in seen)
                print(f"{name:<32} {row.rstrip()}")
        print()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
