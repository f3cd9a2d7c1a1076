#!/usr/bin/python3
"""Checks of the search page shared by the CGI end-to-end tests.

    pagecheck.py html FILE             the page parses as HTML and is safe
    pagecheck.py link FILE SELECTOR    print one same-page link (href)

An HTML page is accepted when python's html.parser reads it with every
non-void element closed in order, every tag is one the formatter writes,
no attribute is an event handler (on...) and no href/src/action is a
javascript:, vbscript: or data: URL (the data:, icon excepted).
SELECTOR is one of: next, prev, facet:NAME (first link of the facet list
headed NAME), bar (first histogram bar), suggest.
"""

import html.parser
import sys

VOID = {"meta", "link", "input", "br", "img", "hr", "rect", "line"}
ALLOWED = {"html", "head", "meta", "title", "link", "style", "body", "a", "header", "div", "form",
           "label", "input", "button", "details", "summary", "select", "option", "ul", "li", "span",
           "main", "h1", "h2", "p", "ol", "article", "time", "mark", "nav", "aside", "section", "svg",
           "line", "rect", "footer", "dl", "dt", "dd", "pre", "ins", "del"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.links = []  # (context, href, attrs)
        self.section = None
        self.in_svg = False
        self.in_suggest = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in ALLOWED:
            self.errors.append(f"unexpected element <{tag}>")
        for name, value in attrs:
            if name.lower().startswith("on"):
                self.errors.append(f"event handler attribute {name} on <{tag}>")
            if name in ("href", "src", "action") and value is not None:
                v = value.strip().lower()
                if v.startswith(("javascript:", "vbscript:")) or (v.startswith("data:") and v != "data:,"):
                    self.errors.append(f"dangerous URL {name}={value!r} on <{tag}>")
        if tag == "section":
            self.section = a.get("aria-labelledby")
        if tag == "svg":
            self.in_svg = True
        if tag == "p" and a.get("class") == "suggest":
            self.in_suggest = True
        if tag == "a" and "href" in a:
            ctx = "bar" if self.in_svg else "suggest" if self.in_suggest else self.section
            self.links.append((ctx, a["href"], a))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "section":
            self.section = None
        if tag == "svg":
            self.in_svg = False
        if tag == "p":
            self.in_suggest = False

    def handle_decl(self, decl):
        if decl.lower() != "doctype html":
            self.errors.append(f"unexpected declaration {decl!r}")


def parse(text):
    page = Page()
    page.feed(text)
    page.close()
    if page.stack:
        page.errors.append("unclosed elements: " + " ".join(page.stack))
    return page


def check_html(text):
    """Returns a list of problems; empty when the page is fine."""
    if not text.lstrip().lower().startswith("<!doctype html>"):
        return ["does not start with <!DOCTYPE html>"]
    return parse(text).errors


def find_link(text, selector):
    page = parse(text)
    for ctx, href, attrs in page.links:
        if selector in ("next", "prev") and attrs.get("rel") == selector:
            return href
        if selector.startswith("facet:") and ctx == "h-" + selector[6:]:
            return href
        if selector in ("bar", "suggest") and ctx == selector:
            return href
    return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[2], encoding="utf-8", errors="strict") as f:
        text = f.read()
    if sys.argv[1] == "html":
        problems = check_html(text)
        for p in problems[:10]:
            print(f"{sys.argv[2]}: {p}")
        sys.exit(1 if problems else 0)
    if sys.argv[1] == "link" and len(sys.argv) == 4:
        href = find_link(text, sys.argv[3])
        if href is None:
            print(f"{sys.argv[2]}: no {sys.argv[3]} link", file=sys.stderr)
            sys.exit(1)
        print(href)
        return
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
