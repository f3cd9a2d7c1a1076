#!/usr/bin/python3
"""Golden checks over a database built from data/ (run by golden.sh).

Usage: golden_check.py DB [DUMP_FILE]

Checks the layout of indexer/schema.h against what the sample snapshots in
data/ must produce: terms present, script/style text absent, and the fields
of the post record JSON (value slot 7). Prints one line per failed check and exits 1 if
any failed. With DUMP_FILE, also writes a canonical dump of every document
(data + terms + values) there, so golden.sh can compare two runs.
"""

import json
import sys
import zlib

import lz4.block
import xapian
import xxhash

SLOT_TEXT = 5  # indexer/schema.h: kSlotText, the post's plain text
SLOT_FACETS = 6  # kSlotFacets: the facet terms, each after a length byte
SLOT_RECORD = 7  # kSlotRecord: the post record, JSON
SLOT_DUPLICATE_KEY = 8  # kSlotDuplicateKey: a hash of the link and title that copies share
FACET_PREFIXES = ("K", "M", "XAUTHOR", "XFEED")


def stored_text(value):
    """The plain text of a kSlotText value (record/stored_text.h): an LZ4
    block after "\\0L" and a 4-byte big-endian length (zlib after "\\0Z" in
    databases written before), as it is after "\\0P", else as it is."""
    if value[:2] == b"\0L":
        return lz4.block.decompress(value[6:], uncompressed_size=int.from_bytes(value[2:6], "big"))
    if value[:2] == b"\0Z":
        return zlib.decompress(value[6:])
    return value[2:] if value[:2] == b"\0P" else value


PT = "https://pytorch.org/?p="
TN = "tag:tensor-notes.example.org,2026:post-"
KD = "https://kernel-digest.example.net/"

failures = []
passed = 0


def check(ok, what):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(what)
    return ok


def open_doc(db, post_id):
    """The document whose Q term is post_id, or None."""
    for item in db.postlist("Q" + post_id):
        return db.get_document(item.docid)
    return None


def terms_of(doc):
    return {t.term.decode("utf-8", "replace") for t in doc.termlist()}


def phrase_matches(db, words, docid):
    """Whether the unprefixed phrase `words` matches document `docid`."""
    query = xapian.Query(xapian.Query.OP_PHRASE, [w.lower() for w in words])
    enquire = xapian.Enquire(db)
    enquire.set_query(query)
    return any(m.docid == docid for m in enquire.get_mset(0, db.get_doccount()))


def unpack_facet_value(value):
    """[(term, label)] from a facet value: each a length byte and the term,
    a length byte and the label."""
    pairs = []
    while value:
        n = value[0]
        if not check(2 + n <= len(value), f"facet value runs past its end: {value!r}"):
            break
        m = value[1 + n]
        if not check(2 + n + m <= len(value), f"facet label runs past its end: {value!r}"):
            break
        pairs.append((value[1:1 + n].decode("utf-8"), value[2 + n:2 + n + m].decode("utf-8")))
        value = value[2 + n + m:]
    return pairs


def check_facet_values(db):
    """Every document's facet value lists exactly its K, M, XAUTHOR and
    XFEED terms, in term order, but for the K terms of Atom category terms
    whose label is what is shown (they filter, they are not facets); each
    category and author with the label its record spells it with, feeds
    and months without one."""
    for post in db.postlist(""):
        doc = db.get_document(post.docid)
        record = json.loads(doc.get_value(SLOT_RECORD))
        shown = {"K" + c.lower() for c in record.get("categories") or []}
        want = sorted(t for t in terms_of(doc)
                      if t.startswith(FACET_PREFIXES) and (not t.startswith("K") or t in shown))
        pairs = unpack_facet_value(doc.get_value(SLOT_FACETS))
        got = [term for term, _ in pairs]
        check(got == want, f"document {post.docid}: facet value {got}, terms {want}")
        check(any(t.startswith("XFEED") for t in got) and any(t.startswith("M") for t in got),
              f"document {post.docid}: facet value {got} lacks a feed or a month")
        for term, label in pairs:
            if term.startswith("K"):
                written = record.get("categories") or []
            elif term.startswith("XAUTHOR"):
                written = record.get("authors") or []
            else:
                check(label == "", f"document {post.docid}: {term} has a label {label!r}")
                continue
            check(label in written and term.endswith(label.lower()),
                  f"document {post.docid}: {term} labelled {label!r}, record has {written}")


