//===- InjectFormat.h - The inject-site format ------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one description of a normalised inject site, shared by everything
/// that writes one: the CUDA source rewriter (as inline asm), the device
/// header (its line macros are generated from the writers below by
/// mmptx-tblgen -gen-inject-device-format), the normalize pass, render and
/// stub-gen (as PTX):
///
///   {
///   .reg .<regtype> %_x<i>;                 one per variable
///   mov.<movsuffix> %_x<i>, <outer>;        in and mod variables
///   // MMPTX_INJECT_BEGIN <name> <n>        markers (or the stub)
///   // MMPTX_INJECT_ARG <i> <kind> <regtype> <TYPE> <label>
///   // MMPTX_INJECT_END <name>
///   mov.<movsuffix> <outer>, %_x<i>;        mod and out variables
///   }
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_INJECT_INJECTFORMAT_H
#define MMPTX_INJECT_INJECTFORMAT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>

namespace mmptx {

/// How a site variable is used by the stub. The C API has its own
/// numbering (mmptx_arg_kind_t).
enum class InjectArgKind : uint8_t { Out = 0, Mod = 1, In = 2 };

/// \returns "out", "mod" or "in": the spelling in markers and messages.
llvm::StringRef getInjectArgKindName(InjectArgKind Kind);

/// How the device header and the annotate rewriter bind a C++ expression to
/// its asm operand.
enum class InjectBind : uint8_t {
  Value, ///< `(expr)`
  U16,   ///< storage reinterpreted as unsigned short
  U32,   ///< storage reinterpreted as unsigned int
  U64,   ///< storage reinterpreted as unsigned long long
};

/// An inject type: how a C++ value reaches a PTX register. The one model of
/// a type for every layer: the built-in ones come from td/InjectTypes.td
/// (getBuiltinInjectTypes), a user's from their own .td through the header
/// mmptx-tblgen makes of it, or from the C API.
struct InjectType {
  llvm::StringRef TheToken;  ///< `F32`: the name in markers and annotations
  llvm::StringRef RegType;   ///< `f32`: type of the stable register
  llvm::StringRef MovSuffix; ///< `f32`: suffix of the scaffold's `mov`s
  char Constraint = 'r';     ///< inline-asm constraint letter
  unsigned Bits = 32;        ///< size of the register
  InjectBind Bind = InjectBind::Value;
};

/// \returns the inject types generated from td/InjectTypes.td.
llvm::ArrayRef<InjectType> getBuiltinInjectTypes();

/// The stable register of variable i is `%_x<i>`: this prefix and i.
constexpr llvm::StringLiteral StableRegisterPrefix = "_x";

/// One variable of a site, as a scaffold writer needs it.
struct ScaffoldVar {
  InjectArgKind Kind;
  llvm::StringRef RegType;   ///< `f32`: type of the stable register
  llvm::StringRef MovSuffix; ///< `f32`: suffix of the scaffold's `mov`s
  llvm::StringRef TypeToken; ///< `F32`
  llvm::StringRef Label;     ///< the variable's name in the markers
  /// The value outside the site: a compiler register (`%f1`) or an asm
  /// operand (`%0`).
  llvm::StringRef Outer;
};

/// The sections of a scaffold, in the order writeSiteScaffold writes them.
/// Markers are the begin marker, one arg marker per variable and the end
/// marker.
enum class ScaffoldSection : uint8_t {
  Decls,
  MovesIn,
  Markers,
  Stub,
  MovesOut
};

/// \returns the sections of a scaffold in order.
llvm::ArrayRef<ScaffoldSection> getScaffoldSections();

/// \returns true if a variable of kind \p Kind is moved into its stable
/// register before the stub (in, mod) / out of it after the stub (mod, out).
bool scaffoldMovesIn(InjectArgKind Kind);
bool scaffoldMovesOut(InjectArgKind Kind);

/// Receives one line of a scaffold, without indentation or newline.
using ScaffoldLineFn = llvm::function_ref<void(const llvm::Twine &)>;

/// The lines of a scaffold, one function each. The parts are Twines so that
/// a writer may pass placeholders rather than values: the device-header
/// backend of mmptx-tblgen passes macro parameters, so that the CUDA header
/// writes exactly these lines. `Stable` names a stable register (`%_x0`)
/// and `Outer` the value outside the site.
void writeScaffoldDecl(const llvm::Twine &RegType, const llvm::Twine &Stable,
                       ScaffoldLineFn Line);
void writeScaffoldMoveIn(const llvm::Twine &MovSuffix,
                         const llvm::Twine &Stable, const llvm::Twine &Outer,
                         ScaffoldLineFn Line);
void writeScaffoldMoveOut(const llvm::Twine &MovSuffix,
                          const llvm::Twine &Outer, const llvm::Twine &Stable,
                          ScaffoldLineFn Line);
void writeBeginMarker(const llvm::Twine &Name, const llvm::Twine &NumVars,
                      ScaffoldLineFn Line);
void writeArgMarker(const llvm::Twine &Index, const llvm::Twine &Kind,
                    const llvm::Twine &RegType, const llvm::Twine &TypeToken,
                    const llvm::Twine &Label, ScaffoldLineFn Line);
void writeEndMarker(const llvm::Twine &Name, ScaffoldLineFn Line);

/// Emits the lines between the braces of a normalised site of inject
/// \p Name, each through \p Line without indentation or newline: the
/// `.reg`s, the `mov`s in, the markers (when \p WithMarkers), then calls
/// \p AtStub where the stub goes, then the `mov`s out. \p StablePrefix
/// spells the stable registers: `%_x` in PTX, `%%_x` in an asm template.
void writeSiteScaffold(llvm::StringRef Name, llvm::ArrayRef<ScaffoldVar> Vars,
                       llvm::StringRef StablePrefix, bool WithMarkers,
                       ScaffoldLineFn Line, llvm::function_ref<void()> AtStub);

} // namespace mmptx

#endif // MMPTX_INJECT_INJECTFORMAT_H
