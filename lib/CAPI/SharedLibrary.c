/*===- SharedLibrary.c - libmmptx-c.so ------------------------------------===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
|* The shared C library is the PTX Inject and Stack PTX C API archives linked *|
|* whole (CMake needs one source of its own for it); mmptx-c.map exports the  *|
|* mmptx_* functions only.                                                    *|
\*===----------------------------------------------------------------------===*/

#include "mmptx-c/PtxInject.h"
#include "mmptx-c/StackPtx.h"

/* The version, findable with `strings libmmptx-c.so | grep mmptx-c`. */
__attribute__((used)) static const char Version[] =
    "mmptx-c " MMPTX_VERSION_STRING;
