"""Memory of one FastCGI process under varied queries.

fcgi_memory.py --db DIR --src SRC --cgi BIN [--queries N] [--seed S] [--first QUERY]
               [--clients K] [--searchers N]

Serves DIR with tools/serve (FastCGI, one process, the answer cache on as
deployed) and sends N (default 400) varied requests: words drawn from the
index's own terms (common and rare), two-word phrases, category, author,
feed and date filters, later pages, date order, JSON and Atom, post pages.
Prints the process's resident memory after the first request (a search
page: what is kept per post is then made) and every 100 requests, and its
peak (VmHWM), in MB. With --clients K (default 1) K connections send each
hundred requests at once, so that every searcher of the process (the
CGI's BLOGSEARCH_CGI_SEARCHERS) is used and counted. Needs the python3 xapian module
(Debian's python3-xapian) to pick the words.
"""
import argparse
import http.client
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

import xapian


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def terms(db, prefix, limit):
    out = []
    for t in db.allterms(prefix):
        term = t.term.decode("utf-8", "replace")[len(prefix):]
        if term and not term[0].isupper():
            out.append((t.termfreq, term))
        if len(out) >= limit:
            break
    return out


def processes_of(exe):
    """The pids running `exe`."""
    pids = set()
    for pid in os.listdir("/proc"):
        try:
            if pid.isdigit() and os.readlink("/proc/%s/exe" % pid) == exe:
                pids.add(int(pid))
        except OSError:
            pass
    return pids


def memory_of(pids):
    """(VmRSS, VmHWM) in MB of the one process of `pids` still running."""
    for pid in pids:
        try:
            status = open("/proc/%d/status" % pid).read()
            return tuple(int(re.search(r"%s:\s+(\d+)" % k, status).group(1)) / 1024.0
                         for k in ("VmRSS", "VmHWM"))
        except OSError:
            pass
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--cgi", required=True)
    ap.add_argument("--queries", type=int, default=400)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--first", help="the first request's query (default: the commonest word)")
    ap.add_argument("--clients", type=int, default=1, help="connections sending at once (default 1)")
    ap.add_argument("--searchers", type=int, default=4, help="BLOGSEARCH_CGI_SEARCHERS (default 4)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    db = xapian.Database(args.db)
    words = [w for w in terms(db, "", 200000) if w[1].isalpha()]
    words.sort(reverse=True)
    common = [w for _, w in words[:200]]
    rare = [w for _, w in words[200:]]
    categories = [w for _, w in terms(db, "XCAT", 5000)]
    feeds = [w for _, w in terms(db, "XFEED", 5000)]
    ids = [t.term.decode()[1:] for _, t in zip(range(2000), db.allterms("Q"))]

    def request():
        kind = rng.randrange(10)
        q = {}
        if kind == 0:
            q["q"] = rng.choice(common)
        elif kind == 1:
            q["q"] = '"%s %s"' % (rng.choice(common), rng.choice(common))
        elif kind == 2 and categories:
            q["q"] = "%s category:%s" % (rng.choice(common), rng.choice(categories))
        elif kind == 3 and feeds:
            q["q"] = "%s feed:%s" % (rng.choice(rare or common), rng.choice(feeds))
        elif kind == 4:
            year = rng.randrange(2006, 2026)
            q["q"] = "%s date:%d..%d" % (rng.choice(common), year, year + 1)
        elif kind == 5 and ids:
            return "/search?" + urllib.parse.urlencode({"post": rng.choice(ids)})
        else:
            q["q"] = " ".join(rng.choice(rare or common) for _ in range(rng.randint(1, 3)))
        if rng.random() < 0.3:
            q["page"] = str(rng.randint(2, 5))
        if rng.random() < 0.2:
            q["sort"] = "date"
        if rng.random() < 0.2:
            q["format"] = rng.choice(["json", "atom"])
        return "/search?" + urllib.parse.urlencode(q)

    port = free_port()
    cgi = os.path.realpath(args.cgi)
    others = processes_of(cgi)  # of other servers: not measured
    server = subprocess.Popen([os.path.join(args.src, "tools", "serve"), "--port", str(port), "--db", args.db,
                               "--fastcgi", "--procs", "1", "--searchers", str(args.searchers), "--cgi", cgi],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conn.request("GET", "/search")  # the FastCGI process starts
        conn.getresponse().read()
        ours = processes_of(cgi) - others
        if len(ours) != 1:
            sys.exit("fcgi_memory: cannot tell this server's FastCGI process (%s)" % sorted(ours))
        statuses = {}
        lock = threading.Lock()
        # The first is a search page (its four facets make the tables kept
        # per post): its memory, against the next ones', shows what grows
        # with the posts and what with the requests.
        paths = ["/search?q=" + urllib.parse.quote(args.first or common[0])]
        paths += [request() for _ in range(args.queries - 1)]

        def send(batch, conn):
            for path in batch:
                conn.request("GET", path)
                resp = conn.getresponse()
                resp.read()
                with lock:
                    statuses[resp.status] = statuses.get(resp.status, 0) + 1

        conns = [conn] + [http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                          for _ in range(args.clients - 1)]
        started = time.perf_counter()
        done = 0
        for size in [1] + [99] + [100] * ((args.queries - 100 + 99) // 100):
            batch = paths[done:done + size]
            if not batch:
                break
            threads = [threading.Thread(target=send, args=(batch[k::len(conns)], c)) for k, c in enumerate(conns)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            done += len(batch)
            m = memory_of(ours)
            print("fcgi_memory: after %d requests: RSS %.0f MB, peak %.0f MB" % ((done,) + m) if m
                  else "fcgi_memory: the FastCGI process was not found", flush=True)
        took = time.perf_counter() - started
        m = memory_of(ours)
        print("fcgi_memory: %d posts, %d requests in %.1f s (statuses %s): peak RSS %.0f MB"
              % (db.get_doccount(), args.queries, took, statuses, m[1] if m else float("nan")))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
        # lighttpd leaves its FastCGI process behind when it is stopped.
        for pid in locals().get("ours", ()):
            try:
                os.kill(pid, signal.SIGKILL)  # it does not stop on SIGTERM
            except OSError:
                pass


if __name__ == "__main__":
    sys.exit(main())
