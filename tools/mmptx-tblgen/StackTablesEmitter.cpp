//===- StackTablesEmitter.cpp - Stack PTX tables, C and C++ ---------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one emitter of the Stack PTX tables of a .td file, in two views that
/// differ only in spelling (StackView):
///
/// -gen-stack-tables: C++, in three sections meant to be included inside
/// the consumer's namespace after "mmptx/Stack/StackInfo.h":
///
///   GET_STACK_ENUMS     enum class StackType, ArgType, PtxInstr, SpecialReg
///   GET_STACK_ENCODERS  constexpr word encoders taking those enums
///   GET_STACK_TABLES    the name/descriptor arrays and `stackInfo`
///
/// -gen-stack-c-header: a self-contained C99 header for the C API
/// (mmptx-c/StackPtx.h): enums (MMPTX_STACK_TYPE_*, MMPTX_ARG_TYPE_*,
/// MMPTX_PTX_INSTR_*, MMPTX_SPECIAL_REG_*), `static inline` word encoders
/// per instruction, special register and stack, the same arrays and one
/// `mmptx_stack_tables_t mmptx_stack_tables`. No designated initialisers or
/// compiler extensions are used.
///
/// Everything is numbered in definition order. The arrays and the tables
/// struct have the same layout in both views (lib/CAPI/StackTables.h checks
/// it), so they are written once, by emitTables, for either.
///
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "StackRecords.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;
using namespace mmptx;

namespace {

/// How one view spells the tables.
struct StackView {
  bool IsC;
  /// Null pointer and comment syntax.
  StringRef Null, CommentOpen, CommentClose;
  /// The descriptor types and the tables struct.
  StringRef ArgTypeInfo, InstrDesc, SpecialDesc, Tables, TablesName;
  StringRef Indent; ///< of the tables struct's lines

  /// \returns the name of table \p Name (`TypeNames`): `StackTypeNames` in
  /// C++, `mmptx_stack_type_names` in C.
  std::string getArray(StringRef Name) const {
    return IsC ? "mmptx_stack_" + convertToSnakeFromCamelCase(Name)
               : ("Stack" + Name).str();
  }
  /// \returns \p Text as a trailing comment.
  std::string comment(StringRef Text) const {
    return (" " + CommentOpen + Text + CommentClose).str();
  }
};

const StackView CView = {true,
                         "0",
                         "/* ",
                         " */",
                         "mmptx_stack_arg_type_info_t",
                         "mmptx_stack_instr_desc_t",
                         "mmptx_stack_special_desc_t",
                         "mmptx_stack_tables_t",
                         "mmptx_stack_tables",
                         "  "};
const StackView CppView = {false,
                           "nullptr",
                           "// ",
                           "",
                           "::mmptx::expr::ArgTypeInfo",
                           "::mmptx::expr::PtxInstrDesc",
                           "::mmptx::expr::SpecialRegDesc",
                           "::mmptx::expr::InstrSet",
                           "stackInfo",
                           "    "};

/// One enum of the tables: its members, the C++ and C spellings.
struct StackEnum {
  StringRef CppName, CppBase; ///< `enum class StackType : uint16_t`
  StringRef CppCount;         ///< `constexpr uint32_t NumStackTypes`, or ""
  StringRef CName;            ///< `mmptx_stack_type`
  StringRef CPrefix;          ///< `MMPTX_STACK_TYPE_`
  StringRef CLast;            ///< the count member: `NUM` or `NONE`
  bool CppNone;               ///< C++ has the `NONE` member too
  bool CppMangle;             ///< C++ members are mangled names
};

class StackTablesEmitter {
public:
  StackTablesEmitter(RecordKeeper &Records, const StackView &View)
      : Recs(Records), View(View) {}
  void run(raw_ostream &OS);

private:
  void emitEnum(raw_ostream &OS, const StackEnum &E,
                ArrayRef<std::string> Names, ArrayRef<std::string> Comments);
  void emitEnums(raw_ostream &OS);
  void emitCppEncoders(raw_ostream &OS);
  void emitCEncoders(raw_ostream &OS);
  void emitStringArray(raw_ostream &OS, StringRef Name,
                       ArrayRef<std::string> Strs);
  /// Writes the string array \p Name of field \p Field of \p Items.
  template <typename T>
  void emitFieldArray(raw_ostream &OS, StringRef Name, ArrayRef<T> Items,
                      std::string T::*Field) {
    std::vector<std::string> Strs;
    for (const T &Item : Items)
      Strs.push_back(Item.*Field);
    emitStringArray(OS, Name, Strs);
  }
  void emitTables(raw_ostream &OS);

