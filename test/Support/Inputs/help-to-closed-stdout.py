"""help-to-closed-stdout.py TOOLS_DIR TOOL...: runs each tool with --help,
--version and --help-hidden, standard output closed and then /dev/full:
each run must exit 1 with `<tool>: error: cannot write to standard
output`, never a signal."""
import os
import subprocess
import sys

tools_dir, tools = sys.argv[1], sys.argv[2:]
failures = 0
for tool in tools:
    for flag in ('--help', '--version', '--help-hidden'):
        for where in ('closed', '/dev/full'):
            cmd = [os.path.join(tools_dir, os.path.basename(tool)), flag]
            if where == 'closed':
                p = subprocess.run(cmd, stdout=None, stderr=subprocess.PIPE,
                                   stdin=subprocess.DEVNULL,
                                   pass_fds=(), close_fds=True,
                                   preexec_fn=lambda: os.close(1))
            else:
                with open('/dev/full', 'w') as full:
                    p = subprocess.run(cmd, stdout=full,
                                       stderr=subprocess.PIPE,
                                       stdin=subprocess.DEVNULL)
            err = p.stderr.decode('utf-8', 'replace')
            want = os.path.basename(tool) + ': error: cannot write to standard output'
            if p.returncode != 1 or want not in err:
                failures += 1
                print('FAIL: %s %s to %s: exit %d: %s' %
                      (tool, flag, where, p.returncode, err.strip()[:300]))
print('runs: %d, failures: %d' % (len(tools) * 6, failures))
sys.exit(1 if failures else 0)