def check_duplicate_keys(db):
    """Every post of data/ has a link; its duplicate key is the XXH3-64 of the
    link without scheme, "www." and trailing slash, a newline and the title
    lowercased, and no two posts share one (data/ holds no copies)."""
    keys = {}
    for post in db.postlist(""):
        doc = db.get_document(post.docid)
        record = json.loads(doc.get_value(SLOT_RECORD))
        link = record.get("link", "")
        key = doc.get_value(SLOT_DUPLICATE_KEY)
        bare = link.split("://", 1)[-1].removeprefix("www.").rstrip("/")
        title = "".join(c.lower() if "A" <= c <= "Z" else c for c in " ".join(record.get("title", "").split()))
        want = xxhash.xxh3_64_digest((bare + "\n" + title).encode("utf-8"))  # big-endian
        check(key == want, f"document {post.docid}: duplicate key {key.hex()} for {link!r}, {title!r}")
        check(key not in keys, f"documents {keys.get(key)} and {post.docid} share the duplicate key {key!r}")
        keys[key] = post.docid


def main():
    db = xapian.Database(sys.argv[1])
    dump_path = sys.argv[2] if len(sys.argv) > 2 else None

    check(db.get_metadata("schema_version") == b"7",
          f"schema_version metadata is {db.get_metadata('schema_version')!r}, want b'7'")
    check_facet_values(db)
    check_duplicate_keys(db)
    check(db.get_metadata("copies") == b"0", f"copies metadata is {db.get_metadata('copies')!r}, want b'0'")
    for feed in ("pytorch", "tensor-notes", "kernel-digest"):
        meta = db.get_metadata("feed:" + feed)
        check(meta != b"", f"metadata feed:{feed} missing")

    # 8 PyTorch posts over three snapshots, 4 Atom entries, 2 RDF items.
    check(db.get_doccount() == 14, f"{db.get_doccount()} documents, want 14")
    for feed, count in (("pytorch", 8), ("tensor-notes", 4), ("kernel-digest", 2)):
        n = db.get_termfreq("XFEED" + feed)
        check(n == count, f"XFEED{feed} on {n} documents, want {count}")

    expect_post(db, PT + "9000001", {
        "title": "Regional Compilation: Cutting torch.compile Cold-Start Time",
        "link": "https://pytorch.org/blog/regional-compilation-cutting-torch-compile-cold-start-time/",
        "authors": ["Ana Sánchez"],
        "categories": ["Blog", "torch.compile", "Performance"],
        "published": "2026-08-18T16:05:12Z",
        "versions": 1,
        "in_feed": False,
        "first_seen": "2026-09-02T06:15:44Z",
        "last_seen": "2026-09-02T06:15:44Z",
    }, terms=[
        "Sregional", "Scompilation", "Storch", "Scompile", "regional",
        "Aana", "Asánchez", "XAUTHORana sánchez",
        "Kblog", "Ktorch.compile", "Kperformance",
        "XFEEDpytorch", "Hpytorch.org", "D20260818", "M202608", "Y2026",
        "XINFEEDno", "compile", "inductor",
    ], phrases=[
        ["torch", "compile"], ["max", "autotune", "no", "cudagraphs"],
        # table cells stay separate words, in order
        ["Llama", "style", "8B", "142", "21", "1.41x"],
        # image alt text and figure caption
        ["Bar", "chart", "comparing", "full", "model"],
    ], text_has=[
        "layer.compile(mode=\"max-autotune-no-cudagraphs\")",
        "torch.compile(model)",
        "Llama-style 8B 142 21 1.41x",
        "Bar chart comparing full-model and regional compile latency Cold-start latency",
        "a real cost for inference servers",
    ], text_lacks=["xyzzy", "ptAnalytics", "padding", "#ee4c2c", "font-weight"],
        summary_has=["Regional compilation compiles that block once", "[\u2026]"])

    expect_post(db, PT + "9000002", {
        "title": "Autotuning Custom Kernels with Helion",
        "authors": ["Jürgen Weiß", "Priya Raman"],
        "categories": ["Blog", "Helion", "Kernels", "Performance"],
        "published": "2026-08-21T17:30:00Z",
        "versions": 1,
        "in_feed": False,
        "first_seen": "2026-09-02T06:15:44Z",
        "last_seen": "2026-09-17T07:12:10Z",
    }, terms=["Shelion", "XAUTHORjürgen weiß", "XAUTHORpriya raman", "Ajürgen",
              "Khelion", "Kkernels", "XINFEEDno", "register_tunable"],
        phrases=[["hl", "register_tunable"], ["helion", "EnumFragment"]],
        text_has=["chunks = hl.register_tunable(\"chunks\", helion.EnumFragment(choices=(1, 2, 4, 8)))",
                  "def softmax_rows(x: torch.Tensor) -> torch.Tensor:",
                  "When m < 4096 the autotuner",
                  "0.98x \u2013 1.06x"])

    expect_post(db, PT + "9000003", {
        "title": "PyTorch Community Meetups This Autumn",
        "authors": ["PyTorch Foundation"],
        "versions": 1,
        "in_feed": True,
        "last_seen": "2026-10-03T06:49:01Z",
    }, terms=["XAUTHORpytorch foundation", "Kcommunity", "Kevents", "münchen", "XINFEEDyes"],
        text_has=["São Paulo \u2014 17 September", "Zürich"],
        text_lacks=["Enable JavaScript", "Highlights from last year"])

    # The edited post: new title and section, two versions, still in the feed.
    expect_post(db, PT + "9000004", {
        "title": "Distributed Checkpointing in Practice: Asynchronous Saves",
        "authors": ["Mei Chen"],
        "categories": ["Blog", "Distributed", "torch.distributed"],
        "published": "2026-08-27T18:45:30Z",
        "versions": 2,
        "in_feed": True,
        "first_seen": "2026-09-02T06:15:44Z",
        "last_seen": "2026-10-03T06:49:01Z",
    }, terms=["Sasynchronous", "Ssaves", "async_save", "Ktorch.distributed", "XINFEEDyes",
              "D20260827"],
        phrases=[["dcp", "async_save"]],
        text_has=["Asynchronous saves", "future = dcp.async_save(state_dict"])
    doc = open_doc(db, PT + "9000004")
    if doc is not None:
        data = json.loads(doc.get_value(SLOT_RECORD))
        check("history" not in data, "9000004: the record carries the history (it is in the document data)")
        history = json.loads(doc.get_data()).get("versions") or []
        check(len(history) == 2, f"9000004: history has {len(history)} versions, want 2")
        if len(history) == 2:
            check(history[0].get("first_seen") == history[0].get("last_seen") == 1788329744,
                  f"9000004: version 1 is {history[0]}, want first/last seen 2026-09-02T06:15:44Z")
            check(history[1].get("content") != history[0].get("content"),
                  "9000004: the two versions have the same content")
            check(data.get("last_change") != "2026-09-02T06:15:44Z",
                  f"9000004: last_change is {data.get('last_change')}, want the second version's")

    expect_post(db, PT + "9000005", {
        "title": "Quantization-Aware Training \u2013 From Notebook to Phone with ExecuTorch",
        "categories": ["Blog", "ExecuTorch", "Edge", "Quantization"],
        "versions": 1,
        "in_feed": True,
        "first_seen": "2026-09-02T06:15:44Z",
        "last_seen": "2026-10-03T06:49:01Z",
    }, terms=["Sexecutorch", "Kexecutorch", "XAUTHORoluwaseun adeyemi", "D20260901", "M202609"],
        text_has=["4-bit, QAT 95.6% 0.5 MB 1.9 ms",
                  "Keyword spotting demo app running on an Android phone"])

    expect_post(db, PT + "9000007", {
        "categories": ["Blog", "Debugging", "CUDA"],
        "published": "2026-09-15T13:10:00Z",
        "first_seen": "2026-09-17T07:12:10Z",
        "in_feed": True,
    }, terms=["Kcuda", "Kdebugging"],
        text_has=["Staircase pattern Something is kept alive",
                  "torch.cuda.memory._record_memory_history(max_entries=200_000)"])

    expect_post(db, PT + "9000008", {
        "title": "Call for Proposals: PyTorch Community Day Berlin",
        "categories": ["Announcements", "Community", "Events"],
        "published": "2026-09-29T09:00:00Z",
        "versions": 1,
        "in_feed": True,
        "first_seen": "2026-10-03T06:49:01Z",
        "last_seen": "2026-10-03T06:49:01Z",
    }, terms=["Sberlin", "Kannouncements", "einreichungen", "D20260929"],
        text_has=["\u201eWir freuen uns auf eure Einreichungen\u201c", "\u20ac49"])

    # Atom: html title as plain text, three authors, relative link resolved
    # against the feed's xml:base, script in html content dropped.
    expect_post(db, TN + "41", {
        "title": "Reading the code Inductor generates",
        "link": "https://tensor-notes.example.org/2026/09/reading-inductor-output/",
        "authors": ["Lena Hoffmann", "Kwame Mensah", "Yuki Tanaka"],
        "published": "2026-09-01T07:00:00Z",
        "updated": "2026-09-03T10:30:00Z",
        "versions": 1,
        "in_feed": True,
    }, terms=["Sinductor", "XAUTHORlena hoffmann", "XAUTHORkwame mensah", "XAUTHORyuki tanaka",
              "XFEEDtensor-notes", "Htensor-notes.example.org", "D20260901", "triton_poi_fused_add_mul_relu_0"],
        text_has=["TORCH_LOGS=\"output_code\"",
                  "Terminal showing generated Triton kernel source"],
        text_lacks=["plugh", "document.title"])
    doc = open_doc(db, TN + "41")
    if doc is not None:
        cats = json.loads(doc.get_value(SLOT_RECORD)).get("categories")
        # atom:category: shown by its label, found by its term too.
        check(cats == ["TorchInductor", "debugging"],
              f"{TN}41: categories {cats!r}, want ['TorchInductor', 'debugging']")
        check("Kinductor" in terms_of(doc) and "Ktorchinductor" in terms_of(doc)
              and "Kdebugging" in terms_of(doc),
              f"{TN}41: K terms for inductor/torchinductor/debugging missing")

    # Atom xhtml content and an entry-level xml:base.
    expect_post(db, TN + "40", {
        "title": "Semi-structured sparsity on consumer GPUs",
        "link": "https://tensor-notes.example.org/2026/08/semi-structured-sparsity.html",
        "authors": ["Kwame Mensah"],
        "categories": ["Sparsity", "Performance"],
        "published": "2026-08-20T18:15:00Z",
    }, terms=["Ssparsity", "to_sparse_semi_structured", "Ksparsity"],
        text_has=["Two-out-of-four sparsity keeps", "up_proj 0.91 0.68"])

    # Atom text content: markup-like text stays literal.
    expect_post(db, TN + "39", {
        "title": "Notes on reproducible data loading",
        "link": "https://tensor-notes.example.org/2026/08/reproducible-data-loading/",
        "categories": ["Data loading"],
        "published": "2026-08-11T11:45:00Z",
        "updated": "2026-08-12T12:00:00Z",
    }, terms=["Kdata", "Kdata loading", "D20260811"],
        text_has=["(we use 4 < the 8 available cores)", "exactly on every run. Keep num_workers"])

    expect_post(db, TN + "42", {
        "title": "Profiling dataloader stalls with torch.profiler",
        "first_seen": "2026-09-26T12:02:44Z",
        "in_feed": True,
    }, terms=["Kprofiling", "Kdata"])

    # RSS 1.0: dc:creator, dc:subject, dc:date, content:encoded.
    expect_post(db, KD + "2026/09/issue-37", {
        "title": "Issue 37: Warp specialization, FP8 GEMMs and a faster layer norm",
        "link": KD + "2026/09/issue-37",
        "authors": ["Ingrid Solberg"],
        "categories": ["Triton", "FP8"],
    }, terms=["XAUTHORingrid solberg", "Ktriton", "Kfp8", "XFEEDkernel-digest",
              "Hkernel-digest.example.net", "D20260914", "M202609", "nächste"],
        text_has=["Warp specialization Recent Triton releases", "num_stages=1"])
    doc = open_doc(db, KD + "2026/09/issue-37")
    if doc is not None:
        data = json.loads(doc.get_value(SLOT_RECORD))
        when = data.get("published") or data.get("updated")
        check(when == "2026-09-14T06:00:00Z",
              f"{KD}2026/09/issue-37: published/updated {when!r}, want 2026-09-14T06:00:00Z")
    expect_post(db, KD + "2026/08/issue-36", {
        "categories": ["CUDA graphs", "torch.compile"],
        "in_feed": True,
        "versions": 1,
    }, terms=["Kcuda graphs", "Ktorch.compile", "D20260831"])

    # Nothing from script, style, noscript or iframe anywhere, under any prefix.
    all_terms = [t.term.decode("utf-8", "replace").lower() for t in db.allterms()]
    for banned in ("xyzzy", "plugh", "ptanalytics", "ee4c2c", "padding", "javascript"):
        leaked = [t for t in all_terms if banned in t]
        check(not leaked, f"terms {leaked} come from script/style/noscript text")

    # The whole-database searches a user would run.
    for words, want in ((["torch", "compile"], {PT + "9000001", PT + "9000006", PT + "9000008"}),
                        (["hl", "register_tunable"], {PT + "9000002"})):
        enquire = xapian.Enquire(db)
        enquire.set_query(xapian.Query(xapian.Query.OP_PHRASE, words))
        got = {json.loads(m.document.get_value(SLOT_RECORD)).get("id") for m in enquire.get_mset(0, 100)}
        check(want <= got, f"phrase {' '.join(words)!r} finds {sorted(got)}, want at least {sorted(want)}")

    if dump_path:
        write_dump(db, dump_path)

    for f in failures:
        print("FAIL:", f)
    print(f"golden: {passed} checks passed, {len(failures)} failed")
    return 1 if failures else 0


