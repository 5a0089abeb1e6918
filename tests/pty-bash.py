#!/usr/bin/env python3
"""pty-bash.py: type keys into a real interactive bash and say what it shows.

Usage: pty-bash.py DIR SETUP < CASES

Starts `bash --norc --noprofile -i` in a pseudo-terminal of 200 columns
and 60 rows, in DIR, with TERM=dumb, HOME and INPUTRC in a scratch
directory (readline's defaults, with no bell, no pager and no question
before a long list, none of the user's settings), sources the file SETUP,
then types each line of CASES (Python escapes: \\t is a TAB) and prints,
for each, three lines:

    case: the keys as written
    line: the command line readline holds after the keys
    list: the words readline listed (a double TAB), space-separated

The command line is read by a key bound with `bind -x`, which prints
READLINE_LINE and empties it, so nothing typed is ever run.  Each case
waits for that output at most TIMEOUT seconds (MPSIM_PTY_TIMEOUT, default
20); a case that times out prints "line: TIMEOUT" and the exit status is 1.
Only the Python standard library is used.
"""

import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time

PROMPT = "PTY-PROMPT> "
MARK = "PTY-LINE["
TIMEOUT = float(os.environ.get("MPSIM_PTY_TIMEOUT", "20"))

INPUTRC = """\
set bell-style none
set completion-query-items 10000
set page-completions off
set enable-bracketed-paste off
set colored-stats off
set colored-completion-prefix off
set visible-stats off
set show-all-if-ambiguous off
set show-all-if-unmodified off
set completion-ignore-case off
set print-completions-horizontally off
set echo-control-characters off
set horizontal-scroll-mode off
"""


def read_until(fd, pattern, timeout):
    """Read from fd until the regex pattern matches what was read."""
    buf = ""
    end = time.monotonic() + timeout
    while True:
        m = re.search(pattern, buf)
        if m:
            return buf, m
        left = end - time.monotonic()
        if left <= 0:
            return buf, None
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:
            return buf, None
        if not data:
            return buf, None
        buf += data.decode("utf-8", "replace")


def listed(text):
    """The words of a readline listing in text, which starts with the keys
    typed: the lines after the first that are neither the prompt and its
    command line nor the bound key's output."""
    words = []
    for ln in text.replace("\r\n", "\n").split("\n")[1:]:
        ln = ln.split("\r")[-1]
        if ln.startswith(PROMPT) or MARK in ln:
            continue
        words += ln.split()
    return words


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: pty-bash.py DIR SETUP < CASES")
    top, setup = sys.argv[1], os.path.abspath(sys.argv[2])
    bash = shutil.which("bash") or "/bin/bash"
    scratch = tempfile.mkdtemp(prefix="pty-bash.")
    with open(os.path.join(scratch, "inputrc"), "w") as f:
        f.write(INPUTRC)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": scratch,
        "INPUTRC": os.path.join(scratch, "inputrc"),
        "TERM": "dumb",
        "LC_ALL": "C",
        "HISTFILE": "/dev/null",
        "PS1": PROMPT,
        "PS2": "",
        "PROMPT_COMMAND": "",
    }
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(top)
        os.execve(bash, ["bash", "--norc", "--noprofile", "-i"], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))

    status = 0
    try:
        init = os.path.join(scratch, "init")
        with open(init, "w") as f:
            f.write("bind -x '\"\\C-x\\C-l\": printf \"\\\\n%s%%s]\\\\n\" "
                    "\"$READLINE_LINE\"; READLINE_LINE=; READLINE_POINT=0'\n" % MARK)
            f.write("source '%s'\n" % setup.replace("'", "'\\''"))
        os.write(fd, ("source " + init + "; echo PTY-READ''Y\n").encode())
        _, m = read_until(fd, r"PTY-READY\r?\n" + re.escape(PROMPT), TIMEOUT)
        if not m:
            print("pty-bash.py: bash did not start", file=sys.stderr)
            return 1
        for case in sys.stdin.read().splitlines():
            if not case:
                continue
            keys = case.encode().decode("unicode_escape")
            os.write(fd, keys.encode() + b"\x18\x0c")
            text, m = read_until(fd, re.escape(MARK) + r"(.*)\]\r?\n", TIMEOUT)
            print("case: " + case)
            if not m:
                print("line: TIMEOUT")
                print("list:")
                status = 1
                break
            print("line: " + m.group(1))
            print("list: " + " ".join(listed(text[:m.start()])))
        os.write(fd, b"exit\n")
    finally:
        try:
            os.close(fd)
        except OSError:
            pass
        # bash exits on the hang-up; one that does not is killed
        for _ in range(50):
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    break
            except OSError:
                break
            time.sleep(0.1)
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        shutil.rmtree(scratch, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