  StackRecords Recs;
  const StackView &View;
};

} // namespace

void StackTablesEmitter::emitEnum(raw_ostream &OS, const StackEnum &E,
                                  ArrayRef<std::string> Names,
                                  ArrayRef<std::string> Comments) {
  if (View.IsC)
    OS << "typedef enum " << E.CName << " {\n";
  else
    OS << "enum class " << E.CppName << " : " << E.CppBase << " {\n";
  for (unsigned I = 0, N = Names.size(); I != N; ++I) {
    if (View.IsC)
      OS << "  " << E.CPrefix << StackRecords::mangle(Names[I], true);
    else
      OS << "  "
         << (E.CppMangle ? StackRecords::mangle(Names[I], true) : Names[I]);
    OS << " = " << I << ",";
    if (!View.IsC && !Comments.empty())
      OS << View.comment(Comments[I]);
    OS << "\n";
  }
  if (View.IsC) {
    OS << "  " << E.CPrefix << E.CLast << " = " << Names.size() << "\n} "
       << E.CName << "_t;\n\n";
    return;
  }
  if (E.CppNone)
    OS << "  NONE = " << Names.size() << ",\n";
  OS << "};\n";
  if (!E.CppCount.empty())
    OS << "constexpr uint32_t " << E.CppCount << " = " << Names.size() << ";\n";
}

void StackTablesEmitter::emitEnums(raw_ostream &OS) {
  std::vector<std::string> ArgNames, InstrNames, InstrPtx, SpecialNames;
  for (const StackArgType &A : Recs.ArgTypes)
    ArgNames.push_back(A.Name);
  for (const StackInstr &In : Recs.Instrs) {
    InstrNames.push_back(In.Name);
    InstrPtx.push_back(In.Ptx);
  }
  for (const StackSpecial &Sp : Recs.Specials)
    SpecialNames.push_back(Sp.Name);
  static const StackEnum StackTypes = {
      "StackType",         "uint16_t", "NumStackTypes", "mmptx_stack_type",
      "MMPTX_STACK_TYPE_", "NUM",      false,           false};
  static const StackEnum ArgTypes = {
      "ArgType",         "uint16_t", "",   "mmptx_stack_arg_type",
      "MMPTX_ARG_TYPE_", "NONE",     true, false};
  static const StackEnum Instrs = {
      "PtxInstr",         "uint32_t", "NumPtxInstrs", "mmptx_stack_ptx_instr",
      "MMPTX_PTX_INSTR_", "NUM",      false,          true};
  static const StackEnum Specials = {"SpecialReg",
                                     "uint32_t",
                                     "NumSpecialRegs",
                                     "mmptx_stack_special_reg",
                                     "MMPTX_SPECIAL_REG_",
                                     "NUM",
                                     false,
                                     true};
  if (!View.IsC)
    OS << "#ifdef GET_STACK_ENUMS\n#undef GET_STACK_ENUMS\n";
  emitEnum(OS, StackTypes, Recs.StackNames, {});
  if (!View.IsC)
    OS << "\n";
  emitEnum(OS, ArgTypes, ArgNames, {});
  if (!View.IsC)
    OS << "\n";
  emitEnum(OS, Instrs, InstrNames, InstrPtx);
  if (!View.IsC)
    OS << "\n";
  emitEnum(OS, Specials, SpecialNames, {});
  if (!View.IsC)
    OS << "#endif // GET_STACK_ENUMS\n\n";
}

