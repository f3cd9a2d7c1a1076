#!/usr/bin/python3
"""Sends XSS and injection payloads in every parameter of the search page.

    hostile.py BASE_URL
    hostile.py --direct CGI_BINARY DATABASE

BASE_URL is the search page (http://127.0.0.1:PORT/search); with --direct
the CGI binary is run with a CGI environment instead, so payloads that the
web server itself refuses (lighttpd answers 400 to a %00 or CR/LF in the
URL, which is checked too) still reach the CGI. Each payload
goes into every parameter (q, page, n, sort, since, until, category,
author, feed, format, post, version, diff and an unknown one), into q and
category of the JSON and Atom outputs, and into q of a post page and its
diff. Every answer must be 200, 400 or 404 (an unknown post) with the right
content type, carry no header the payload made up, and be safe: HTML that
pagecheck accepts (no foreign element, no event handler, no javascript:
URL) and in which no payload with markup characters appears verbatim; JSON
that parses; Atom that is well-formed XML. Prints one line per problem and
a summary; exits 1 on any problem.
"""

import email.parser
import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pagecheck  # noqa: E402

# Plain payloads are percent-encoded before sending.
PLAIN = [
    "<script>alert(1)</script>",
    "\"'><svg onload=alert(1)>",
    "'><img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(document.cookie)",
    "\" autofocus onfocus=\"alert(1)",
    "' onmouseover='alert(1)",
    "</title><script>alert(1)</script>",
    "</textarea><script>alert(1)</script>",
    "</style><script>alert(1)</script>",
    "<iframe src=\"javascript:alert(1)\"></iframe>",
    "<a href=\"javascript:alert(1)\">x</a>",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "<!--<script>-->",
    "<![CDATA[<script>alert(1)</script>]]>",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "{{7*7}}${7*7}<%= 7*7 %>",
    "'; DROP TABLE posts; --",
    "\" OR 1=1 --",
    "../../../../etc/passwd",
    "<body onload=alert(1)>",
    "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
    "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
    "<base href=\"//evil.example/\">",
    "<form action=\"//evil.example\"><button>x</button></form>",
    "]]><x>",
    "\u202e<script>alert(1)</script>",
    "category:\"<script>\"",
    "title:<b>x</b> AND author:\"><",
    "A" * 10240 + "<script>alert(1)</script>",
]
# Raw payloads are sent as written: bytes no browser would encode this way.
RAW = [
    "%00%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "a%00%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "%C0%BCscript%C0%BEalert(1)%C0%BC/script%C0%BE",
    "%E0%80%BCscript%E0%80%BE",
    "%FF%FE%3Cscript%3E",
    "%ED%A0%80%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
    "x%0D%0ASet-Cookie:%20injected=1",
    "%0D%0A%0D%0A%3Cscript%3Ealert(1)%3C/script%3E",
    "%253Cscript%253E",
    "%3Cscript%3E" + "%C3%A9" * 3000,
    "%F0%9F%98%80%3Cscript%3E%F0%9F",
]
PARAMS = ["q", "page", "n", "sort", "since", "until", "category", "author", "feed", "format", "post", "version",
          "diff", "zzz"]
# A post of data/ with two versions: its page gets the payload as the
# search whose words it marks.
POST = "post=https%3A%2F%2Fpytorch.org%2F%3Fp%3D9000004"
CONTENT_TYPES = {None: "text/html; charset=utf-8", "json": "application/json",
                 "atom": "application/atom+xml; charset=utf-8"}


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def run_cgi(binary, database, query_string):
    """Runs the CGI once; returns (status, headers, body) like fetch."""
    env = {"PATH": "/usr/bin:/bin", "BLOGSEARCH_DB": database, "REQUEST_METHOD": "GET",
           "QUERY_STRING": query_string, "GATEWAY_INTERFACE": "CGI/1.1",
           "SERVER_NAME": "localhost", "SERVER_PORT": "80", "SCRIPT_NAME": "/search"}
    out = subprocess.run([binary], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                         check=False, timeout=60).stdout
    head, _, body = out.partition(b"\r\n\r\n")
    headers = email.parser.BytesHeaderParser().parsebytes(head + b"\r\n\r\n")
    return int(headers.get("Status", "0").split()[0]), headers, body


def server_refused(status, headers, payload):
    """lighttpd's own 400 for control characters or invalid UTF-8 in the URL
    (decoded() turned those bytes into U+FFFD)."""
    return (status == 400 and not headers.get("Content-Security-Policy")
            and any(c in payload for c in "\x00\r\n\ufffd"))


def decoded(raw_value):
    return urllib.parse.unquote(raw_value, errors="replace")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--direct":
        base = "/search"
        get = lambda url: run_cgi(sys.argv[2], sys.argv[3], url.partition("?")[2])  # noqa: E731
    elif len(sys.argv) == 2:
        base = sys.argv[1]
        get = fetch
    else:
        sys.exit(__doc__)
    payloads = [(p, urllib.parse.quote(p, safe="")) for p in PLAIN] + [(decoded(r), r) for r in RAW]
    assert len(payloads) >= 30
    problems = []
    requests = 0
    refused = 0

    def check(label, url, fmt, payload):
        nonlocal requests, refused
        requests += 1
        status, headers, body = get(url)
        where = f"{label} payload {payload[:40]!r}"
        if get is fetch and server_refused(status, headers, payload):
            refused += 1
            return
        if status not in (200, 400, 404):
            problems.append(f"{where}: status {status}")
            return
        if "injected" in str(headers).lower():
            problems.append(f"{where}: a header was injected")
        ctype = headers.get("Content-Type")
        if status == 200 and ctype != CONTENT_TYPES[fmt]:
            problems.append(f"{where}: Content-Type {ctype}")
        if headers.get("X-Content-Type-Options") != "nosniff" or not headers.get("Content-Security-Policy"):
            problems.append(f"{where}: security headers missing")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as e:
            problems.append(f"{where}: body is not UTF-8 ({e})")
            return
        if ctype.startswith("text/html"):
            for p in pagecheck.check_html(text)[:3]:
                problems.append(f"{where}: {p}")
            if any(c in payload for c in "<>\"'") and payload in text:
                problems.append(f"{where}: payload appears unescaped")
        elif ctype.startswith("application/json"):
            try:
                json.loads(text)
            except ValueError as e:
                problems.append(f"{where}: JSON does not parse: {e}")
        elif ctype.startswith("application/atom+xml"):
            try:
                ET.fromstring(body)
            except ET.ParseError as e:
                problems.append(f"{where}: Atom is not well-formed: {e}")

    for payload, encoded in payloads:
        for param in PARAMS:
            prefix = "" if param == "q" else "q=compile&"
            check(param, f"{base}?{prefix}{param}={encoded}", None, payload)
        check("q (post page)", f"{base}?{POST}&q={encoded}", None, payload)
        check("q (post diff)", f"{base}?{POST}&diff=1-2&q={encoded}", None, payload)
        for fmt in ("json", "atom"):
            check(f"q ({fmt})", f"{base}?q={encoded}&format={fmt}", fmt, payload)
            check(f"category ({fmt})", f"{base}?q=compile&category={encoded}&format={fmt}", fmt, payload)

    for p in problems[:40]:
        print("hostile:", p)
    print(f"hostile: {len(payloads)} payloads x {len(PARAMS) + 6} parameter slots = {requests} requests, "
          f"{refused} refused by the web server, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
