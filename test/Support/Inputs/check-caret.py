"""Prints the widest line of a diagnostic and, for every caret line, the
column of its caret and the character of the line above it there."""
import sys

lines = open(sys.argv[1], encoding='utf-8', errors='replace').read().splitlines()
print('widest line:', max(len(l) for l in lines))
n = 0
for above, line in zip(lines, lines[1:]):
    if line.strip() == '^':
        n += 1
        col = line.index('^')
        print('caret %d at column %d under %r' % (n, col, above[col:col + 1]))
