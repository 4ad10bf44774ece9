"""concurrent.py N CMD...: runs CMD N times at once (each with its own
-o <tmp>/<i>), waits, and prints each exit code; the caller checks the
outputs."""
import subprocess
import sys

n = int(sys.argv[1])
out = sys.argv[2]
cmd = sys.argv[3:]
procs = [subprocess.Popen(cmd + ['-o', '%s/%d' % (out, i)],
                          stdout=subprocess.DEVNULL) for i in range(n)]
for i, p in enumerate(procs):
    print('run %d: exit %d' % (i, p.wait()))