void StackTablesEmitter::emitCppEncoders(raw_ostream &OS) {
  OS << "#ifdef GET_STACK_ENCODERS\n#undef GET_STACK_ENCODERS\n";
  OS << "constexpr uint64_t encodePtx(PtxInstr i) {\n"
        "  return ::mmptx::stack::encodePtx(uint32_t(i));\n}\n"
        "constexpr uint64_t encodeSpecial(SpecialReg r) {\n"
        "  return ::mmptx::stack::encodeSpecial(uint32_t(r));\n}\n"
        "constexpr uint64_t encodeConstant(StackType s, uint32_t bits) {\n"
        "  return ::mmptx::stack::encodeConstant(uint16_t(s), bits);\n}\n"
        "constexpr uint64_t encodeStore(StackType s, uint32_t slot) {\n"
        "  return ::mmptx::stack::encodeStore(uint16_t(s), slot);\n}\n"
        "constexpr uint64_t encodeMeta(StackType s, "
        "::mmptx::stack::MetaOp op) {\n"
        "  return ::mmptx::stack::encodeMeta(uint16_t(s), op);\n}\n";
  static const char *const MetaOps[] = {"Dup",      "YankDup", "Swap",
                                        "SwapWith", "Replace", "Drop",
                                        "Clear",    "Rotate",  "Reverse"};
  for (const char *Op : MetaOps)
    OS << "constexpr uint64_t encode" << Op << "(StackType s) {\n"
       << "  return encodeMeta(s, ::mmptx::stack::MetaOp::" << Op << ");\n}\n";
  for (unsigned I = 0, E = Recs.StackNames.size(); I != E; ++I) {
    StringRef CType = Recs.getConstantCType(I);
    OS << "constexpr uint64_t encodeConstant" << Recs.StackNames[I] << "("
       << CType
       << " v) {\n  return encodeConstant(StackType::" << Recs.StackNames[I]
       << ", ";
    if (CType == "float")
      OS << "__builtin_bit_cast(uint32_t, v)";
    else
      OS << "uint32_t(v)";
    OS << ");\n}\n";
  }
  OS << "#endif // GET_STACK_ENCODERS\n\n";
}

void StackTablesEmitter::emitCEncoders(raw_ostream &OS) {
  for (const StackInstr &In : Recs.Instrs)
    OS << "static inline uint64_t mmptx_stack_encode_ptx_"
       << StackRecords::mangle(In.Name, false)
       << "(void) { return mmptx_stack_encode_ptx(MMPTX_PTX_INSTR_"
       << StackRecords::mangle(In.Name, true) << "); }\n";
  for (const StackSpecial &Sp : Recs.Specials)
    OS << "static inline uint64_t mmptx_stack_encode_special_"
       << StackRecords::mangle(Sp.Name, false)
       << "(void) { return mmptx_stack_encode_special(MMPTX_SPECIAL_REG_"
       << StackRecords::mangle(Sp.Name, true) << "); }\n";
  for (unsigned I = 0, E = Recs.StackNames.size(); I != E; ++I) {
    StringRef CType = Recs.getConstantCType(I);
    OS << "static inline uint64_t mmptx_stack_encode_constant_"
       << StackRecords::mangle(Recs.StackNames[I], false) << "(" << CType
       << " v) {\n";
    if (CType == "float")
      OS << "  uint32_t bits;\n  memcpy(&bits, &v, sizeof bits);\n";
    else
      OS << "  uint32_t bits = (uint32_t)v;\n";
    OS << "  return mmptx_stack_encode_constant(MMPTX_STACK_TYPE_"
       << StackRecords::mangle(Recs.StackNames[I], true) << ", bits);\n}\n";
  }
  OS << "\n";
}

void StackTablesEmitter::emitStringArray(raw_ostream &OS, StringRef Name,
                                         ArrayRef<std::string> Strs) {
  OS << "static const char *const " << View.getArray(Name) << "[] = {\n";
  for (const std::string &S : Strs)
    OS << "  \"" << S << "\",\n";
  if (Strs.empty())
    OS << "  " << View.Null << ",\n";
  OS << "};\n";
}

