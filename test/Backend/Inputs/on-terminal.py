"""on-terminal.py CMD...: runs CMD with stderr on a pseudo-terminal and
prints what it wrote there (stdout passes through)."""
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
proc = subprocess.Popen(sys.argv[1:], stderr=slave)
os.close(slave)
data = b''
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
proc.wait()
sys.stdout.flush()
print(data.decode().replace('\r', '<CR>'))
sys.exit(proc.returncode)
