// RUN: not mmptx-tblgen -gen-inject-types -I %S/../../td -DERR_CONSTRAINT %s 2>&1 | FileCheck %s --check-prefix=CONSTRAINT
// RUN: not mmptx-tblgen -gen-inject-types -I %S/../../td -DERR_REGTYPE %s 2>&1 | FileCheck %s --check-prefix=REGTYPE
// RUN: not mmptx-tblgen -gen-inject-types -I %S/../../td -DERR_BITS %s 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: not mmptx-tblgen -gen-inject-types -I %S/../../td -DERR_DUP %s 2>&1 | FileCheck %s --check-prefix=DUP
// RUN: not mmptx-tblgen -gen-inject-types -I %S/../../td -DERR_TOKEN %s 2>&1 | FileCheck %s --check-prefix=TOKEN
// RUN: not mmptx-tblgen -gen-inject-types -I %S/../../td -DERR_SYNTAX %s 2>&1 | FileCheck %s --check-prefix=SYNTAX

include "InjectBase.td"

#ifdef ERR_CONSTRAINT
// CONSTRAINT: inject-types-invalid.td:[[@LINE+1]]:1: error: inline-asm constraint 'q' of inject type 'BAD' must be one of h, r, l, f, d
def BAD : InjectType<"BAD", "f32", "f32", "q", BindValue>;
#endif

#ifdef ERR_REGTYPE
// REGTYPE: inject-types-invalid.td:[[@LINE+1]]:1: error: unknown PTX register type 'f33' for inject type 'BAD'
def BAD : InjectType<"BAD", "f33", "f32", "f", BindValue>;
#endif

#ifdef ERR_BITS
// BITS: inject-types-invalid.td:[[@LINE+1]]:1: error: constraint 'h' binds 16 bits but register type 'f32' has 32
def BAD : InjectType<"BAD", "f32", "f32", "h", BindValue>;
#endif

#ifdef ERR_DUP
def ONE : InjectType<"SAME", "f32", "f32", "f", BindValue>;
// DUP: inject-types-invalid.td:[[@LINE+1]]:1: error: duplicate inject type token 'SAME'
def TWO : InjectType<"SAME", "u32", "u32", "r", BindValue>;
#endif

#ifdef ERR_TOKEN
// TOKEN: inject-types-invalid.td:[[@LINE+1]]:1: error: inject type token 'not ok' is not a C identifier
def BAD : InjectType<"not ok", "f32", "f32", "f", BindValue>;
#endif

#ifdef ERR_SYNTAX
// SYNTAX: inject-types-invalid.td:[[@LINE+1]]:46: error: Variable not defined: 'NoSuchBind'
def BAD : InjectType<"X", "f32", "f32", "f", NoSuchBind>;
#endif
