"""corrupt.py truncate|flip DIR: damages every cache entry under DIR."""
import os
import sys

mode, root = sys.argv[1], sys.argv[2]
for dirpath, _, files in os.walk(root):
    for name in files:
        if name == 'accounting':  # the size account, not an entry
            continue
        path = os.path.join(dirpath, name)
        with open(path, 'rb') as f:
            data = bytearray(f.read())
        if mode == 'truncate':
            data = data[:len(data) // 2]
        else:
            data[-1] ^= 0xFF
        with open(path, 'wb') as f:
            f.write(data)
