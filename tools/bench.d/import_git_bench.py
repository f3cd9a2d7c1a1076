"""Peak memory and time of blogsearch-index import-git over a long history.

import_git_bench.py --snapshots DIR --commits N --work DIR --index BIN
                    [--chunk C ...] [--baseline-index BIN] [--markdown FILE]

Generates a git-scraping repository of N commits from the blog-history text
(git_history_gen.py), then imports it once per --chunk (default: the
binary's own default) into a fresh database and archive, then rebuilds
that database from the archive, each under /usr/bin/time -v: peak RSS,
user+sys CPU and wall time. With
--baseline-index another blogsearch-index (an earlier commit's build) is run
too, without --chunk. The runs take turns on one machine, so their figures
compare; prefer CPU to wall time on a shared machine.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd, name):
    """Runs cmd under GNU time -v: its peak RSS, CPU and wall time."""
    run = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("import_git_bench: %s exited %d: %s" % (" ".join(cmd), run.returncode, run.stderr[-2000:]))

    def field(label):
        m = re.search(r"^\s*%s: (.*)$" % re.escape(label), run.stderr, re.M)
        return m.group(1) if m else "?"
    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    seconds = 0.0
    for part in wall.split(":"):
        seconds = seconds * 60 + float(part)
    posts = re.search(r"(\d+) posts added", run.stdout)
    return {"name": name, "rss_mb": int(field("Maximum resident set size (kbytes)")) / 1024,
            "cpu": float(field("User time (seconds)")) + float(field("System time (seconds)")),
            "wall": seconds, "posts": posts.group(1) if posts else "?"}


def measure(index, repo, work, name, chunk):
    """import-git into a fresh database and archive, then `rebuild` of that
    database from the archive (one feed with the whole history): two rows."""
    out = os.path.join(work, name.replace(" ", "_"))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    db, archive = os.path.join(out, "db"), os.path.join(out, "archive")
    cmd = [index, "import-git", repo, "--path", "feeds/feed-0/feed.xml", "--feed", "gen", "--db", db,
           "--archive", archive]
    if chunk:
        cmd += ["--chunk", str(chunk)]
    rows = [timed(cmd, name)]
    rows.append(timed([index, "rebuild", "--quiet", "--db", db, "--archive", archive], "then rebuild (" + name + ")"))
    shutil.rmtree(out, ignore_errors=True)  # the archive is as big as the history
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--snapshots", required=True)
    ap.add_argument("--commits", type=int, required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--index", required=True)
    ap.add_argument("--chunk", type=int, action="append", default=[])
    ap.add_argument("--baseline-index")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    repo = os.path.join(args.work, "repo-%d" % args.commits)
    if not os.path.isdir(repo):
        gen = subprocess.run([sys.executable, os.path.join(HERE, "git_history_gen.py"), "--snapshots",
                              args.snapshots, "--commits", str(args.commits), "--out", repo],
                             check=True, capture_output=True, text=True)
        print(gen.stdout.strip())
    rows = []
    for chunk in args.chunk or [None]:
        name = "import-git" + (" --chunk %d" % chunk if chunk else "")
        rows += measure(args.index, repo, args.work, name, chunk)
        for r in rows[-2:]:
            print("import_git_bench: %(name)s: %(rss_mb).0f MB peak, %(cpu).1f s CPU, %(wall).1f s wall" % r)
    if args.baseline_index:
        rows += measure(args.baseline_index, repo, args.work, "baseline import-git", None)
        for r in rows[-2:]:
            print("import_git_bench: %(name)s: %(rss_mb).0f MB peak, %(cpu).1f s CPU, %(wall).1f s wall" % r)
    lines = ["| %d commits | peak RSS | CPU (user+sys) | wall | posts |" % args.commits,
             "|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append("| %(name)s | %(rss_mb).0f MB | %(cpu).1f s | %(wall).1f s | %(posts)s |" % r)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
