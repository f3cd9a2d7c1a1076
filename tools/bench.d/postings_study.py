"""The cheaper-postings study of issue 17 section 3: its options side by side.

postings_study.py --snapshots DIR --posts N[,N...] --work DIR --build DIR --src DIR
                  [--variants V;V...] [--finalists V;V...] [--runs R] [--repeat R]
                  [--no-quality] [--markdown FILE]

Each variant is a value of BLOGSEARCH_POSTINGS_STUDY (indexer/schema.h:
"none", or a comma list of stem_cache, compress_text, trim_positions and
stems_only); the build's own layout is "default". One after the other, in
this run, for each variant:
  - scale: `blogsearch-index add` of N generated posts (scale_gen.py, the
    first N for every variant, the others for --finalists only): CPU time
    (user + sys of the process, the least of --repeat ingests), database
    size, its position / postlist / termlist / docdata tables, the size
    after xapian-compact, and CLI search time (median over common words and
    phrases of the median of R runs) before and after compaction;
  - blog-history (the snapshots in DIR): ingest CPU time and size, and
    quality: tests/e2e/known_item.sh (title first, quoted body phrase
    found), tests/e2e/all_titles.sh (misses), a quoted title finding its
    post, and the language, folding and ranking tests of query_tests
    (issue 16's exact matches first) run with the variant.
Needs a build with BLOGSEARCH_TESTS=ON (query_tests). Prints markdown
tables (and writes them to FILE). Nothing generated is kept in the tree.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
QUERIES = [["--", "the"], ["--", "model"], ["--", "data"], ["--", '"open source"'], ["--", '"of the"']]
TESTS = "*Language*:*Fold*:*Accent*:*Diacritic*:*Capital*:*Phrase*:*Title*:*Snippet*"


def env_for(variant):
    env = dict(os.environ)
    env.pop("BLOGSEARCH_POSTINGS_STUDY", None)
    if variant != "default":
        env["BLOGSEARCH_POSTINGS_STUDY"] = variant
    return env


def cpu_run(cmd, env):
    """(user + sys seconds, wall seconds) of one process."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    err = p.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("postings_study: %s failed: %s" % (" ".join(cmd[:2]), err[-500:]))
    return usage.ru_utime + usage.ru_stime, wall


def du(path):
    return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(path) for f in fs)


def tables(gen_dir):
    out = {}
    for name in ("position", "postlist", "termlist", "docdata"):
        f = os.path.join(gen_dir, name + ".glass")
        out[name] = os.path.getsize(f) if os.path.exists(f) else 0
    return out


def live(db):
    return os.path.join(db, open(os.path.join(db, "XAPIANDB")).read().split()[1])


