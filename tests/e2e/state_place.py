"""Places search results among the states a reference database passed
through (concurrency.sh).

  state_place.py sig             the JSON result on stdin -> its signature:
                                 "LOWER UPPER [(feed, count), ...]"
  state_place.py check STATES MULTI NAME
                                 one JSON result a line on stdin, in the
                                 order one searcher got them; prints a line
                                 for each that no commit could have given or
                                 that is older than one before it

STATES holds a signature a line (the state after each `add`), or only
"LOWER UPPER" (then only totals are compared). MULTI holds the numbers of
the states (from 1) whose `add` committed more than once: a result between
state i-1 and state i, with the total and every feed's count between the
two states', is a commit in the middle of that `add`, accepted only when i
is in MULTI.
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


def place(sig, states, multi):
    """2*i for state i, 2*i-1 between states i-1 and i, None for neither."""
    for i, s in enumerate(states, 1):
        if s == sig:
            return 2 * i
    for i in range(2, len(states) + 1):
        if i in multi and between(states[i - 2], sig, states[i - 1]):
            return 2 * i - 1
    return None


def check(states_path, multi_path, name):
    with open(states_path, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    totals_only = all(len(line.split(" ")) == 2 for line in lines)
    states = [parse(line, totals_only) for line in lines]
    with open(multi_path, encoding="utf-8") as f:
        multi = {int(line) for line in f if line.strip()}
    last = 0
    for n, line in enumerate(sys.stdin, 1):
        sig = signature(json.loads(line), totals_only)
        at = place(sig, states, multi)
        if at is None:
            print(f"{name} search {n}: a state no commit produced: {sig[0]} {sig[1]} {sorted(sig[2].items())}")
        elif at < last:
            print(f"{name} search {n}: state {at / 2} after state {last / 2}")
        else:
            last = at


def main():
    cmd = sys.argv[1]
    if cmd == "sig":
        lower, upper, counts = signature(json.load(sys.stdin), False)
        print(lower, upper, sorted(counts.items()))
    elif cmd == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(f"state_place.py: unknown command {cmd}")


if __name__ == "__main__":
    main()
