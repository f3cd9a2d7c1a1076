"""Reads a blogsearch database for the reliability tests (crash_safety.sh,
disk_full.sh, concurrency.sh). Uses python3-xapian, so it checks the files
independently of the C++ code under test.

  db_state.py live DB             what xapian-check checks of the live generation:
                                  DB/XAPIANDB listing its shards (the layout
                                  from before shards: its one database)
  db_state.py ids DB              one Q term (post id) per line, sorted
  db_state.py dump DB             one line per document: id, then digests of its
                                  record (minus ingest-time fields), terms and
                                  other values
  db_state.py feeds DB            "feed count" per line, sorted by feed id
  db_state.py grep DB TEXT        every document's data, term, value (the text
                                  decoded) and metadata entry containing TEXT;
                                  exit 1 if any
"""
import hashlib
import json
import os
import sys

import xapian

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_check import stored_text  # noqa: E402  (the kSlotText codec)

SLOT_RECORD = 7  # indexer/schema.h: kSlotRecord, the post record (JSON)
SLOT_TEXT = 5  # kSlotText: the text, compressed (the history points at it)

# Fields that record when a run happened rather than what was indexed.
INGEST_TIME_FIELDS = {"last_ingest", "ingested_at", "indexed_at"}


def live(db):
    stub = os.path.join(db, "XAPIANDB")
    if not os.path.exists(stub):
        return db
    with open(stub) as f:
        words = f.read().split()
    # "auto gen-<stamp>/shard-0 ...": xapian-check reads a stub of shards.
    if len(words) != 2:
        return stub
    # "auto gen-<stamp>": the backend keyword, then a path relative to DB.
    return os.path.join(db, words[-1])


def q_term(doc):
    for t in doc.termlist():
        if t.term.startswith(b"Q"):
            return t.term.decode("utf-8", "replace")
    return "<no id term>"


def digest(obj):
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == "live":
        print(live(path))
        return
    db = xapian.Database(path)
    if cmd == "ids":
        for t in sorted(t.term.decode("utf-8", "replace") for t in db.allterms("Q")):
            print(t)
    elif cmd == "dump":
        lines = []
        for item in db.postlist(""):
            doc = db.get_document(item.docid)
            data = json.loads(doc.get_value(SLOT_RECORD))
            for k in INGEST_TIME_FIELDS:
                data.pop(k, None)
            terms = [(t.term.decode("utf-8", "replace"), t.wdf) for t in doc.termlist()]
            values = [(v.num, v.value.hex()) for v in doc.values() if v.num != SLOT_RECORD]
            lines.append(f"{q_term(doc)}\tdata={digest(data)}\tterms={digest(terms)}\tvalues={digest(values)}")
        print("\n".join(sorted(lines)))
    elif cmd == "feeds":
        for t in db.allterms("XFEED"):
            print(t.term.decode()[len("XFEED"):], t.termfreq)
    elif cmd == "grep":
        needle = sys.argv[3].encode()
        hits = []
        for item in db.postlist(""):
            doc = db.get_document(item.docid)
            if needle in doc.get_data():
                hits.append(f"doc {item.docid} data")
            hits += [f"doc {item.docid} term" for t in doc.termlist() if needle in t.term]
            hits += [f"doc {item.docid} value {v.num}" for v in doc.values()
                     if needle in (stored_text(v.value) if v.num == SLOT_TEXT else v.value)]
        hits += [f"term {t.term!r}" for t in db.allterms() if needle in t.term]
        for key in db.metadata_keys():
            if needle in key or needle in db.get_metadata(key):
                hits.append(f"metadata {key!r}")
        for h in hits[:20]:
            print(h)
        sys.exit(1 if hits else 0)
    else:
        sys.exit(f"db_state.py: unknown command {cmd}")


if __name__ == "__main__":
    main()
