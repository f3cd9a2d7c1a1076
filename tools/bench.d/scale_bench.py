"""tools/bench --scale N: blogsearch beside sqlite3's FTS5 on N generated posts.

scale_bench.py --snapshots DIR --posts N --work DIR --build DIR --src DIR
               [--runs R] [--markdown FILE]
               [--ingest-shards K,K,... [--baseline-index BIN]]
               [--compare-shards K,K,...] [--gen DIR]
               [--search-db DB [--baseline-search DIR]]

Generates the posts (scale_gen.py: real sentences from the blog-history
snapshots in DIR, recombined) into WORK, then measures, one tool after the
other in this run:
  - ingest: `blogsearch-index add` of the whole snapshot archive (3 snapshots
    per feed, with edits and drop-outs) vs the sqlite3 CLI importing the
    newest version of every post into an FTS5 table (the same text, but
    FTS5 gets it ready-made: no parsing, no history);
  - database size (blogsearch also after xapian-compact);
  - one search per process: `blogsearch` vs the `sqlite3` CLI, p50 and p99
    over R runs of a fixed query set (common words, a phrase, a filter,
    facets), and the peak memory of each process;
  - a long-running process: blogsearch.cgi as FastCGI under lighttpd
    (tools/serve, one process, its answer cache off) vs FTS5 through one
    python sqlite3 connection, the same queries; peak memory of the
    FastCGI process.
With --ingest-shards, only the ingest instead: `blogsearch-index add
--shards K` for each K (and BIN, an earlier build, beside them) and the FTS5
import, one after the other on the same posts: wall and CPU time (user +
sys, from GNU time), posts per second, peak memory and size.
With --compare-shards, `blogsearch-index add --shards K` for each K (wall,
CPU, peak memory, size), then one FastCGI process per database, asked the
query set in turn (each request to every K before the next), p50 and p99.
With --gen DIR, posts already generated there are used (else generated
there), so that several runs compare the same posts.
With --search-db DB (and --gen DIR, for the feed names), only blogsearch's
searches on DB, a database already made from DIR (no FTS5, no ingest): the
CLI and the FastCGI page, R runs of each query, the first (on a cold cache
after an ingest) apart from the p50 and p99 of the others; and the FastCGI
process's peak memory. With --baseline-search DIR too, the blogsearch and
blogsearch.cgi of the build in DIR beside them, run for run.
Prints a markdown table (and writes it to FILE). Nothing generated is kept
(but DIR of --gen).
"""
import argparse
import http.client
import os
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))

# (label, blogsearch CLI arguments, CGI query string, FTS5 statements)
# FTS5 has no facets: they are GROUP BY queries over the matches.
def query_set(feed):
    top = ("SELECT id, title, snippet(posts, 6, '[', ']', '…', 24) FROM posts "
           "WHERE posts MATCH '%s' ORDER BY rank LIMIT 10")
    facets = ["SELECT %s, count(*) c FROM posts WHERE posts MATCH '%%s' GROUP BY 1 ORDER BY c DESC LIMIT 10" % col
              for col in ("category", "author", "feed", "substr(published, 1, 7)")]
    return [
        ("very common word: the", ["--", "the"], "q=the", [top % "the"]),
        ("common word: model", ["--", "model"], "q=model", [top % "model"]),
        ("phrase: \"open source\"", ["--", '"open source"'], "q=%22open+source%22", [top % '"open source"']),
        ("filter: model in one feed", ["--", "model", "feed:" + feed], "q=model+feed%3A" + feed,
         [top.replace("WHERE posts MATCH '%s'", "WHERE posts MATCH 'model' AND feed = '" + feed + "'")
          .replace("%s", "model")]),
        ("facets: data (category, author, feed, month)",
         ["--facets", "category,author,feed,month", "--", "data"], "q=data",
         [top % "data"] + [f % "data" for f in facets]),
    ]


