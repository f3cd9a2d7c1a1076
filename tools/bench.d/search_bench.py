#!/usr/bin/python3
"""The search benchmark: whole-process time of one search, exec to exit.

    search_bench.py --db XAPIAN_DB --work DIR [--blogsearch BIN] [--runs N]
                    [--baseline BIN --baseline-db DB] [--markdown FILE]

Times `blogsearch` (text output with snippets) against `quest` on the same
database, Omega's CGI binary on an omindex database of the same posts, and
the `sqlite3` CLI on an FTS5 table of them (with snippet()). Each tool is run
as a fresh process per search; the runs of all tools are interleaved so load
from other processes on the machine falls on all of them alike, and the
median is reported. A tool that is missing or fails its first search is left
out with a message; without a working BIN the blogsearch column is skipped.
With --baseline, an earlier build of blogsearch searching its own database
of the same snapshots is timed beside them, as a rival: whether searches
stay as fast as that build's, on this machine and in this run.
"""

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
OMEGA_CGI = "/usr/lib/cgi-bin/omega/omega"
OMEGA_TEMPLATES = "/var/lib/xapian-omega/templates"

# (label, query): the same text means the same thing to Xapian's QueryParser
# (default operator AND), Omega (DEFAULTOP=and) and FTS5 (implicit AND).
QUERIES = [
    ("one word", "python"),
    ("two words", "datasette plugin"),
    ("phrase", '"prompt injection"'),
]


