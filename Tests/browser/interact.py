#!/usr/bin/env python3
"""Drives headless chromium through the Chrome DevTools Protocol for Tests/browser/run.sh.

Standard library only: chromium is started with --remote-debugging-pipe, which speaks CDP
as NUL-terminated JSON messages on its file descriptors 3 (commands in) and 4 (replies and
events out); no websocket, no port.

    interact.py [--timeout S] [--wait S] [--log FILE] STEP...

--timeout: for the whole run (default 60 s); --wait: for each step's condition (default
10 s); --log: where chromium's own output goes (default: nowhere). INTERACT_DEBUG=1 puts
every CDP message on stderr.

Steps, run in order:
    viewport W,H        emulate a W x H phone-sized or desktop viewport (before `open`)
    open URL            load URL and wait for its load event
    wait JS             poll until the expression is truthy (fails after --wait seconds)
    click SELECTOR      a real mouse click (Input.dispatchMouseEvent) at the middle of the
                        element, once it exists, is visible, enabled and not covered
    eval JS             evaluate, ignore the value (an exception fails)
    print NAME JS       evaluate and print `NAME: <value as JSON>`
    screenshot PATH     write a PNG of the viewport

Every JavaScript dialog (confirm, alert) is accepted and printed as `dialog: <message as
JSON>`; uncaught page exceptions and console.error calls as `page error: ...`.
Exit status 0 when every step ran; 2 with a message on stderr when one failed or timed out.
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time


DEBUG = bool(os.environ.get("INTERACT_DEBUG"))  # every CDP message on stderr


class Failed(Exception):
    pass


def say(line):
    print(line, flush=True)


class Browser:
    def __init__(self, deadline, log):
        self.deadline = deadline
        self.profile = tempfile.mkdtemp(prefix="motionlog-cdp-")
        # fd 3 of the child reads our commands, fd 4 writes its messages.
        cmd_r, cmd_w = os.pipe()
        out_r, out_w = os.pipe()
        # Out of the way of 3 and 4 so that dup2 in the child cannot clobber them.
        hi_cmd_r, hi_out_w = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10), fcntl.fcntl(out_w, fcntl.F_DUPFD, 10)
        os.close(cmd_r)
        os.close(out_w)

        def child_fds():
            os.dup2(hi_cmd_r, 3)
            os.dup2(hi_out_w, 4)

        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--hide-scrollbars", "--remote-debugging-pipe",
             "--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, pass_fds=(3, 4), preexec_fn=child_fds)
        os.close(hi_cmd_r)
        os.close(hi_out_w)
        self.w, self.r = cmd_w, out_r
        self.buf = b""
        self.next_id = 0
        self.replies = {}
        self.session = None
        self.loaded = False

    def close(self):
        try:
            if self.proc.poll() is None:
                try:
                    self.send("Browser.close", session=False)
                except OSError:
                    pass
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        finally:
            for fd in (self.w, self.r):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.profile, ignore_errors=True)

    def send(self, method, params=None, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        if DEBUG:
            print("-> " + json.dumps(msg)[:300], file=sys.stderr)
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def pump(self, until):
        """Handles the messages that arrive by `until` (time.monotonic()), returning after
        the first read that completes one or more of them."""
        end = min(until, self.deadline)
        while True:
            if b"\0" in self.buf:
                *done, self.buf = self.buf.split(b"\0")
                for raw in done:
                    self.handle(json.loads(raw))
                return
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.r], [], [], left)
            if not ready:
                return
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise Failed("chromium exited (see its log)")
            self.buf += chunk

    def handle(self, m):
        if DEBUG:
            print("<- " + json.dumps(m)[:300], file=sys.stderr)
        if "id" in m:
            self.replies[m["id"]] = m
            return
        method, p = m.get("method"), m.get("params", {})
        if method == "Page.javascriptDialogOpening":
            say("dialog: " + json.dumps(p.get("message", "")))
            self.send("Page.handleJavaScriptDialog", {"accept": True})
        elif method == "Page.loadEventFired":
            self.loaded = True
        elif method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            say("page error: " + json.dumps((d.get("exception") or {}).get("description") or d.get("text")))
        elif method == "Runtime.consoleAPICalled" and p.get("type") == "error":
            say("page error: " + json.dumps(" ".join(str(a.get("value", a.get("description"))) for a in p.get("args", []))))

    def call(self, method, params=None, session=True, timeout=None):
        """Sends a command and waits for its reply (handling events meanwhile, so that a
        click that opens a confirm() gets its dialog accepted while it waits)."""
        i = self.send(method, params, session)
        end = time.monotonic() + (timeout or 30)
        while i not in self.replies:
            if time.monotonic() >= min(end, self.deadline):
                raise Failed(f"no reply from chromium to {method} in time")
            self.pump(end)
        m = self.replies.pop(i)
        if "error" in m:
            raise Failed(f"{method}: {m['error'].get('message')}")
        return m.get("result", {})

    def start(self):
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")

    def evaluate(self, expr):
        """(ok, value): ok False when the expression threw or the page was between documents."""
        try:
            r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        except Failed as e:
            # Navigating: the old document's context is gone ("Cannot find context with
            # specified id"), or an evaluation awaiting a promise was cut off by the reload
            # ("Inspected target navigated or closed"); the poll asks the new document.
            if "context" in str(e).lower() or "navigated" in str(e).lower():
                return False, str(e)
            raise
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            return False, (d.get("exception") or {}).get("description") or d.get("text")
        return True, r.get("result", {}).get("value")

    def poll(self, expr, wait, what):
        end = time.monotonic() + wait
        last = None
        while True:
            ok, value = self.evaluate(expr)
            if ok and value:
                return value
            last = value
            if time.monotonic() >= min(end, self.deadline):
                raise Failed(f"timed out after {wait:g} s waiting for {what} (last: {json.dumps(last)})")
            self.pump(time.monotonic() + 0.1)


CLICK_TARGET = """(() => {
  const e = document.querySelector(%s);
  if (!e) return null;
  e.scrollIntoView({block: 'center', inline: 'center'});
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height || e.disabled) return null;
  const x = r.left + r.width / 2, y = r.top + r.height / 2, hit = document.elementFromPoint(x, y);
  if (!hit || !(hit === e || e.contains(hit) || (e.labels && [...e.labels].some(l => l.contains(hit))))) return null;
  return {x, y};
})()"""


def run(steps, wait, deadline, log):
    b = Browser(deadline, log)
    try:
        b.start()
        i = 0

        def arg():
            nonlocal i
            if i >= len(steps):
                raise Failed(f"step {steps[-1]!r} needs more arguments")
            i += 1
            return steps[i - 1]

        while i < len(steps):
            step = arg()
            if step == "viewport":
                w, h = (int(x) for x in arg().split(","))
                b.call("Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": w < 760})
            elif step == "open":
                url = arg()
                b.loaded = False
                r = b.call("Page.navigate", {"url": url})
                if r.get("errorText"):
                    raise Failed(f"open {url}: {r['errorText']}")
                end = time.monotonic() + wait
                while not b.loaded:
                    if time.monotonic() >= min(end, deadline):
                        raise Failed(f"timed out after {wait:g} s waiting for {url} to load")
                    b.pump(end)
            elif step == "wait":
                expr = arg()  # JavaScript's truthiness (an element is truthy), awaited if a promise
                b.poll(f"Promise.resolve({expr}).then(v => !!v)", wait, expr)
            elif step == "click":
                sel = arg()
                at = b.poll(CLICK_TARGET % json.dumps(sel), wait, f"{sel} to be there, visible, enabled and uncovered")
                base = {"x": at["x"], "y": at["y"], "button": "left", "clickCount": 1}
                b.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": at["x"], "y": at["y"]})
                b.call("Input.dispatchMouseEvent", dict(base, type="mousePressed", buttons=1))
                b.call("Input.dispatchMouseEvent", dict(base, type="mouseReleased", buttons=0), timeout=wait)
            elif step == "eval":
                expr = arg()
                ok, value = b.evaluate(expr)
                if not ok:
                    raise Failed(f"eval {expr}: {value}")
            elif step == "print":
                name, expr = arg(), arg()
                ok, value = b.evaluate(expr)
                if not ok:
                    raise Failed(f"print {name}: {value}")
                say(f"{name}: {json.dumps(value)}")
            elif step == "screenshot":
                path = arg()
                data = b.call("Page.captureScreenshot", {"format": "png"})["data"]
                with open(path, "wb") as f:
                    f.write(base64.b64decode(data))
            else:
                raise Failed(f"unknown step {step!r}")
        # Exceptions the last steps caused arrive as events, which CDP sends in order:
        # one more round trip collects them.
        b.evaluate("1")
    finally:
        b.close()


def main(argv):
    timeout, wait, log = 60.0, 10.0, None
    while argv and argv[0].startswith("--"):
        opt = argv.pop(0)
        if opt == "--timeout":
            timeout = float(argv.pop(0))
        elif opt == "--wait":
            wait = float(argv.pop(0))
        elif opt == "--log":
            log = open(argv.pop(0), "ab")
        else:
            sys.exit(f"interact: unknown option {opt}")
    if not argv:
        sys.exit(__doc__)
    try:
        run(argv, wait, time.monotonic() + timeout, log or subprocess.DEVNULL)
    except (Failed, OSError) as e:
        print(f"interact: {e}", file=sys.stderr, flush=True)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
