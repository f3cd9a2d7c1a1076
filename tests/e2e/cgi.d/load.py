#!/usr/bin/python3
"""A bounded load of searches, for checking that a rebuild fails none.

    load.py BASE_URL --stop-file FILE [--threads N] [--max-seconds S]

Runs N threads that send JSON searches over the sample data to BASE_URL
until FILE exists (or S seconds pass), then prints how many requests were
sent and how many failed. A request fails when its status is not 200, its
body is not JSON, or a query that always matches comes back empty (a
rebuild must switch from a complete index to a complete index).
Exits 1 if any request failed or none was sent.
"""

import argparse
import collections
import json
import os
import threading
import time
import urllib.error
import urllib.request

# (query string, must match something)
QUERIES = [
    ("q=compile&format=json", True),
    ("q=torch&format=json&sort=date", True),
    ("feed=pytorch&format=json&n=5", True),
    ("format=json", True),
    ("q=memory+snapshot&format=json", True),
    ("q=nonexistentwordxyz&format=json", False),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--stop-file", required=True)
    parser.add_argument("--threads", type=int, default=3)
    parser.add_argument("--max-seconds", type=float, default=120)
    args = parser.parse_args()

    lock = threading.Lock()
    sent = [0]
    failures = collections.Counter()
    examples = []
    deadline = time.monotonic() + args.max_seconds

    def fail(reason, detail):
        with lock:
            failures[reason] += 1
            if len(examples) < 5:
                examples.append(detail)

    def worker(offset):
        i = offset
        while not os.path.exists(args.stop_file) and time.monotonic() < deadline:
            qs, must_match = QUERIES[i % len(QUERIES)]
            i += 1
            with lock:
                sent[0] += 1
            try:
                with urllib.request.urlopen(f"{args.base}?{qs}", timeout=30) as r:
                    body = r.read()
                data = json.loads(body)
                if must_match and not data.get("results"):
                    fail("empty result", qs)
            except urllib.error.HTTPError as e:
                fail(f"status {e.code}", f"{qs}: {e.code} {e.read()[:200]!r}")
            except (OSError, ValueError) as e:
                fail(type(e).__name__, f"{qs}: {e}")

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total_failed = sum(failures.values())
    print(f"load: {sent[0]} requests, {total_failed} failed"
          + (" (" + ", ".join(f"{k}: {v}" for k, v in failures.items()) + ")" if failures else ""))
    for e in examples:
        print("load: e.g.", e)
    raise SystemExit(1 if total_failed or sent[0] == 0 else 0)


if __name__ == "__main__":
    main()
