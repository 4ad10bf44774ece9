// RUN: mmptx-tblgen -gen-inject-device-format -I %S/../../td %S/../../td/InjectTypes.td | FileCheck %s

// The device header's site format: each line written by the scaffold
// writers of InjectFormat.h with macro parameters in place of values.
// CHECK: #define MMPTX_FMT_DECL_(reg, i) ".reg ." reg " %%_x" MMPTX_FMT_STR_(i) ";\n\t"
// CHECK: #define MMPTX_FMT_MOVIN_(mov, i, op) "mov." mov " %%_x" MMPTX_FMT_STR_(i) ", %" MMPTX_FMT_STR_(op) ";\n\t"
// CHECK: #define MMPTX_FMT_MOVOUT_(mov, i, op) "mov." mov " %" MMPTX_FMT_STR_(op) ", %%_x" MMPTX_FMT_STR_(i) ";\n\t"
// CHECK: #define MMPTX_FMT_BEGIN_(name, n) "// MMPTX_INJECT_BEGIN " name " " MMPTX_FMT_STR_(n) "\n\t"
// CHECK: #define MMPTX_FMT_ARG_(i, kind, reg, T, label) "// MMPTX_INJECT_ARG " MMPTX_FMT_STR_(i) " " kind " " reg " " T " " label "\n\t"
// CHECK: #define MMPTX_FMT_END_(name) "// MMPTX_INJECT_END " name "\n\t"
// In variables are only moved in, out variables only out.
// CHECK: #define MMPTX_FMT_KIND_mmptx_in "in"
// CHECK-NEXT: #define MMPTX_FMT_MOVIN_mmptx_in(mov, i, op) MMPTX_FMT_MOVIN_(mov, i, op)
// CHECK-NEXT: #define MMPTX_FMT_MOVOUT_mmptx_in(mov, i, op){{$}}
// CHECK: #define MMPTX_FMT_KIND_mmptx_out "out"
// CHECK-NEXT: #define MMPTX_FMT_MOVIN_mmptx_out(mov, i, op){{$}}
// CHECK: #define MMPTX_FMT_SITE_(name, n, decls, movins, args, movouts) "{\n\t" decls movins MMPTX_FMT_BEGIN_(name, n) args MMPTX_FMT_END_(name) movouts "}"
