#!/usr/bin/python3
"""Drives headless Chromium through the search page over the DevTools protocol.

    browser.py CHROMIUM BASE_URL ARTIFACT_DIR

Opens the start page, types a query into the search box and presses Enter,
follows the "Next" page link and then a category facet link, then a
result's "archived copy" (the post page), its "changes" link (the diff of
two versions) and a related post, checking each page it lands on; takes screenshots at 1280 px and 375 px wide (and one in
the dark colour scheme) into ARTIFACT_DIR; checks that nothing overflows
sideways at 320 px; and fails on any console message of level error, page
exception, CSP violation or failed load. Exits 1 with one line per problem.
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # python3-websocket

TIMEOUT = 30


class Browser:
    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="blogsearch-chromium.")
        port = free_port()
        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-extensions", "--hide-scrollbars", f"--user-data-dir={self.profile}",
             f"--remote-debugging-port={port}", "--remote-debugging-address=127.0.0.1", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + TIMEOUT
        target = None
        while time.monotonic() < deadline and target is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as r:
                    pages = [t for t in json.load(r) if t.get("type") == "page"]
                target = pages[0] if pages else None
            except OSError:
                time.sleep(0.2)
        if target is None:
            self.close()
            raise RuntimeError("chromium did not open its DevTools port")
        self.ws = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=TIMEOUT,
                                              suppress_origin=True)
        self.next_id = 0
        self.events = []
        self.problems = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")

    def close(self):
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001 - closing after a failure
            pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _receive(self):
        message = json.loads(self.ws.recv())
        if "method" in message:
            self._note(message)
            self.events.append(message)
        return message

    def _note(self, event):
        """Records console errors, exceptions and failed loads as problems."""
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.problems.append(f"console error: {args}")
        elif method == "Runtime.exceptionThrown":
            self.problems.append("exception: " + params["exceptionDetails"].get("text", ""))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            entry = params["entry"]
            self.problems.append(f"console {entry.get('source')} error: {entry.get('text')} {entry.get('url', '')}")
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            self.problems.append(f"load failed: {params.get('errorText')} ({params.get('blockedReason', '')})")
        elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
            self.problems.append(f"HTTP {params['response']['status']} for {params['response']['url']}")

    def call(self, method, **params):
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            message = self._receive()
            if message.get("id") == my_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def wait_for_load(self, action):
        """Runs action() and waits for the page it starts to finish loading."""
        self.events.clear()
        action()
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if any(e["method"] == "Page.loadEventFired" for e in self.events):
                return
            self._receive()
        raise RuntimeError("page did not load in time")

    def navigate(self, url):
        self.wait_for_load(lambda: self.call("Page.navigate", url=url))

    def js(self, expression):
        """Evaluates in the page through DevTools (the page itself has no scripts)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluating {expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def viewport(self, width, height, mobile=False):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=mobile)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=False)["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run(b, base, artifacts):
    failures = []

    def expect(condition, what):
        if not condition:
            failures.append(what)
        return condition

    b.viewport(1280, 900)
    b.navigate(base)
    expect("Blog search" in b.js("document.title"), "start page title")
    expect(b.js("!!document.querySelector('form[role=search] label[for=q]')"), "labelled search form")
    expect(b.js("document.documentElement.lang") == "en", "lang attribute")
    b.screenshot(os.path.join(artifacts, "start-1280.png"))

    # Type a query and press Enter, as a person would.
    b.js("document.getElementById('q').focus()")
    b.call("Input.insertText", text="the")

    def press_enter():
        for kind in ("keyDown", "keyUp"):
            b.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter",
                   windowsVirtualKeyCode=13, nativeVirtualKeyCode=13, **({"text": "\r"} if kind == "keyDown" else {}))

    b.wait_for_load(press_enter)
    expect("q=the" in b.js("location.search"), f"search submitted (at {b.js('location.href')})")
    count = b.js("document.querySelector('.count').textContent")
    expect(count.startswith("Results 1–10 of"), f"result count after the search: {count!r}")
    expect(b.js("document.querySelectorAll('ol.hits > li').length") == 10, "ten results on page 1")
    expect(b.js("document.querySelectorAll('.snippet mark').length") > 0, "highlighted matches")
    expect(b.js("document.title").startswith("“the”"), "title has the query")
    b.screenshot(os.path.join(artifacts, "results-1280.png"))

    # Follow the page link.
    if expect(b.js("!!document.querySelector('nav.pages a[rel=next]')"), "a Next link"):
        b.wait_for_load(lambda: b.js("document.querySelector('nav.pages a[rel=next]').click()"))
        expect("page=2" in b.js("location.search"), "Next goes to page 2")
        expect(b.js("document.querySelector('.count').textContent").startswith("Results 11–"), "page 2 count")
        expect(b.js("document.querySelector('nav.pages [aria-current=page]').textContent") == "2",
               "page 2 is marked current")

    # Follow a category facet link.
    facet = "document.querySelector('section[aria-labelledby=h-category] a')"
    if expect(b.js(f"!!{facet}"), "a category facet link"):
        label = b.js(f"{facet}.querySelector('span').textContent")
        b.wait_for_load(lambda: b.js(f"{facet}.click()"))
        expect("category=" in b.js("location.search"), "facet link adds a category filter")
        expect("page=" not in b.js("location.search"), "facet link goes back to page 1")
        chips = b.js("Array.from(document.querySelectorAll('.filters a')).map(a => a.textContent).join('|')")
        expect(label.lower() in chips.lower(), f"active filter chip for {label!r}: {chips!r}")
        cats = b.js("Array.from(document.querySelectorAll('ol.hits > li')).map(li => li.querySelector('.meta').textContent.toLowerCase())")
        expect(cats and all(label.lower() in c for c in cats), f"every result has category {label!r}")

    # A result's archived copy: the post page, the search's words marked,
    # its versions, related posts; then the changes between its versions.
    post_url = diff_url = None
    b.navigate(base + "?q=checkpointing")
    archived = "Array.from(document.querySelectorAll('ol.hits .url a')).find(a => a.textContent == 'archived copy')"
    if expect(b.js(f"!!{archived}"), "an 'archived copy' link on a result"):
        b.wait_for_load(lambda: b.js(f"{archived}.click()"))
        post_url = b.js("location.href")
        expect("post=" in post_url and "q=checkpointing" in post_url, f"archived copy opens the post page: {post_url}")
        expect("archived copy" in b.js("document.title"), "post page title")
        expect(b.js("document.querySelectorAll('main.post .body mark').length") > 0, "the search's words marked in the text")
        expect(b.js("document.querySelectorAll('.versions li').length") == 2, "two versions in the timeline")
        expect(b.js("document.querySelectorAll('aside ul.related a').length") >= 1, "related posts")
        expect(b.js("!!document.querySelector('link[rel=stylesheet]') && "
                    "getComputedStyle(document.querySelector('dl.facts')).display == 'grid'"),
               "the post page has the search page's style sheet")
        b.screenshot(os.path.join(artifacts, "post-1280.png"))
        changes = "Array.from(document.querySelectorAll('.versions a')).find(a => a.textContent.startsWith('changes'))"
        if expect(b.js(f"!!{changes}"), "a link to the changes between versions"):
            b.wait_for_load(lambda: b.js(f"{changes}.click()"))
            diff_url = b.js("location.href")
            expect("diff=1-2" in diff_url, f"changes link asks for diff=1-2: {diff_url}")
            expect(b.js("document.querySelectorAll('.diff .body ins').length") > 0, "the added text marked <ins>")
            expect(b.js("document.querySelectorAll('.diff dl del').length") > 0, "the removed title word marked <del>")
            expect(b.js("getComputedStyle(document.querySelector('.diff .body ins')).backgroundColor") !=
                   b.js("getComputedStyle(document.body).backgroundColor"), "insertions stand out")
            b.screenshot(os.path.join(artifacts, "diff-1280.png"))
        b.navigate(post_url)
        related = "document.querySelector('aside ul.related a')"
        if b.js(f"!!{related}"):
            b.wait_for_load(lambda: b.js(f"{related}.click()"))
            expect(b.js("location.href") != post_url and "post=" in b.js("location.href"),
                   "a related post opens its own page")

    # Narrow screens: 375 px screenshot; nothing wider than the screen at 320.
    pages = [("results", base + "?q=compile")] + [(name, url) for name, url in (("post", post_url), ("diff", diff_url)) if url]
    for width in (375, 320):
        b.viewport(width, 800, mobile=True)
        for name, url in pages:
            b.navigate(url)
            overflow = b.js("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            expect(overflow <= 0, f"{name}: {overflow} px horizontal overflow at {width} px")
            if width == 375:
                b.screenshot(os.path.join(artifacts, f"{name}-375.png"))

    # Dark scheme: the page follows prefers-color-scheme.
    b.viewport(1280, 900)
    b.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark"}])
    b.navigate(base + "?q=compile")
    bg = b.js("getComputedStyle(document.body).backgroundColor")
    expect(bg.startswith("rgb(") and sum(int(x) for x in bg[4:-1].split(",")) < 150, f"dark background: {bg}")
    b.screenshot(os.path.join(artifacts, "results-1280-dark.png"))

    # Keyboard focus is visible: the search box gets an outline.
    b.js("document.getElementById('q').blur()")
    b.call("Input.dispatchKeyEvent", type="keyDown", key="Tab", code="Tab", windowsVirtualKeyCode=9)
    b.call("Input.dispatchKeyEvent", type="keyUp", key="Tab", code="Tab", windowsVirtualKeyCode=9)
    outline = b.js("getComputedStyle(document.activeElement).outlineStyle")
    expect(outline not in ("none", ""), f"visible focus on {b.js('document.activeElement.tagName')}: {outline}")
    return failures


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    chromium, base, artifacts = sys.argv[1:]
    os.makedirs(artifacts, exist_ok=True)
    b = Browser(chromium)
    try:
        failures = run(b, base, artifacts)
    finally:
        b.close()
    failures += b.problems
    for f in failures:
        print("browser: FAIL:", f)
    print(f"browser: screenshots in {artifacts}: " + ", ".join(sorted(os.listdir(artifacts))))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
