"""replace-entry.py MODE DIR: replaces every cache entry under DIR by
something that is not an entry (MODE symlink-dev-zero, fifo, directory,
append: bytes past the header's length), or (MODE temporaries) puts a
temporary of two hours ago and a fresh one beside each."""
import os
import sys
import time

mode, root = sys.argv[1], sys.argv[2]
for dirpath, dirs, files in os.walk(root):
    for name in files + dirs:
        if len(name) != 32:
            continue
        path = os.path.join(dirpath, name)
        if mode == 'temporaries':
            for suffix, age in (('old00000', 7200), ('new00000', 0)):
                tmp = path + '.tmp-' + suffix
                with open(tmp, 'wb') as f:
                    f.write(b'partial')
                t = time.time() - age
                os.utime(tmp, (t, t))
            continue
        if mode == 'append':
            with open(path, 'ab') as f:
                f.write(b'\0' * 100000)
            continue
        os.remove(path)
        if mode == 'symlink-dev-zero':
            os.symlink('/dev/zero', path)
        elif mode == 'fifo':
            os.mkfifo(path)
        elif mode == 'directory':
            os.makedirs(os.path.join(path, 'inside'))
