/*===- CAPITestModules.h - PTX modules of the C API tests ---------*- C -*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MMPTX_UNITTESTS_CAPI_CAPITESTMODULES_H
#define MMPTX_UNITTESTS_CAPI_CAPITESTMODULES_H

/* A whole module with one legacy site: inject 'f', variable 'acc'. */
static const char kModule[] = ".version 9.0\n"
                              ".target sm_80\n"
                              ".entry k()\n"
                              "{\n"
                              "\t.reg .f32 %f<2>;\n"
                              "\t// PTX_INJECT_START f\n"
                              "\t// %f1 mod f32 acc\n"
                              "\t// PTX_INJECT_END\n"
                              "\tret;\n"
                              "}\n";

#endif /* MMPTX_UNITTESTS_CAPI_CAPITESTMODULES_H */