def search_ms(search, db, env, runs):
    """p50 over the query set of the median of R runs, ms."""
    per_query = []
    for q in QUERIES:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([search, "--db", db, "--limit", "10"] + q, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append((time.perf_counter() - start) * 1000)
        per_query.append(statistics.median(times))
    return statistics.median(per_query)


def compacted_copy(db, out):
    """db compacted into `out`, laid out as a database directory."""
    gen = os.path.basename(live(db))
    os.makedirs(out)
    subprocess.run(["xapian-compact", "--quiet", "--multipass", os.path.join(db, gen), os.path.join(out, gen)],
                   check=True, stdout=subprocess.DEVNULL)
    shutil.copy(os.path.join(db, "XAPIANDB"), out)
    if os.path.isdir(os.path.join(db, gen, "spelling")) and not os.path.isdir(os.path.join(out, gen, "spelling")):
        shutil.copytree(os.path.join(db, gen, "spelling"), os.path.join(out, gen, "spelling"))


def figure(pattern, text):
    m = re.search(pattern, text)
    return m.group(1) if m else "?"


def quoted_titles(search, db, env, sample=200):
    """Of a fixed sample of titles of 3+ plain words, how many find their post in quotes."""
    posts, page = [], 1
    while True:  # pages of 1000, the most a search returns
        p = subprocess.run([search, "--db", db, "--since", "0001", "--format", "json", "--limit", "1000",
                            "--page", str(page), "--"], env=env, capture_output=True, text=True)
        results = json.loads(p.stdout)["results"] if p.stdout.strip() else []
        if not results:
            break
        posts += results
        page += 1
    titled = [x for x in posts if len(re.findall(r"[A-Za-z0-9]+", x["title"])) >= 3]
    titled.sort(key=lambda x: hashlib.sha256(x["id"].encode()).hexdigest())
    ok = n = 0
    for x in titled[:sample]:
        words = " ".join(re.findall(r"[A-Za-z0-9]+", x["title"]))
        r = subprocess.run([search, "--db", db, "--format", "ids", "--limit", "1000", "--", '"%s"' % words],
                           env=env, capture_output=True, text=True)
        n += 1
        ok += x["id"] in r.stdout.splitlines()
    return "%d/%d" % (ok, n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--snapshots", required=True)
    ap.add_argument("--posts", default="10000", help="sizes, comma-separated; '' for none")
    ap.add_argument("--work", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--variants", default="none;stem_cache;compress_text;trim_positions;stems_only;default")
    ap.add_argument("--finalists", default="none;default")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--quality-variants", help="the variants of the blog-history part (default: --variants)")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.src = os.path.abspath(args.src)
    index = os.path.join(args.build, "blogsearch-index")
    search = os.path.join(args.build, "blogsearch")
    variants = args.variants.split(";")
    finalists = args.finalists.split(";")
    sizes = [int(n) for n in args.posts.split(",") if n]
    quality = args.quality_variants.split(";") if args.quality_variants is not None else variants
    mb = lambda b: "%.0f" % (b / 1e6)
    arch = os.path.join(args.work, "archive")  # each ingest's copy of the snapshots, removed after it
    lines = []

    for n in sizes:
        gen = os.path.join(args.work, "gen-%d" % n)
        if not os.path.isdir(gen):
            subprocess.run([sys.executable, os.path.join(HERE, "scale_gen.py"), "--snapshots", args.snapshots,
                            "--posts", str(n), "--out", gen], check=True)
        lines += ["", "%d generated posts (scale_gen.py, 3 snapshots per feed), `blogsearch-index add`:" % n, "",
                  "| variant | CPU s | wall s | size MB | position / postlist / termlist / docdata MB "
                  "| compacted MB | search ms (p50) | compacted search ms |",
                  "|---|---:|---:|---:|---|---:|---:|---:|"]
        for v in (variants if n == sizes[0] else finalists):
            env = env_for(v)
            db = os.path.join(args.work, "db-%d" % n)
            shutil.rmtree(db, ignore_errors=True)
            shutil.rmtree(db + "-c", ignore_errors=True)
            print("== %d posts, variant %s" % (n, v), flush=True)
            # The least CPU of R ingests: a shared machine adds, never removes.
            cpu = wall = float("inf")
            for _ in range(args.repeat):
                shutil.rmtree(db, ignore_errors=True)
                shutil.rmtree(arch, ignore_errors=True)
                c, w = cpu_run([index, "add", "--quiet", "--db", db, "--archive", arch,
                                os.path.join(gen, "archive")], env)
                cpu, wall = min(cpu, c), min(wall, w)
            t = tables(live(db))
            size = du(db)
            compacted_copy(db, db + "-c")
            c_size = du(db + "-c")
            s_ms = search_ms(search, db, env, args.runs)
            c_ms = search_ms(search, db + "-c", env, args.runs)
            lines.append("| %s | %.1f | %.1f | %s | %s / %s / %s / %s | %s | %.1f | %.1f |" % (
                v, cpu, wall, mb(size), mb(t["position"]), mb(t["postlist"]), mb(t["termlist"]),
                mb(t["docdata"]), mb(c_size), s_ms, c_ms))
            for d in (db, db + "-c", arch):
                shutil.rmtree(d, ignore_errors=True)
            print(lines[-1], flush=True)

    lines += [] if not quality else ["", "blog-history (every snapshot), ingest and quality:", "",
              "| variant | CPU s | size MB | compacted MB | known-item title first | quoted body phrase "
              "| all titles: misses | quoted title finds post | query_tests (language, folding, phrases, titles) |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    e2e = dict(BLOGSEARCH_INDEX=index, BLOGSEARCH=search, SOURCE_DIR=args.src)
    for v in quality if quality != [""] else []:
        env = env_for(v)
        print("== blog-history, variant %s" % v, flush=True)
        db = os.path.join(args.work, "db-bh")
        shutil.rmtree(db, ignore_errors=True)
        shutil.rmtree(db + "-c", ignore_errors=True)
        cpu = float("inf")
        for _ in range(args.repeat):
            shutil.rmtree(db, ignore_errors=True)
            shutil.rmtree(arch, ignore_errors=True)
            cpu = min(cpu, cpu_run([index, "add", "--quiet", "--db", db, "--archive", arch, args.snapshots],
                                   env)[0])
        size = du(db)
        compacted_copy(db, db + "-c")
        c_size = du(db + "-c")
        cols = [v, "%.1f" % cpu, mb(size), mb(c_size)]
        env_e2e = dict(env, **e2e)
        ki = subprocess.run(["bash", os.path.join(args.src, "tests/e2e/known_item.sh")], env=env_e2e,
                            capture_output=True, text=True).stdout
        at = subprocess.run(["bash", os.path.join(args.src, "tests/e2e/all_titles.sh")], env=env_e2e,
                            capture_output=True, text=True).stdout
        qt = subprocess.run([os.path.join(args.build, "query_tests"), "--gtest_filter=" + TESTS, "--gtest_brief=1"],
                            env=env, capture_output=True, text=True).stdout
        ran = int(figure(r"(\d+) tests? from .* ran", qt).replace("?", "0"))
        passed = int(figure(r"\[  PASSED  \] (\d+) test", qt).replace("?", "0"))
        failed = ran - passed
        cols += [figure(r"ranks the post first: ([\d/]+)", ki), figure(r"finds the post: ([\d/]+)", ki),
                 figure(r"misses (\d+ = [\d.]+%)", at), quoted_titles(search, db, env),
                 "%d of %d pass" % (passed, ran)]
        for d in (db, db + "-c", arch):
            shutil.rmtree(d, ignore_errors=True)
        lines.append("| " + " | ".join(cols) + " |")
        print(lines[-1], flush=True)

    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
