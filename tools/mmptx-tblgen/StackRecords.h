//===- StackRecords.h - Validated Stack PTX records -------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Collects and validates the StackType, ArgType, PtxInstr and SpecialReg
/// records shared by the -gen-stack-tables and -gen-stack-c-header
/// backends. Bad records are fatal errors located at the record.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_TBLGEN_STACKRECORDS_H
#define MMPTX_TBLGEN_STACKRECORDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
class Record;
class RecordKeeper;
} // namespace llvm

namespace mmptx {

/// One arg type after de-duplication.
struct StackArgType {
  std::string Name;
  unsigned Stack;
  unsigned NumVecElems;
};

/// One PTX instruction with its operands as arg-type indices.
struct StackInstr {
  const llvm::Record *Rec;
  std::string Ptx, Name;
  std::vector<unsigned> Args, Rets;
  unsigned MinSm; ///< lowest sm_XX target; 0 = any
};

/// One special register.
struct StackSpecial {
  std::string Ptx, Name;
  unsigned ArgType; ///< index into StackRecords::ArgTypes
  unsigned MinSm;   ///< lowest sm_XX target; 0 = any
};

/// All Stack PTX records of a .td file, numbered in definition order.
struct StackRecords {
  std::vector<std::string> StackNames, LiteralPrefixes;
  std::vector<bool> InlineLiterals;
  std::vector<StackArgType> ArgTypes;
  std::vector<StackInstr> Instrs;
  std::vector<StackSpecial> Specials;

  /// Reads and validates; exits through PrintFatalError on bad records.
  explicit StackRecords(llvm::RecordKeeper &Records);

  /// \returns \p Name with every non-alphanumeric character replaced by `_`,
  /// upper-cased if \p Upper, else lower-cased.
  static std::string mangle(llvm::StringRef Name, bool Upper);
  /// Writes the `static const uint16_t` MinSm arrays of the instructions
  /// and of the special registers, named \p InstrArray and \p SpecialArray.
  void emitMinSmArrays(llvm::raw_ostream &Os, llvm::StringRef InstrArray,
                       llvm::StringRef SpecialArray) const;
  /// Writes \p Vals as the body of a C array initialiser, 16 a line; a lone
  /// 0 when empty (C has no empty arrays).
  static void emitArrayBody(llvm::raw_ostream &Os,
                            llvm::ArrayRef<unsigned> Vals);
  /// \returns the C type a constant of \p Stack is written in (`float`,
  /// `int32_t` or `uint32_t`).
  llvm::StringRef getConstantCType(unsigned Stack) const;

private:
  unsigned getArgType(const llvm::Record *Owner, const llvm::Record *Arg);
  llvm::DenseMap<const llvm::Record *, unsigned> StackIdx;
};

} // namespace mmptx

#endif // MMPTX_TBLGEN_STACKRECORDS_H
