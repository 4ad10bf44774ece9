/* The module both programs splice a stub into. */
#ifndef MMPTX_EXTERNAL_MODULE_PTX_H
#define MMPTX_EXTERNAL_MODULE_PTX_H

/* A whole module: create checks the structure and the site's scaffold. */
static const char ModulePtx[] = ".version 9.0\n"
                                ".target sm_80\n"
                                ".entry k()\n"
                                "{\n"
                                "\t.reg .f32 %f<3>;\n"
                                "\t{\n"
                                "\t.reg .f32 %_x0;\n"
                                "\t.reg .f32 %_x1;\n"
                                "\tmov.f32 %_x0, %f1;\n"
                                "\tmov.f32 %_x1, %f2;\n"
                                "\t// PTX_INJECT_START f\n"
                                "\t// _x0 m f32 F32 acc\n"
                                "\t// _x1 i f32 F32 v\n"
                                "\t// PTX_INJECT_END\n"
                                "\tmov.f32 %f1, %_x0;\n"
                                "\t}\n"
                                "\tret;\n"
                                "}\n";

#endif