void StackTablesEmitter::emitTables(raw_ostream &OS) {
  if (!View.IsC)
    OS << "#ifdef GET_STACK_TABLES\n#undef GET_STACK_TABLES\n";
  emitStringArray(OS, "TypeNames", Recs.StackNames);
  emitStringArray(OS, "LiteralPrefixes", Recs.LiteralPrefixes);
  OS << "static const uint8_t " << View.getArray("InlineLiterals") << "[] = {";
  for (unsigned I = 0, E = Recs.InlineLiterals.size(); I != E; ++I)
    OS << (I ? ", " : "") << unsigned(Recs.InlineLiterals[I]);
  if (Recs.InlineLiterals.empty())
    OS << "1";
  OS << "};\n";

  OS << "static const " << View.ArgTypeInfo << " " << View.getArray("ArgTypes")
     << "[] = {\n";
  for (const StackArgType &A : Recs.ArgTypes)
    OS << "  {" << A.Stack << ", " << A.NumVecElems << "},"
       << View.comment(A.Name) << "\n";
  if (Recs.ArgTypes.empty())
    OS << "  {0, 0},\n";
  OS << "};\n";
  emitFieldArray(OS, "ArgTypeNames", makeArrayRef(Recs.ArgTypes),
                 &StackArgType::Name);

  unsigned None = Recs.ArgTypes.size();
  OS << "static const " << View.InstrDesc << " " << View.getArray("InstrDescs")
     << "[] = {\n";
  for (const StackInstr &In : Recs.Instrs) {
    OS << "  {{";
    for (unsigned I = 0; I != 4; ++I)
      OS << (I ? ", " : "") << (I < In.Args.size() ? In.Args[I] : None);
    OS << "}, {";
    for (unsigned I = 0; I != 2; ++I)
      OS << (I ? ", " : "") << (I < In.Rets.size() ? In.Rets[I] : None);
    OS << "}, " << In.Args.size() << ", " << In.Rets.size() << "},"
       << View.comment(In.Name) << "\n";
  }
  if (Recs.Instrs.empty())
    OS << "  {{0, 0, 0, 0}, {0, 0}, 0, 0},\n";
  OS << "};\n";
  emitFieldArray(OS, "InstrPtx", makeArrayRef(Recs.Instrs), &StackInstr::Ptx);
  emitFieldArray(OS, "InstrNames", makeArrayRef(Recs.Instrs),
                 &StackInstr::Name);

  OS << "static const " << View.SpecialDesc << " "
     << View.getArray("SpecialDescs") << "[] = {\n";
  for (const StackSpecial &Sp : Recs.Specials)
    OS << "  {" << Sp.ArgType << "}," << View.comment(Sp.Name) << "\n";
  if (Recs.Specials.empty())
    OS << "  {0},\n";
  OS << "};\n";
  emitFieldArray(OS, "SpecialPtx", makeArrayRef(Recs.Specials),
                 &StackSpecial::Ptx);
  emitFieldArray(OS, "SpecialNames", makeArrayRef(Recs.Specials),
                 &StackSpecial::Name);
  Recs.emitMinSmArrays(OS, View.getArray("InstrMinSm"),
                       View.getArray("SpecialMinSm"));

  // The struct's fields, in the order both views declare them.
  auto A = [&](StringRef Name) { return View.getArray(Name); };
  OS << "static const " << View.Tables << " " << View.TablesName << " = {\n"
     << View.Indent << Recs.StackNames.size() << ", " << A("TypeNames") << ", "
     << A("LiteralPrefixes") << ",\n"
     << View.Indent << Recs.ArgTypes.size() << ", " << A("ArgTypes") << ", "
     << A("ArgTypeNames") << ",\n"
     << View.Indent << Recs.Instrs.size() << ", " << A("InstrDescs") << ", "
     << A("InstrPtx") << ", " << A("InstrNames") << ",\n"
     << View.Indent << Recs.Specials.size() << ", " << A("SpecialDescs") << ", "
     << A("SpecialPtx") << ", " << A("SpecialNames") << ",\n"
     << View.Indent << A("InlineLiterals") << ", " << A("InstrMinSm") << ", "
     << A("SpecialMinSm") << "\n};\n";
  if (!View.IsC)
    OS << "#endif // GET_STACK_TABLES\n";
  OS << "\n";
}

void StackTablesEmitter::run(raw_ostream &OS) {
  if (!View.IsC) {
    emitSourceFileHeader("Stack PTX instruction tables", OS);
    emitEnums(OS);
    emitCppEncoders(OS);
    emitTables(OS);
    return;
  }
  emitSourceFileHeader("Stack PTX instruction tables (C99)", OS);
  OS << "#ifndef MMPTX_STACK_TABLES_H\n#define MMPTX_STACK_TABLES_H\n\n"
     << "#include <stdint.h>\n#include <string.h>\n\n"
     << "#include \"mmptx-c/StackPtx.h\"\n\n";
  emitEnums(OS);
  emitCEncoders(OS);
  emitTables(OS);
  OS << "#endif /* MMPTX_STACK_TABLES_H */\n";
}

void mmptx::emitStackTables(RecordKeeper &Records, raw_ostream &OS) {
  StackTablesEmitter(Records, CppView).run(OS);
}

void mmptx::emitStackCHeader(RecordKeeper &Records, raw_ostream &OS) {
  StackTablesEmitter(Records, CView).run(OS);
}
