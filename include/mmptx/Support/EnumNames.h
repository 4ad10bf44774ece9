//===- EnumNames.h - Names of enumerators, listed once ----------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An enumeration whose values have names (in options, messages, reports)
/// lists each value with its name once, in a table of EnumName; naming a
/// value, parsing a name and listing the names for a message all read it:
///
///   static const EnumName<ArgType> ArgTypeNames[] = {
///       {ArgType::F32, "f32"}, {ArgType::F64, "f64"}};
///   getEnumName(ArgTypeNames, ArgType::F64)          // "f64"
///   parseEnumName(ArgTypeNames, "f32")               // ArgType::F32
///   listEnumNames(ArgTypeNames)                      // "f32 or f64"
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_SUPPORT_ENUMNAMES_H
#define MMPTX_SUPPORT_ENUMNAMES_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>

namespace mmptx {

/// One enumerator and its name.
template <typename EnumT> struct EnumName {
  EnumT Value;
  const char *Name;
};

/// The name of \p Value in \p Table, or \p Unknown where it has none.
template <typename EnumT, size_t N>
llvm::StringRef getEnumName(const EnumName<EnumT> (&Table)[N], EnumT Value,
                            llvm::StringRef Unknown = "unknown") {
  for (const EnumName<EnumT> &E : Table)
    if (E.Value == Value)
      return E.Name;
  return Unknown;
}

/// The value \p Table names \p Name, or None.
template <typename EnumT, size_t N>
llvm::Optional<EnumT> parseEnumName(const EnumName<EnumT> (&Table)[N],
                                    llvm::StringRef Name) {
  for (const EnumName<EnumT> &E : Table)
    if (Name == E.Name)
      return E.Value;
  return llvm::None;
}

/// The names of \p Table in its order, for a message: `a, b or c`.
template <typename EnumT, size_t N>
std::string listEnumNames(const EnumName<EnumT> (&Table)[N],
                          llvm::StringRef LastSeparator = " or ") {
  std::string Out;
  for (size_t I = 0; I != N; ++I) {
    if (I)
      Out += I + 1 == N ? LastSeparator.str() : std::string(", ");
    Out += Table[I].Name;
  }
  return Out;
}

} // namespace mmptx

#endif // MMPTX_SUPPORT_ENUMNAMES_H
