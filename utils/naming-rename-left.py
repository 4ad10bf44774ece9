#!/usr/bin/env python3
"""Renames the names check-naming.sh still reports (locals that clang-tidy 14
warns about without a fix, e.g. ones a lambda captures) with clang-rename-14.

Usage: naming-rename-left.py CHECK_NAMING_OUTPUT
A name the file already uses in its new spelling gets a 'The' prefix."""
import re, subprocess, sys, collections
warn=re.compile(r"^([^:]+):(\d+):(\d+): warning: invalid case style for \w+ '(\w+)'")
items=collections.defaultdict(list)
for l in open(sys.argv[1]):
    m=warn.match(l)
    if m: items[m[1]].append((int(m[2]),int(m[3]),m[4]))
def camel(n):
    parts=[p for p in n.split('_') if p]
    return ''.join(p[0].upper()+p[1:] for p in parts)
ok=fail=0
for f,its in items.items():
    data=open(f,'rb').read()
    lines=data.split(b'\n')
    offs=[]
    for (ln,col,name) in its:
        off=sum(len(x)+1 for x in lines[:ln-1])+col-1
        assert data[off:off+len(name)]==name.encode(),(f,ln,col,name)
        offs.append((off,name))
    offs.sort(reverse=True)
    for off,name in offs:
        new=camel(name)
        txt=open(f).read()
        if re.search(r'\b'+new+r'\b',txt) or new in ('Expected','Error','Twine','StringRef','Optional','Module','Info','Stack','Name','Text','Size','Out','Value','Kind','Type'):
            new='The'+new
            if re.search(r'\b'+new+r'\b',txt): new=new+'Val'
        pdir='build/naming-python' if f.startswith('python/') else 'build'
        r=subprocess.run(['clang-rename-14','-offset=%d'%off,'-new-name='+new,'-i','-p',pdir,f],capture_output=True,text=True)
        if r.returncode: fail+=1; print('FAIL',f,off,name,r.stderr[:300])
        else: ok+=1; print(f,name,'->',new)
print('naming-rename-left: %d renamed, %d failed' % (ok, fail))
sys.exit(1 if fail else 0)
