"""Runs a command with its stdout and stderr on a pseudo-terminal (TERM=xterm)
and prints what it wrote there, with ESC shown as <ESC>: what a user at a
terminal sees. Exits with the command's status."""
import os
import pty
import sys

env = dict(os.environ, TERM="xterm")
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(sys.argv[1], sys.argv[1:], env)
out = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
text = out.decode("utf-8", "replace").replace("\r\n", "\n")
sys.stdout.write(text.replace("\x1b", "<ESC>"))
sys.exit(os.waitstatus_to_exitcode(status))
