#!/usr/bin/env python3
"""The most expensive web requests of at most 2 KB that we know of, one per
line: NAME <tab> QUERY_STRING. Used by tests/e2e/query_cost.sh (each must stay
within its bounds) and by cgi_bench.sh's load run (4 clients send these while
one measures an ordinary search)."""
import urllib.parse

KRIESEL_9 = "https://www.dkriesel.com/blog/2026/0803_landtagswahl_sachsen-anhalt"
# Seen in 3,815 snapshots with 3,813 versions: the largest history (2.5 MB).
KRIESEL_3813 = "https://www.dkriesel.com/blog/2021/0827_umfragenschlagzeilen_der_stunde_garantiert_aufgeregt"
COMMON = "the a to of and in is it that for on with as this be are was you i not".split()


def qs(**kw):
    return urllib.parse.urlencode(kw, doseq=True)


CASES = {
    "333 wildcards t*": qs(q=" ".join(["t*"] * 333)),
    "26 wildcards a* to z*": qs(q=" ".join(c + "*" for c in "abcdefghijklmnopqrstuvwxyz")),
    "wildcards under the bound": qs(q=" ".join(["pyt*", "ker*", "comp*", "tor*", "ru*"])),
    "title and author wildcards": qs(q=" OR ".join(f"title:{c}* author:{c}*" for c in "abcdefghij")),
    "250 words": qs(q=" ".join((COMMON * 20)[:250])),
    "100 common words": qs(q=" ".join((COMMON * 5)[:100])),
    "OR of 100 common words": qs(q=" OR ".join((COMMON * 5)[:100])),
    "phrase of 100 words": qs(q='"' + " ".join((COMMON * 5)[:100]) + '"'),
    "NEAR chain of 50 words": qs(q=" NEAR ".join((COMMON * 3)[:50])),
    "nested parentheses": qs(q="(" * 200 + "python" + ")" * 200),
    "negations only": qs(q=" ".join("-" + w for w in COMMON)),
    "last page of 100": qs(q="the", page=1000, n=100),
    "60 filters": qs(q="the", category=[f"c{i}" for i in range(20)], author=[f"a{i}" for i in range(20)],
                     feed=[f"f{i}" for i in range(20)]),
    "recent, OR of common words": qs(q=" OR ".join(COMMON), sort="recent", n=100),
    "100 results, HTML": qs(q="the", n=100),
    "100 results, JSON": qs(q="the", n=100, format="json"),
    "100 results, Atom": qs(q="the", n=100, format="atom"),
    "every post by date": qs(q="date:1970..2100", n=100, sort="date"),
    "start page": "",
    # The post page (post=ID) of blog-history's posts: one edited 9 times,
    # its first against its last version with 100 words to mark; the one
    # with the most versions, its oldest and its last change; a link
    # looked up among the 968 posts of its host and not found; an unknown id.
    "post page, 9 versions": qs(post=KRIESEL_9),
    "post page, diff 1-9, marks": qs(post=KRIESEL_9, diff="1-9", q=" ".join((COMMON * 5)[:100])),
    "post page, version 1": qs(post=KRIESEL_9, version=1),
    "post page, 3,813 versions": qs(post=KRIESEL_3813),
    "post page, 3,813 versions, v1": qs(post=KRIESEL_3813, version=1),
    "post page, 3,813 versions, diff": qs(post=KRIESEL_3813, diff="3812-3813"),
    "post page, link not found": qs(post="https://simonwillison.net/2099/no-such-post/"),
    "post page, unknown id": qs(post="no-such-post"),
    "ordinary: python": qs(q="python"),
}

if __name__ == "__main__":
    for name, query in CASES.items():
        print(f"{name}\t{query[:2048]}")