def expect_post(db, post_id, fields, terms=(), phrases=(), text_has=(), text_lacks=(),
                summary_has=()):
    doc = open_doc(db, post_id)
    check(doc is not None, f"no document with Q term for {post_id}")
    if doc is None:
        return
    try:
        data = json.loads(doc.get_value(SLOT_RECORD))
    except ValueError as e:
        check(False, f"{post_id}: the record is not JSON ({e})")
        return
    check(data.get("id") == post_id, f"{post_id}: data id is {data.get('id')!r}")
    for key, want in fields.items():
        got = data.get(key)
        check(got == want, f"{post_id}: {key} is {got!r}, want {want!r}")
    have = terms_of(doc)
    for term in terms:
        check(term in have, f"{post_id}: term {term!r} missing")
    # The id in the combined database (a document's get_docid() is its id in
    # its shard).
    docid = next(iter(db.postlist("Q" + post_id))).docid
    for words in phrases:
        check(phrase_matches(db, words, docid),
              f"{post_id}: phrase {' '.join(words)!r} does not match")
    text = stored_text(doc.get_value(SLOT_TEXT)).decode("utf-8")
    check("text" not in data, f"{post_id}: the text belongs in value slot {SLOT_TEXT}, not the JSON")
    try:
        history = json.loads(doc.get_data())
        check(isinstance(history.get("versions"), list) and history["versions"],
              f"{post_id}: the document data holds no versions")
    except ValueError as e:
        check(False, f"{post_id}: the document data (history) is not JSON ({e})")
    for s in text_has:
        check(s in text, f"{post_id}: text lacks {s!r}")
    for s in text_lacks:
        check(s not in text, f"{post_id}: text contains {s!r}")
    summary = data.get("summary") or ""
    for s in summary_has:
        check(s in summary, f"{post_id}: summary lacks {s!r}")
    check("  " not in text and text == text.strip(),
          f"{post_id}: text whitespace not collapsed")


def write_dump(db, path):
    with open(path, "w", encoding="utf-8") as out:
        rows = []
        for item in db.postlist(""):
            doc = db.get_document(item.docid)
            terms = sorted((t.term.decode("utf-8", "replace"), t.wdf) for t in doc.termlist())
            values = sorted((v.num, v.value.hex()) for v in doc.values())
            rows.append((doc.get_data().decode("utf-8", "replace"), terms, values))
        for row in sorted(rows):
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    sys.exit(main())