class Tool:
    """One way of answering a query: how to run it, and whether it works."""

    def __init__(self, name, command_for, env=None, note=""):
        self.name = name
        self.command_for = command_for  # query -> argv
        self.env = env
        self.note = note
        self.times = {}  # query -> [wall seconds]
        self.cpu = {}  # query -> [CPU seconds, user + system]
        self.instructions = {}  # query -> instructions counted by callgrind
        self.output_bytes = {}
        self.error = None

    def run(self, query, capture=False, wrapper=()):
        """Returns (wall seconds, CPU seconds, CompletedProcess)."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(list(wrapper) + self.command_for(query), env=self.env,
                              stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                              stderr=subprocess.PIPE if capture else subprocess.DEVNULL,
                              check=False)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu, done


def sql_string(text):
    return "'" + text.replace("'", "''") + "'"


def prepare(args):
    """Builds the Omega and FTS5 copies of the posts; returns the tools."""
    work = os.path.abspath(args.work)
    html_dir = os.path.join(work, "html")
    omega_dir = os.path.join(work, "omega")
    sqlite_db = os.path.join(work, "posts.sqlite")
    for sub in ("db", "log", "cdb"):
        os.makedirs(os.path.join(omega_dir, sub), exist_ok=True)
    if subprocess.run(["/usr/bin/python3", os.path.join(HERE, "posts_export.py"),
                       "--db", args.db, "--html", html_dir, "--sqlite", sqlite_db],
                      check=False).returncode != 0:
        sys.exit(2)  # posts_export said why

    tools = []
    blogsearch = args.blogsearch
    if not blogsearch or not os.access(blogsearch, os.X_OK):
        print(f"search bench: no blogsearch binary at {blogsearch or '(none)'}: "
              "skipping the blogsearch column")
    elif subprocess.run([blogsearch, "--help"], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL, check=False).returncode != 0:
        print(f"search bench: {blogsearch} --help fails (not implemented yet?): "
              "skipping the blogsearch column")
    else:
        tools.append(Tool("blogsearch", lambda q: [blogsearch, "--db", args.db, q],
                          note="text, snippets, fields"))

    if args.baseline:
        tools.append(Tool("earlier build", lambda q: [args.baseline, "--db", args.baseline_db, q],
                          note=f"{args.baseline} on its own database"))

    if shutil.which("quest"):
        tools.append(Tool("quest", lambda q: ["quest", "-d", args.db, "-s", "english",
                                              "-o", "and", "-m", "10", q],
                          note="raw query, document ids and their data (the post's history)"))
    else:
        print("search bench: quest not found (xapian-tools): skipping it")

    omindex = None
    if os.access(OMEGA_CGI, os.X_OK) and shutil.which("omindex"):
        omindex = subprocess.run(["omindex", "--db", os.path.join(omega_dir, "db", "posts"),
                                  "--url", "/posts/", html_dir],
                                 stdout=subprocess.DEVNULL, check=False).returncode
    if omindex != 0:
        print("search bench: xapian-omega not installed or omindex failed: skipping Omega")
    else:
        conf = os.path.join(omega_dir, "omega.conf")
        with open(conf, "w", encoding="utf-8") as out:
            out.write(f"database_dir {omega_dir}/db\ntemplate_dir {OMEGA_TEMPLATES}\n"
                      f"log_dir {omega_dir}/log\ncdb_dir {omega_dir}/cdb\n")
        base_env = dict(os.environ, OMEGA_CONFIG_FILE=conf, REQUEST_METHOD="GET",
                        GATEWAY_INTERFACE="CGI/1.1")

        class OmegaTool(Tool):
            def run(self, query, capture=False, wrapper=()):
                self.env = dict(base_env, QUERY_STRING=urllib.parse.urlencode(
                    {"DB": "posts", "P": query, "DEFAULTOP": "and"}))
                return Tool.run(self, query, capture, wrapper)

        tools.append(OmegaTool("omega", lambda q: [OMEGA_CGI],
                               note="CGI, HTML page, snippets"))

    if shutil.which("sqlite3"):
        tools.append(Tool("sqlite3 FTS5", lambda q: [
            "sqlite3", "-readonly", sqlite_db,
            "SELECT title, link, snippet(posts, 2, '[', ']', '...', 16) FROM posts "
            f"WHERE posts MATCH {sql_string(q)} "
            "ORDER BY bm25(posts, 5.0, 0.0, 1.0) LIMIT 10;"],
            note="CLI, snippet()"))
    else:
        print("search bench: sqlite3 CLI not found: skipping FTS5")

    # The cost of starting any process at all, from this harness.
    tools.append(Tool("/bin/true", lambda q: ["/bin/true"], note="exec floor"))
    return tools


def check(tools):
    """Runs each query once per tool; a tool that fails is dropped."""
    kept = []
    for tool in tools:
        for _, query in QUERIES:
            _, _, done = tool.run(query, capture=True)
            ok = done.returncode == 0 and (tool.name == "/bin/true" or done.stdout.strip())
            if not ok:
                stderr = done.stderr.decode("utf-8", "replace").strip().splitlines()
                tool.error = (f"{tool.name}: query {query!r} exited {done.returncode}"
                              + (f": {stderr[-1]}" if stderr else " with no output"))
                break
            tool.output_bytes[query] = len(done.stdout)
        if tool.error:
            print(f"search bench: dropping {tool.error}")
        else:
            kept.append(tool)
    return kept


def measure(tools, runs, warmup):
    for _, query in QUERIES:
        for tool in tools:
            tool.times[query] = []
            tool.cpu[query] = []
        for i in range(warmup + runs):
            for tool in tools:
                wall, cpu, _ = tool.run(query)
                if i >= warmup:
                    tool.times[query].append(wall)
                    tool.cpu[query].append(cpu)


def count_instructions(tools):
    """Instructions per search under callgrind: slow, but the same on a busy
    machine as on an idle one, so it shows what the wall times may blur."""
    if not shutil.which("valgrind"):
        print("search bench: valgrind not installed: no instruction counts")
        return False
    wrapper = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")
    for _, query in QUERIES:
        for tool in tools:
            _, _, done = tool.run(query, capture=True, wrapper=wrapper)
            found = re.findall(rb"I\s+refs:\s+([\d,]+)", done.stderr)
            if found:
                tool.instructions[query] = int(found[-1].replace(b",", b""))
    return True


def report(tools, runs):
    """Returns the result tables as markdown lines."""
    names = [t.name for t in tools]
    rivals = [n for n in names if n not in ("blogsearch", "/bin/true")]
    metrics = [("wall ms", {t.name: {q: statistics.median(t.times[q]) * 1000
                                     for _, q in QUERIES} for t in tools}),
               ("CPU ms", {t.name: {q: statistics.median(t.cpu[q]) * 1000
                                    for _, q in QUERIES} for t in tools})]
    if all(t.instructions for t in tools):
        metrics.append(("M instr", {t.name: {q: t.instructions[q] / 1e6 for _, q in QUERIES}
                                    for t in tools}))
    lines = [f"One search per process, exec to exit: median wall time and median CPU time "
             f"(user + system) of {runs} runs each, interleaved"
             + ("; instructions counted by callgrind (one run, unaffected by load)"
                if len(metrics) > 2 else "") + ".", "",
             "| query | measure | " + " | ".join(names) + " |",
             "|---|---|" + "---:|" * len(names)]
    for label, query in QUERIES:
        for metric, values in metrics:
            lines.append(f"| {label}: `{query}` | {metric} | "
                         + " | ".join(f"{values[n][query]:.1f}" for n in names) + " |")
    lines += ["", "| tool | what it prints | output bytes per search |", "|---|---|---:|"]
    for t in tools:
        sizes = "/".join(str(t.output_bytes.get(q, 0)) for _, q in QUERIES)
        lines.append(f"| {t.name} | {t.note} | {sizes} |")
    if "blogsearch" in names and rivals:
        lines += ["", "Ratios, rival / blogsearch (above 1: blogsearch is faster):", "",
                  "| query | measure | " + " | ".join(rivals) + " |",
                  "|---|---|" + "---:|" * len(rivals)]
        for label, query in QUERIES:
            for metric, values in metrics:
                own = values["blogsearch"][query]
                lines.append(f"| {label} | {metric} | "
                             + " | ".join(f"{values[n][query] / own:.2f}x" for n in rivals) + " |")
        lines += ["", "Goal (issue 3): faster than Omega and FTS5, no slower than quest."]
    elif "blogsearch" not in names:
        lines += ["", "blogsearch not measured (binary missing or not implemented yet)."]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="Xapian database of the posts")
    parser.add_argument("--work", required=True, help="scratch folder")
    parser.add_argument("--blogsearch", help="the blogsearch binary")
    parser.add_argument("--baseline", help="an earlier build's blogsearch binary")
    parser.add_argument("--baseline-db", help="the database that build's blogsearch-index made")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--no-instructions", action="store_true",
                        help="skip the callgrind instruction counts")
    parser.add_argument("--markdown", help="also write the table here")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if bool(args.baseline) != bool(args.baseline_db):
        parser.error("--baseline and --baseline-db go together")

    tools = check(prepare(args))
    measure(tools, args.runs, args.warmup)
    if not args.no_instructions:
        count_instructions(tools)
    lines = report(tools, args.runs)
    print("\n".join(lines))
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
