"""Helpers shared by the Python test drivers of rematch (tests/cli, tests/reliability)."""

import json
import os
import subprocess
import tempfile
import time
import unittest


def write(path, text, mode="w"):
    """Writes str (as UTF-8) or bytes to path byte for byte, creating its
    directories; path may be bytes, mode "a" appends. Returns path."""
    os.makedirs(os.path.dirname(path) or (b"." if isinstance(path, bytes) else "."),
                exist_ok=True)
    with open(path, mode + "b") as f:
        f.write(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


class Result:
    """The exit code, stdout and stderr (str) of one run of a tool; seconds
    and raw_out (stdout as bytes) where the caller kept them."""

    def __init__(self, rc, out, err, seconds=None, raw_out=None):
        self.rc, self.out, self.err = rc, out, err
        self.seconds, self.raw_out = seconds, raw_out

    def __repr__(self):
        # Very long output (a 50,000-line input) is cut in the middle.
        out, err = self.out, self.err
        if len(out) > 6000:
            out = out[:3000] + "\n[...]\n" + out[-3000:]
        if len(err) > 6000:
            err = err[:3000] + "\n[...]\n" + err[-3000:]
        after = "" if self.seconds is None else f" after {self.seconds:.1f}s"
        return f"exit {self.rc}{after}\n--- stdout\n{out}\n--- stderr\n{err}"

    def json(self):
        # With the raw bytes kept, stdout must also be strictly valid UTF-8.
        if self.raw_out is not None:
            return json.loads(self.raw_out.decode("utf-8"))
        return json.loads(self.out)


def result_of(proc, seconds=None, keep_raw=False):
    """The Result of a subprocess.CompletedProcess run with stdout and
    stderr piped; undecodable bytes are kept as surrogate escapes."""
    return Result(proc.returncode,
                  proc.stdout.decode("utf-8", "surrogateescape"),
                  proc.stderr.decode("utf-8", "surrogateescape"),
                  seconds, proc.stdout if keep_raw else None)


class TempDirTest(unittest.TestCase):
    """A test that works in its own temporary directory, self.dir."""

    maxDiff = None
    prefix = "rematch-test-"  # of the temporary directory's name

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix=self.prefix)
        self.dir = self._tmp.name
        self.addCleanup(self._tmp.cleanup)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def src(self, name, text):
        """Writes a file below self.dir; returns name, relative to it."""
        write(self.path(name), text)
        return name

    def run_tool(self, argv, cwd=None, timeout=180, env=None):
        """Runs argv in cwd (default self.dir); env None inherits ours."""
        start = time.monotonic()
        proc = subprocess.run(argv, cwd=cwd or self.dir, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout, env=env)
        return result_of(proc, time.monotonic() - start)

    def assertExit(self, res, code):
        self.assertEqual(res.rc, code, f"unexpected exit code\n{res!r}")
