"""Places one search result among the states a reference database passed
through (concurrency.sh).

  state_place.py sig                 the JSON result on stdin -> its signature:
                                     "LOWER UPPER [(feed, count), ...]"
  state_place.py place STATES        the JSON result on stdin -> its place
                                     among the signatures in STATES, one a line
  state_place.py place-total TOTALS  the same for "LOWER UPPER" lines

A place is 2*i for the state on line i (from 1), 2*i-1 for a state between
lines i-1 and i: a commit in the middle of the `add` that led from one to
the other (a run commits every 2 s), where the total and every feed's count
lie between the two states'. It is
"none" for a state no commit could have produced. Places only grow while
the database only grows.
"""
import ast
import json
import sys


def signature(result, totals_only):
    t = result["total"]
    if totals_only:
        return (t["lower_bound"], t["upper_bound"], {})
    counts = {v["value"]: v["count"] for v in result["facets"].get("feed", [])}
    return (t["lower_bound"], t["upper_bound"], counts)


def parse(line, totals_only):
    parts = line.split(" ", 2)
    counts = {} if totals_only else dict(ast.literal_eval(parts[2]))
    return (int(parts[0]), int(parts[1]), counts)


def between(before, state, after):
    if not (before[0] <= state[0] <= after[0] and before[1] <= state[1] <= after[1]):
        return False
    feeds = set(before[2]) | set(state[2]) | set(after[2])
    for f in feeds:
        if not before[2].get(f, 0) <= state[2].get(f, 0) <= after[2].get(f, 0):
            return False
    return True


def place(result, path, totals_only):
    with open(path, encoding="utf-8") as f:
        states = [parse(line.rstrip("\n"), totals_only) for line in f if line.strip()]
    sig = signature(result, totals_only)
    for i, s in enumerate(states, 1):
        if s == sig:
            return str(2 * i)
    for i in range(2, len(states) + 1):
        if between(states[i - 2], sig, states[i - 1]):
            return str(2 * i - 1)
    return "none"


def main():
    result = json.load(sys.stdin)
    cmd = sys.argv[1]
    if cmd == "sig":
        lower, upper, counts = signature(result, False)
        print(lower, upper, sorted(counts.items()))
    elif cmd in ("place", "place-total"):
        print(place(result, sys.argv[2], cmd == "place-total"))
    else:
        sys.exit(f"state_place.py: unknown command {cmd}")


if __name__ == "__main__":
    main()