def percentile(values, p):
    values = sorted(values)
    k = (len(values) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def timed_process(cmd, stdin=None, memory=False):
    """(wall seconds, peak RSS in MB or None) of one process. The memory comes
    from GNU time (a child forked from python would count python's pages:
    the peak survives exec), in a run of its own when asked for."""
    if memory:
        fd, out = tempfile.mkstemp()
        os.close(fd)
        cmd = ["/usr/bin/time", "-f", "%M", "-o", out] + cmd
    start = time.perf_counter()
    p = subprocess.run(cmd, input=stdin.encode() if stdin else None,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if p.returncode not in (0, 1):
        raise SystemExit("scale_bench: %s exited %d: %s" % (" ".join(cmd[:3]), p.returncode,
                                                             p.stderr.decode()[-500:]))
    rss = None
    if memory:
        with open(out) as f:
            rss = int(f.read().split()[-1]) / 1024.0
        os.unlink(out)
    return took, rss


def timed_cpu(cmd, stdin=None):
    """(wall s, CPU s = user + sys, peak RSS MB) of one process, from GNU time."""
    fd, out = tempfile.mkstemp()
    os.close(fd)
    p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", out] + cmd,
                       input=stdin.encode() if stdin else None, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise SystemExit("scale_bench: %s exited %d: %s" % (" ".join(cmd[:3]), p.returncode, p.stderr.decode()[-500:]))
    with open(out) as f:
        wall, user, system, rss = f.read().split()[-4:]
    os.unlink(out)
    return float(wall), float(user) + float(system), int(rss) / 1024.0


def ingest_shards(args, archive, gen, feeds):
    """The --ingest-shards table: each K, the baseline, FTS5."""
    index = os.path.join(args.build, "blogsearch-index")
    runs = [("blogsearch, --shards %s" % k, [index, "add", "--quiet", "--shards", k])
            for k in args.ingest_shards.split(",")]
    if args.baseline_index:
        runs.append(("baseline %s (one database)" % os.path.basename(os.path.dirname(args.baseline_index)),
                     [args.baseline_index, "add", "--quiet"]))
    rows = []
    for label, cmd in runs:
        db = os.path.join(args.work, "db-ingest")
        print("== ingest: %s" % label, flush=True)
        # Each run's database shares the archive beside them on purpose
        # (without --archive the second would be refused it).
        shared = [] if "baseline" in label else ["--archive", os.path.join(args.work, "archive")]
        wall, cpu, rss = timed_cpu(cmd + shared + ["--db", db, archive])
        rows.append((label, wall, cpu, rss, du(db)))
        subprocess.run(["rm", "-rf", db, os.path.join(args.work, "archive")], check=True)
    fts = os.path.join(args.work, "fts5-ingest.db")
    script = ("CREATE VIRTUAL TABLE posts USING fts5(id UNINDEXED, feed UNINDEXED, title, author, category, "
              "published UNINDEXED, body);\n.mode csv\n.import --skip 1 %s posts\n" % os.path.join(gen, "posts.csv"))
    print("== ingest: sqlite3 FTS5 .import", flush=True)
    wall, cpu, rss = timed_cpu(["sqlite3", fts], stdin=script)
    rows.append(("sqlite3 FTS5 .import", wall, cpu, rss, os.path.getsize(fts)))
    os.unlink(fts)
    f_wall = rows[-1][1]
    lines = ["Ingest (`tools/bench --scale %d --ingest-shards %s`): %d posts in %d feeds, 3 snapshots per feed, "
             "one tool after the other." % (args.posts, args.ingest_shards, args.posts, len(feeds)), "",
             "| | wall s | CPU s (user+sys) | posts/s (wall) | peak memory | size | wall / FTS5 |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for label, wall, cpu, rss, size in rows:
        lines.append("| %s | %.1f | %.1f | %.0f | %.0f MB | %.0f MB | %.1fx |" % (
            label, wall, cpu, args.posts / wall, rss, size / 1e6, wall / f_wall))
    return lines


def start_fastcgi(args, db, cgi):
    """(server, port): tools/serve running one blogsearch.cgi FastCGI process on `db`."""
    port = free_port()
    server = subprocess.Popen([os.path.join(args.src, "tools", "serve"), "--port", str(port), "--db", db,
                               "--fastcgi", "--procs", "1", "--cache", "0", "--cgi", cgi],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            break
        except OSError:
            time.sleep(0.1)
    return server, port


def page_getter(port):
    """get(qs): milliseconds to answer /search?qs on one kept-alive
    connection. lighttpd closes a connection idle for 5 s, as it is while
    FTS5 counts a million posts: then the request goes on a new connection,
    timed from its connect."""
    conn = None

    def get(qs):
        nonlocal conn
        for attempt in (1, 2):
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            start = time.perf_counter()
            try:
                conn.request("GET", "/search?" + qs)
                resp = conn.getresponse()
                resp.read()
            except (http.client.RemoteDisconnected, ConnectionError):
                conn.close()
                conn = None
                if attempt == 2:
                    raise
                continue
            took = (time.perf_counter() - start) * 1000
            if resp.status != 200:
                raise SystemExit("scale_bench: /search?%s answered %d" % (qs, resp.status))
            return took
    return get


def search_only(args, search, cgi, queries):
    """The --search-db table: the CLI and the FastCGI page on an existing
    database, the first run apart; with --baseline-search DIR, that build's
    blogsearch and blogsearch.cgi beside them, each run of one followed by
    the same run of the other (a process each, and a FastCGI process each)."""
    db = args.search_db
    builds = [("this build", search, cgi)]
    if args.baseline_search:
        for program in ("blogsearch", "blogsearch.cgi"):
            if not os.access(os.path.join(args.baseline_search, program), os.X_OK):
                raise SystemExit("scale_bench: --baseline-search %s has no %s (a build folder of blogsearch)"
                                 % (args.baseline_search, program))
        builds.append(("baseline", os.path.join(args.baseline_search, "blogsearch"),
                       os.path.join(args.baseline_search, "blogsearch.cgi")))

    def summary(times):
        rest = times[1:]
        return "%.1f | %.1f / %.1f" % (times[0], percentile(rest, 50), percentile(rest, 99))

    def ratio(a, b):
        return "%.2fx / %.2fx" % (percentile(a[1:], 50) / percentile(b[1:], 50),
                                  percentile(a[1:], 99) / percentile(b[1:], 99))

    header = "| query |" + "".join(" %s: CLI first | CLI p50 / p99 |" % n for n, _, _ in builds)
    header += "".join(" %s: FastCGI first | FastCGI p50 / p99 |" % n for n, _, _ in builds)
    if len(builds) > 1:
        header += " CLI, FastCGI: p50 / p99 against the baseline |"
    lines = ["Searches on an existing database (`scale_bench.py --search-db`), %d runs per query: the first "
             "(cold cache), then p50 / p99 of the other %d, ms." % (args.runs, args.runs - 1), "",
             header, "|---|" + "---:|" * (header.count("|") - 2)]
    cli = {}
    for label, cli_args, _, _ in queries:
        times = [[] for _ in builds]
        for _ in range(args.runs):
            for i, (_, program, _) in enumerate(builds):
                times[i].append(timed_process([program, "--db", db] + cli_args)[0] * 1000)
        cli[label] = times
        print("%s: CLI %s" % (label, " ; ".join(summary(t) for t in times)), flush=True)
    servers, rss = [], []
    try:
        getters = []
        for _, _, program in builds:
            server, port = start_fastcgi(args, db, program)
            servers.append(server)
            getters.append(page_getter(port))
        for name, get in zip([n for n, _, _ in builds], getters):
            print("FastCGI %s: the first request (it reads the facet table) took %.0f ms" % (name, get("q=warmup")),
                  flush=True)
        for label, _, qs, _ in queries:
            web = [[] for _ in builds]
            for _ in range(args.runs):
                for i, get in enumerate(getters):
                    web[i].append(get(qs))
            print("%s: FastCGI %s" % (label, " ; ".join(summary(t) for t in web)), flush=True)
            row = "| %s |" % label + "".join(" %s |" % summary(t) for t in cli[label])
            row += "".join(" %s |" % summary(t) for t in web)
            if len(builds) > 1:
                row += " %s, %s |" % (ratio(cli[label][0], cli[label][1]), ratio(web[0], web[1]))
            lines.append(row)
        rss = [fastcgi_peak_mb(program) for _, _, program in builds]
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()
    for (name, _, _), mb in zip(builds, rss):
        if mb is not None:
            lines += ["", "Peak memory of the FastCGI process (%s): %.0f MB." % (name, mb)]
    return lines


def fastcgi_peak_mb(cgi):
    """VmHWM in MB of the running process whose executable is `cgi`, or None."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.readlink("/proc/%s/exe" % pid) == os.path.realpath(cgi):
                status = open("/proc/%s/status" % pid).read()
                return int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) / 1024.0
        except OSError:
            pass
    return None


def renumber_like_before(db):
    """Rewrites the shards of `db` as blogsearch wrote them before document
    ids were interleaved (each shard numbered 1, 2, 3..., no 'docids' mark),
    to measure that layout beside the new one."""
    import xapian
    shards = [line.split()[1] for line in open(os.path.join(db, "XAPIANDB")) if line.startswith("auto ")]
    for s in shards:
        path = os.path.join(db, s)
        subprocess.run(["xapian-compact", "--quiet", path, path + ".old"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", path], check=True)
        os.rename(path + ".old", path)
        w = xapian.WritableDatabase(path, xapian.DB_OPEN)
        w.set_metadata("docids", "")
        w.commit()
        w.close()


def compare_shards(args, archive, feeds, queries):
    """The --compare-shards table: ingest for each K, then their FastCGI pages
    side by side. K followed by "old" (2old): K shards renumbered as before
    ids were interleaved."""
    index = os.path.join(args.build, "blogsearch-index")
    cgi = os.path.join(args.build, "blogsearch.cgi")
    ks = args.compare_shards.split(",")
    ingest = []
    for k in ks:
        db = os.path.join(args.work, "db-k" + k)
        print("== ingest: --shards %s" % k, flush=True)
        wall, cpu, rss = timed_cpu([index, "add", "--quiet", "--shards", k.replace("old", ""), "--db", db,
                                    "--archive", os.path.join(args.work, "archive"), archive])
        size = du(db)  # as written (renumbering compacts)
        if k.endswith("old"):
            renumber_like_before(db)
        ingest.append((k, db, wall, cpu, rss, size))
        subprocess.run(["rm", "-rf", os.path.join(args.work, "archive")], check=True)
    servers = [start_fastcgi(args, db, cgi) for _, db, *_ in ingest]
    times = {}
    try:
        conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=60) for _, port in servers]

        def get(conn, qs):
            conn.request("GET", "/search?" + qs)
            resp = conn.getresponse()
            resp.read()
            if resp.status != 200:
                raise SystemExit("scale_bench: /search?%s answered %d" % (qs, resp.status))
        for conn in conns:
            get(conn, "q=warmup&facets=category,author,feed,month")
        print("== FastCGI pages, %d runs per query and K, interleaved" % args.runs, flush=True)
        for label, _, qs, _ in queries:
            for _ in range(args.runs):
                for i, conn in enumerate(conns):
                    start = time.perf_counter()
                    get(conn, qs)
                    times.setdefault((label, i), []).append((time.perf_counter() - start) * 1000)
    finally:
        for server, _ in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()
    for _, db, *_ in ingest:
        subprocess.run(["rm", "-rf", db], check=True)
    lines = ["Shards side by side (`tools/bench --scale %d --compare-shards %s`): %d posts in %d feeds, "
             "3 snapshots per feed." % (args.posts, args.compare_shards, args.posts, len(feeds)), "",
             "| K | add wall s | add CPU s (user+sys) | peak memory | size |", "|---:|---:|---:|---:|---:|"]
    for k, _, wall, cpu, rss, size in ingest:
        lines.append("| %s | %.1f | %.1f | %.0f MB | %.0f MB |" % (k, wall, cpu, rss, size / 1e6))
    lines += ["", "FastCGI page, ms (p50 / p99 of %d; one process per database, answer cache off, requests "
              "to each K in turn):" % args.runs, "",
              "| query | " + " | ".join("K=%s" % k for k in ks) + " |", "|---|" + "---:|" * len(ks)]
    for label, _, _, _ in queries:
        cells = ["%.1f / %.1f" % (percentile(times[(label, i)], 50), percentile(times[(label, i)], 99))
                 for i in range(len(ks))]
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    return lines


def du(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    return total


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--snapshots", required=True)
    ap.add_argument("--posts", type=int, required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--markdown")
    ap.add_argument("--ingest-shards")
    ap.add_argument("--baseline-index")
    ap.add_argument("--compare-shards")
    ap.add_argument("--gen")
    ap.add_argument("--search-db")
    ap.add_argument("--baseline-search")
    args = ap.parse_args()
    index = os.path.join(args.build, "blogsearch-index")
    search = os.path.join(args.build, "blogsearch")
    cgi = os.path.join(args.build, "blogsearch.cgi")
    gen = args.gen or os.path.join(args.work, "gen")
    db = os.path.join(args.work, "db")
    fts = os.path.join(args.work, "fts5.db")
    rows = []

    if not (args.gen and os.path.isdir(os.path.join(gen, "archive"))):
        print("== generating %d posts" % args.posts, flush=True)
        subprocess.run([sys.executable, os.path.join(HERE, "scale_gen.py"), "--snapshots", args.snapshots,
                        "--posts", str(args.posts), "--out", gen], check=True)
    archive = os.path.join(gen, "archive")
    feeds = sorted(os.listdir(archive))
    queries = query_set(feeds[len(feeds) // 2])
    # The modes that measure one thing only, instead of the whole run.
    only = (ingest_shards(args, archive, gen, feeds) if args.ingest_shards
            else compare_shards(args, archive, feeds, queries) if args.compare_shards
            else search_only(args, search, cgi, queries) if args.search_db else None)
    if only is not None:
        text = "\n".join(only) + "\n"
        print(text)
        if args.markdown:
            with open(args.markdown, "w") as out:
                out.write(text)
        return

    print("== ingest: blogsearch-index add", flush=True)
    took, rss = timed_process([index, "add", "--quiet", "--db", db, archive], memory=True)
    size = du(db)
    # At a million posts every copy counts (the generated feeds and their
    # copy in the database's archive are 15 GB, the CSV 4 GB, the database
    # 25 GB): what is measured is dropped as soon as it is no longer needed.
    shutil.rmtree(os.path.join(args.work, "archive"), ignore_errors=True)
    print("== ingest: sqlite3 FTS5 .import", flush=True)
    script = ("CREATE VIRTUAL TABLE posts USING fts5(id UNINDEXED, feed UNINDEXED, title, author, category, "
              "published UNINDEXED, body);\n.mode csv\n.import --skip 1 %s posts\n" % os.path.join(gen, "posts.csv"))
    f_took, f_rss = timed_process(["sqlite3", fts], stdin=script, memory=True)
    f_size = os.path.getsize(fts)
    if not args.gen:
        os.remove(os.path.join(gen, "posts.csv"))
    # Every shard the stub lists, merged into one compacted database.
    shards = [line.split()[1] for line in open(os.path.join(db, "XAPIANDB")) if line.startswith("auto ")]
    compacted = os.path.join(args.work, "compacted")
    subprocess.run(["xapian-compact", "--quiet", "--multipass"] + [os.path.join(db, s) for s in shards] + [compacted],
                   check=True, stdout=subprocess.DEVNULL)
    c_size = du(compacted)
    shutil.rmtree(compacted)
    fo_took, _ = timed_process(["sqlite3", fts], stdin="INSERT INTO posts(posts) VALUES('optimize');\n")
    fo_size = os.path.getsize(fts)
    mb = lambda b: "%.0f MB" % (b / 1e6)
    rows.append(("ingest time (s)", "%.1f" % took, "%.1f" % f_took, "%.1fx" % (took / f_took)))
    rows.append(("ingest peak memory", "%.0f MB" % rss, "%.0f MB" % f_rss, "%.1fx" % (rss / f_rss)))
    rows.append(("database size", mb(size), mb(f_size), "%.1fx" % (size / f_size)))
    rows.append(("size after xapian-compact / FTS5 optimize", mb(c_size), mb(fo_size), "%.1fx" % (c_size / fo_size)))
    # Each part is printed when it is measured: a later part that fails
    # does not lose an hour of ingest at a million posts.
    for r in rows:
        print("| %s | %s | %s | %s |" % r, flush=True)

    print("== one search per process (%d runs per query)" % args.runs, flush=True)
    cli_rows = []
    for label, cli_args, _, sql in queries:
        b_times, s_times = [], []
        for _ in range(args.runs):
            b_times.append(timed_process([search, "--db", db] + cli_args)[0] * 1000)
            s_times.append(timed_process(["sqlite3", fts] + sql)[0] * 1000)
        b_rss = timed_process([search, "--db", db] + cli_args, memory=True)[1]
        s_rss = timed_process(["sqlite3", fts] + sql, memory=True)[1]
        cli_rows.append((label, b_times, b_rss, s_times, s_rss))
        print("%s: blogsearch p50/p99 %.1f / %.1f ms, %.0f MB; sqlite3 %.1f / %.1f ms, %.0f MB" % (
            label, percentile(b_times, 50), percentile(b_times, 99), b_rss,
            percentile(s_times, 50), percentile(s_times, 99), s_rss), flush=True)

    print("== long-running process: FastCGI vs one sqlite3 connection", flush=True)
    server, port = start_fastcgi(args, db, cgi)
    web_rows = []
    fcgi_rss = None
    try:
        get = page_getter(port)
        get("q=warmup")
        con = sqlite3.connect(fts)
        for label, _, qs, sql in queries:
            w_times, f_times = [], []
            for _ in range(args.runs):
                w_times.append(get(qs))
                start = time.perf_counter()
                for statement in sql:
                    con.execute(statement).fetchall()
                f_times.append((time.perf_counter() - start) * 1000)
            web_rows.append((label, w_times, f_times))
            print("%s: FastCGI p50/p99 %.1f / %.1f ms; FTS5 %.1f / %.1f ms" % (
                label, percentile(w_times, 50), percentile(w_times, 99),
                percentile(f_times, 50), percentile(f_times, 99)), flush=True)
        # The FastCGI process: the one blogsearch.cgi under the server.
        fcgi_rss = fastcgi_peak_mb(cgi)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()

    lines = ["Scale benchmark (`tools/bench --scale %d`): %d posts in %d feeds, 3 snapshots per feed."
             % (args.posts, args.posts, len(feeds)), "",
             "| | blogsearch | sqlite3 FTS5 | ratio |", "|---|---:|---:|---:|"]
    lines += ["| %s | %s | %s | %s |" % r for r in rows]
    lines += ["", "One search per process, ms (p50 / p99 of %d runs), and peak memory:" % args.runs, "",
              "| query | blogsearch | sqlite3 CLI | ratio (p50) | memory blogsearch / sqlite3 |",
              "|---|---:|---:|---:|---:|"]
    for label, bt, br, st, sr in cli_rows:
        lines.append("| %s | %.1f / %.1f | %.1f / %.1f | %.2fx | %.0f / %.0f MB |" % (
            label, percentile(bt, 50), percentile(bt, 99), percentile(st, 50), percentile(st, 99),
            percentile(bt, 50) / percentile(st, 50), br, sr))
    lines += ["", "A long-running process, ms per request (p50 / p99 of %d): blogsearch.cgi as FastCGI "
              "(HTTP through lighttpd, the whole HTML page, which always counts the four facets; answer cache off) vs FTS5 through one python sqlite3 "
              "connection (the statements only):" % args.runs, "",
              "| query | FastCGI page | FTS5 in-process | ratio (p50) |", "|---|---:|---:|---:|"]
    for label, wt, ft in web_rows:
        lines.append("| %s | %.1f / %.1f | %.1f / %.1f | %.2fx |" % (
            label, percentile(wt, 50), percentile(wt, 99), percentile(ft, 50), percentile(ft, 99),
            percentile(wt, 50) / percentile(ft, 50)))
    if fcgi_rss is not None:
        lines += ["", "Peak memory of the FastCGI process: %.0f MB." % fcgi_rss]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
