/*===- python/wheel/NoTerminfo.c - Terminfo for the wheel's extension -----===*\
|*                                                                            *|
|* LLVMSupport asks terminfo whether a terminal has colours (setupterm and    *|
|* tigetnum, for raw_ostream::has_colors). A redistributed wheel cannot       *|
|* depend on the system's libtinfo (the manylinux policies do not allow it)   *|
|* and the static one is not position independent, so the wheel's extension   *|
|* links these four instead: no terminal database, hence no colours, which    *|
|* the extension never prints anyway (its messages become Python             *|
|* exceptions). Hidden: they bind inside the extension only and never stand  *|
|* in for the process's libtinfo.                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define MMPTX_HIDDEN __attribute__((visibility("hidden")))

struct term;

MMPTX_HIDDEN struct term *set_curterm(struct term *Term) {
  (void)Term;
  return 0;
}

MMPTX_HIDDEN int del_curterm(struct term *Term) {
  (void)Term;
  return 0;
}

/* ERR with *ErrRet = -1: "the terminfo database could not be found". */
MMPTX_HIDDEN int setupterm(const char *Name, int Fd, int *ErrRet) {
  (void)Name;
  (void)Fd;
  if (ErrRet)
    *ErrRet = -1;
  return -1;
}

MMPTX_HIDDEN int tigetnum(const char *CapName) {
  (void)CapName;
  return -2;
}
