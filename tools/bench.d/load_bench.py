#!/usr/bin/env python3
"""Load benchmark (issue 16): an ordinary search while 4 clients send the
worst requests we know (worst_queries.py) to blogsearch.cgi as FastCGI
behind lighttpd (tools/serve --fastcgi). Every request carries a counter
parameter that the CGI ignores, so that no answer comes from its cache.
Prints the ordinary search's latency (median, p99, max, and how many took
up to 2, 5, 10, 20, 50, 100, 200 ms or more) alone and under load, and
what the worst requests got (status counts).

  load_bench.py --cgi BIN --db DIR [--seconds S] [--clients N] [--port P]
                [--procs N] [--searchers N] [--lower-after MS] [--markdown FILE]
"""
import argparse
import http.client
import multiprocessing
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import worst_queries  # noqa: E402

ORDINARY = "q=python"


def get(conn, query):
    conn.request("GET", "/search?" + query)
    resp = conn.getresponse()
    resp.read()
    return resp.status


def attacker(port, stop_at, counts, seed):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    cases = [q for name, q in worst_queries.CASES.items() if not name.startswith("ordinary")]
    i = seed
    while time.time() < stop_at:
        q = cases[i % len(cases)]
        i += 1
        try:
            status = get(conn, (q + "&" if q else "") + f"r={seed}-{i}")
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            status = 0
        with counts.get_lock():
            counts[{200: 0, 400: 1, 503: 2}.get(status, 3)] += 1


def measure(port, seconds, tag):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times, statuses = [], {}
    stop_at = time.time() + seconds
    i = 0
    while time.time() < stop_at:
        i += 1
        start = time.perf_counter()
        status = get(conn, f"{ORDINARY}&r={tag}-{i}")
        times.append((time.perf_counter() - start) * 1000)
        statuses[status] = statuses.get(status, 0) + 1
        time.sleep(0.005)  # an ordinary user, not a flood
    times.sort()
    pick = lambda p: times[min(len(times) - 1, int(p * len(times)))]
    bounds = (2, 5, 10, 20, 50, 100, 200)
    spread = [sum(1 for t in times if (k == 0 or t > bounds[k - 1]) and t <= b) for k, b in enumerate(bounds)]
    spread.append(sum(1 for t in times if t > bounds[-1]))
    return {"n": len(times), "p50": pick(0.5), "p99": pick(0.99), "max": times[-1], "statuses": statuses,
            "spread": spread}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cgi", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--port", type=int, default=18431)
    ap.add_argument("--procs", type=int, default=0, help="FastCGI processes (default: tools/serve's)")
    ap.add_argument("--searchers", type=int, default=0,
                    help="searchers per process (BLOGSEARCH_CGI_SEARCHERS; default: tools/serve's)")
    ap.add_argument("--lower-after", type=int, default=-1,
                    help="CPU ms after which a request is lowered (BLOGSEARCH_CGI_LOWER_AFTER_MS; default: tools/serve's)")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    src = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    cmd = [os.path.join(src, "tools", "serve"), "--fastcgi", "--port", str(a.port), "--db", a.db, "--cgi", a.cgi]
    if a.procs:
        cmd += ["--procs", str(a.procs)]
    if a.searchers:
        cmd += ["--searchers", str(a.searchers)]
    if a.lower_after >= 0:
        cmd += ["--lower-after", str(a.lower_after)]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                get(http.client.HTTPConnection("127.0.0.1", a.port, timeout=5), ORDINARY)
                break
            except OSError:
                time.sleep(0.1)
        alone = measure(a.port, a.seconds / 2, "alone")
        counts = multiprocessing.Array("l", 4)
        stop_at = time.time() + a.seconds + 1
        clients = [multiprocessing.Process(target=attacker, args=(a.port, stop_at, counts, k))
                   for k in range(a.clients)]
        for c in clients:
            c.start()
        time.sleep(0.5)
        loaded = measure(a.port, a.seconds, "loaded")
        for c in clients:
            c.join()
    finally:
        server.terminate()
        server.wait()
    load = open("/proc/loadavg").read().split()[:3]
    rows = [
        "| ordinary search (`q=python`, not cached) | requests | median ms | p99 ms | max ms | statuses |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in (("alone", alone), (f"while {a.clients} clients send the worst requests", loaded)):
        rows.append(f"| {name} | {r['n']} | {r['p50']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | "
                    + ", ".join(f"{k}: {v}" for k, v in sorted(r["statuses"].items())) + " |")
    rows.append("")
    rows.append("| ordinary search | ≤2 ms | ≤5 | ≤10 | ≤20 | ≤50 | ≤100 | ≤200 | >200 |")
    rows.append("|---|---|---|---|---|---|---|---|---|")
    for name, r in (("alone", alone), ("under load", loaded)):
        rows.append(f"| {name} | " + " | ".join(str(c) for c in r["spread"]) + " |")
    worst = counts[:]
    rows.append("")
    rows.append(f"The {a.clients} clients' worst requests ({sum(worst)} in {a.seconds:.0f} s): {worst[0]} answered 200, "
                f"{worst[1]} 400 (over a bound), {worst[2]} 503 (busy), {worst[3]} other. "
                f"Load average after: {' '.join(load)}.")
    text = "\n".join(rows)
    print(text)
    if a.markdown:
        open(a.markdown, "w").write(text + "\n")


if __name__ == "__main__":
    main()
