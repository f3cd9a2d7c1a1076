#!/usr/bin/python3
"""The ingest benchmark: replay every blog-history snapshot into a fresh
database with `blogsearch-index add`, with the python baseline
(baseline_ingest.py) and, as the parse floor, with `xmllint --noout`.

    ingest_bench.py --snapshots DIR --work DIR [--index BIN] [--runs N]
                    [--baseline-index BIN] [--only-blogsearch] [--markdown FILE]

--baseline-index adds a row for another blogsearch-index (an earlier
commit's build), run interleaved with BIN, for a side-by-side ratio, and a
row for BIN with `add --link` (hard links instead of copies into the
archive: an earlier build may have had no archive); --only-blogsearch leaves
out the python and xmllint rows. Every run of BIN copies into an empty
archive of its own, as a user's first `add` does.

Whole-process wall time and peak RSS come from GNU time (/usr/bin/time, the
Debian `time` package). Each tool runs --runs times, interleaved, each time
into a fresh database; the median time and the largest peak RSS are reported.
Without a working BIN (no `add` command yet) the blogsearch row is skipped
with a message. Exits 2 with a message when DIR or GNU time is missing.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GNU_TIME = "/usr/bin/time"
EXPECTED_DOCUMENTS = 1619
GOAL_PYTHON_RATIO = 10.0
GOAL_FLOOR_RATIO = 4.0
GOAL_RSS_MB = 200.0


def snapshot_files(root):
    """Every .xml under root, in feed then name order (the replay order)."""
    files = []
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".xml")]
    return files


def timed(argv, label, work, stdin_path=None):
    """Runs argv under GNU time; returns (wall s, CPU s, peak RSS MB, exit
    status, last line of its output)."""
    report = os.path.join(work, "time.out")
    log = os.path.join(work, label + ".log")
    with open(log, "w", encoding="utf-8") as err, \
            open(stdin_path or os.devnull, "rb") as stdin:
        done = subprocess.run([GNU_TIME, "-f", "%e %U %S %M", "-o", report] + argv,
                              stdin=stdin, stdout=err, stderr=err, check=False)
    with open(report, encoding="utf-8") as f:
        # GNU time writes "Command exited with non-zero status N" first then.
        seconds, user, system, kilobytes = f.read().split()[-4:]
    with open(log, encoding="utf-8", errors="replace") as f:
        tail = [line.strip() for line in f if line.strip()][-1:]
    return (float(seconds), float(user) + float(system), int(kilobytes) / 1024.0,
            done.returncode, tail[0] if tail else "")


def document_count(db_path):
    try:
        import xapian
        return xapian.Database(db_path).get_doccount()
    except Exception as e:  # a missing or broken database is reported, not fatal
        return f"unreadable ({e})"


def has_add(index_bin):
    if not index_bin or not os.access(index_bin, os.X_OK):
        return f"no blogsearch-index binary at {index_bin or '(none)'}"
    probe = subprocess.run([index_bin, "add", "--help"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
    if probe.returncode != 0:
        return f"{index_bin} has no working 'add' command yet"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snapshots", required=True, help="the extracted blog-history folder")
    parser.add_argument("--work", required=True, help="scratch folder for the databases")
    parser.add_argument("--index", help="the blogsearch-index binary")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--markdown", help="also write the table here")
    parser.add_argument("--baseline-index", help="an earlier blogsearch-index, timed beside BIN")
    parser.add_argument("--only-blogsearch", action="store_true",
                        help="time only the blogsearch-index binaries")
    args = parser.parse_args()
    if not os.path.isdir(args.snapshots):
        print(f"ingest bench: {args.snapshots}: not a directory", file=sys.stderr)
        sys.exit(2)
    if not os.access(GNU_TIME, os.X_OK):
        print(f"ingest bench: {GNU_TIME} missing: install the Debian package 'time' "
              "(tools/setup)", file=sys.stderr)
        sys.exit(2)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)

    files = snapshot_files(args.snapshots)
    total_bytes = 0
    for path in files:  # read once so every tool starts from a warm page cache
        with open(path, "rb") as f:
            total_bytes += len(f.read())
    file_list = os.path.join(work, "files.list")
    with open(file_list, "wb") as f:
        f.write(b"\0".join(p.encode() for p in files) + b"\0")
    print(f"ingest bench: {len(files)} snapshots, {total_bytes / 1e6:.1f} MB, "
          f"{args.runs} run(s) per tool")

    tools = {}  # name -> (argv builder taking a fresh db path, stdin file)
    missing = has_add(args.index)
    if missing:
        print(f"ingest bench: {missing}: skipping the blogsearch row")
    else:
        # Each run gets an empty archive of its own (db + ".archive", made
        # anew with the db), as a user's first `add` does: a run after the
        # first would otherwise find every snapshot archived already.
        tools["blogsearch-index add"] = (
            lambda db: [args.index, "add", "--db", db, "--archive", db + ".archive", args.snapshots], None)
        if args.baseline_index:
            # Hard links instead of copies: the CPU of indexing alone, to
            # set beside a baseline build that had no archive.
            tools["blogsearch-index add --link"] = (
                lambda db: [args.index, "add", "--link", "--db", db, "--archive", db + ".archive",
                            args.snapshots], None)
    baseline = "blogsearch-index add (baseline build)"
    if args.baseline_index:
        missing = has_add(args.baseline_index)
        if missing:
            print(f"ingest bench: {missing}: no baseline row")
        else:
            tools[baseline] = (lambda db: [args.baseline_index, "add", "--db", db, args.snapshots], None)
    if not args.only_blogsearch:
        add_rivals(tools, args, file_list)

    # The database of each tool's last run is kept as WORK/<slug>-db.
    slugs = {name: name.split()[0].replace("-index", "") for name in tools}
    slugs["blogsearch-index add --link"] = "blogsearch-link"
    slugs[baseline] = "baseline"
    defaults = "python3 feedparser+xapian, feedparser defaults"
    slugs[defaults] = "python3-defaults"
    run_and_report(tools, slugs, args, files, total_bytes)


def add_rivals(tools, args, file_list):
    tools["python3 feedparser+xapian"] = (
        lambda db: ["/usr/bin/python3", os.path.join(HERE, "baseline_ingest.py"),
                    "--db", db, args.snapshots], None)
    # The same script as a first version would call feedparser: parse(file)
    # with its defaults (HTML sanitising, relative-link resolution).
    tools["python3 feedparser+xapian, feedparser defaults"] = (
        lambda db: ["/usr/bin/python3", os.path.join(HERE, "baseline_ingest.py"),
                    "--feedparser-defaults", "--db", db, args.snapshots], None)
    if shutil.which("xmllint") and shutil.which("xargs"):
        # One xmllint per batch of files; --nonet as blogsearch loads nothing either.
        tools["xmllint --noout (floor)"] = (
            lambda db: ["xargs", "-0", "xmllint", "--noout", "--nonet"], file_list)
    else:
        print("ingest bench: xmllint not found (libxml2-utils): skipping the floor")


def run_and_report(tools, slugs, args, files, total_bytes):
    work = os.path.abspath(args.work)
    defaults = "python3 feedparser+xapian, feedparser defaults"
    baseline = "blogsearch-index add (baseline build)"
    results = {name: {"seconds": [], "cpu": [], "rss": [], "rc": [], "tail": ""}
               for name in tools}
    for run in range(args.runs):
        for name, (argv_for, stdin_path) in tools.items():
            if name == defaults and run > 0:
                continue  # about 90 s a run: once is enough to place it
            # Every run's database and archive stay until all runs are done:
            # ext4 skips the inodes of files deleted in the last minutes
            # when it makes new ones, scanning past them, so removing one
            # run's 5,058 archived files made the next run's copies up to
            # twice as slow (recently_deleted, find_inode_bit in perf).
            db = os.path.join(work, f"{slugs[name]}-db{run + 1}")
            shutil.rmtree(db, ignore_errors=True)
            shutil.rmtree(db + ".archive", ignore_errors=True)
            seconds, cpu, rss, rc, tail = timed(argv_for(db), f"{slugs[name]}-run{run + 1}",
                                           work, stdin_path)
            r = results[name]
            r["seconds"].append(seconds)
            r["cpu"].append(cpu)
            r["rss"].append(rss)
            r["rc"].append(rc)
            r["tail"] = tail
            r["db"] = db if os.path.isdir(db) else None
            print(f"  run {run + 1}: {name}: {seconds:.2f} s, CPU {cpu:.2f} s, {rss:.0f} MB, exit {rc}"
                  + (f" -- {tail}" if tail and slugs[name] != "xmllint" else ""))

    lines = [f"Replay of {len(files)} blog-history snapshots ({total_bytes / 1e6:.1f} MB) "
             f"into a fresh database; median of {args.runs} run(s), warm page cache. "
             "The python script (tools/bench.d/baseline_ingest.py) turns feedparser's "
             "HTML sanitising and relative-link resolution off, as it extracts the text "
             "itself; the row 'feedparser defaults' is the same script calling "
             "feedparser.parse(file) as it comes (sanitising on).", "",
             "| tool | seconds | CPU seconds | peak RSS MB | documents |",
             "|---|---:|---:|---:|---:|"]
    median, cpu = {}, {}
    for name, r in results.items():
        median[name] = statistics.median(r["seconds"])
        cpu[name] = statistics.median(r["cpu"])
        docs = document_count(r["db"]) if r.get("db") else "-"
        r["documents"] = docs
        failed = "" if all(rc == 0 for rc in r["rc"]) or name.startswith("xmllint") \
            else f" (exit {max(r['rc'])})"
        lines.append(f"| {name}{failed} | {median[name]:.2f} | {cpu[name]:.2f} "
                     f"| {max(r['rss']):.0f} | {docs} |")

    lines.append("")
    own = "blogsearch-index add"
    python, floor = "python3 feedparser+xapian", "xmllint --noout (floor)"

    def verdict(ok):
        return "met" if ok else "NOT met"

    if own in median and baseline in median:
        lines.append(f"- this build / baseline build: **{median[own] / median[baseline]:.3f}x** wall, "
                     f"{cpu[own] / cpu[baseline]:.3f}x CPU (side by side, interleaved)")
    linked = "blogsearch-index add --link"
    if linked in median and baseline in median:
        lines.append(f"- this build with --link (no copies into the archive) / baseline build: "
                     f"**{median[linked] / median[baseline]:.3f}x** wall, {cpu[linked] / cpu[baseline]:.3f}x CPU")
    if own in median and python in median:
        # Judged on wall time; the CPU ratio is shown as well because the wall
        # times of a busy machine carry waiting that the CPU times do not.
        ratio = median[python] / median[own]
        lines.append(f"- python / blogsearch: **{ratio:.1f}x** wall, "
                     f"{cpu[python] / cpu[own]:.1f}x CPU "
                     f"(goal >= {GOAL_PYTHON_RATIO:.0f}x: {verdict(ratio >= GOAL_PYTHON_RATIO)})")
        if defaults in median:
            ratio = median[defaults] / median[own]
            lines.append(f"- python with feedparser's defaults / blogsearch: **{ratio:.1f}x** wall, "
                         f"{cpu[defaults] / cpu[own]:.1f}x CPU (one run)")
        if floor in median:
            ratio = median[own] / median[floor]
            lines.append(f"- blogsearch / xmllint: **{ratio:.1f}x** wall, "
                         f"{cpu[own] / cpu[floor]:.1f}x CPU "
                         f"(goal <= {GOAL_FLOOR_RATIO:.0f}x: {verdict(ratio <= GOAL_FLOOR_RATIO)})")
        rss = max(results[own]["rss"])
        lines.append(f"- blogsearch peak RSS: **{rss:.0f} MB** "
                     f"(goal <= {GOAL_RSS_MB:.0f} MB: {verdict(rss <= GOAL_RSS_MB)})")
        docs = results[own]["documents"]
        lines.append(f"- documents in the blogsearch database: **{docs}** "
                     f"(expected {EXPECTED_DOCUMENTS:,}: "
                     f"{'right' if docs == EXPECTED_DOCUMENTS else 'WRONG'})")
    if own not in median:
        lines.append("blogsearch-index add not measured (no working `add` command yet).")
    print("\n".join(lines))
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
    for run in range(args.runs):
        for name in tools:
            db = os.path.join(work, f"{slugs[name]}-db{run + 1}")
            shutil.rmtree(db, ignore_errors=True)
            shutil.rmtree(db + ".archive", ignore_errors=True)


if __name__ == "__main__":
    main()
