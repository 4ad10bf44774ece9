//===- StackTableEmitter.cpp - Stack PTX C++ tables -----------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// -gen-stack-tables: C++ for one Stack PTX instruction set, in three
/// sections meant to be included inside the consumer's namespace after
/// "mmptx/Stack/StackInfo.h":
///
///   GET_STACK_ENUMS     enum class StackType, ArgType, PtxInstr, SpecialReg
///   GET_STACK_ENCODERS  constexpr word encoders taking those enums
///   GET_STACK_TABLES    the name/descriptor arrays and `stackInfo`
///
/// Everything is numbered in definition order.
///
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "StackRecords.h"

#include "llvm/Support/Format.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;
using namespace mmptx;

namespace {

class StackTableEmitter {
public:
  explicit StackTableEmitter(RecordKeeper &records) : recs(records) {}
  void run(raw_ostream &os);

private:
  void emitEnums(raw_ostream &os);
  void emitEncoders(raw_ostream &os);
  void emitTables(raw_ostream &os);

  StackRecords recs;
};

} // namespace

static void emitStringArray(raw_ostream &os, StringRef name,
                            ArrayRef<std::string> strs) {
  os << "static const char *const " << name << "[] = {\n";
  for (const std::string &s : strs)
    os << "  \"" << s << "\",\n";
  if (strs.empty())
    os << "  nullptr,\n";
  os << "};\n";
}

void StackTableEmitter::emitEnums(raw_ostream &os) {
  os << "#ifdef GET_STACK_ENUMS\n#undef GET_STACK_ENUMS\n";
  os << "enum class StackType : uint16_t {\n";
  for (unsigned i = 0, e = recs.stackNames.size(); i != e; ++i)
    os << "  " << recs.stackNames[i] << " = " << i << ",\n";
  os << "};\nconstexpr uint32_t NumStackTypes = " << recs.stackNames.size()
     << ";\n\n";
  os << "enum class ArgType : uint16_t {\n";
  for (unsigned i = 0, e = recs.argTypes.size(); i != e; ++i)
    os << "  " << recs.argTypes[i].name << " = " << i << ",\n";
  os << "  NONE = " << recs.argTypes.size() << ",\n};\n\n";
  os << "enum class PtxInstr : uint32_t {\n";
  for (unsigned i = 0, e = recs.instrs.size(); i != e; ++i)
    os << "  " << StackRecords::mangle(recs.instrs[i].name, true) << " = " << i
       << ", // " << recs.instrs[i].ptx << "\n";
  os << "};\nconstexpr uint32_t NumPtxInstrs = " << recs.instrs.size()
     << ";\n\n";
  os << "enum class SpecialReg : uint32_t {\n";
  for (unsigned i = 0, e = recs.specials.size(); i != e; ++i)
    os << "  " << StackRecords::mangle(recs.specials[i].name, true) << " = "
       << i << ",\n";
  os << "};\nconstexpr uint32_t NumSpecialRegs = " << recs.specials.size()
     << ";\n";
  os << "#endif // GET_STACK_ENUMS\n\n";
}

void StackTableEmitter::emitEncoders(raw_ostream &os) {
  os << "#ifdef GET_STACK_ENCODERS\n#undef GET_STACK_ENCODERS\n";
  os << "constexpr uint64_t encodePtx(PtxInstr i) {\n"
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
  static const char *const metaOps[] = {"Dup",      "YankDup", "Swap",
                                        "SwapWith", "Replace", "Drop",
                                        "Clear",    "Rotate",  "Reverse"};
  for (const char *op : metaOps)
    os << "constexpr uint64_t encode" << op << "(StackType s) {\n"
       << "  return encodeMeta(s, ::mmptx::stack::MetaOp::" << op << ");\n}\n";
  for (unsigned i = 0, e = recs.stackNames.size(); i != e; ++i) {
    StringRef cty = recs.getConstantCType(i);
    os << "constexpr uint64_t encodeConstant" << recs.stackNames[i] << "("
       << cty
       << " v) {\n  return encodeConstant(StackType::" << recs.stackNames[i]
       << ", ";
    if (cty == "float")
      os << "__builtin_bit_cast(uint32_t, v)";
    else
      os << "uint32_t(v)";
    os << ");\n}\n";
  }
  os << "#endif // GET_STACK_ENCODERS\n\n";
}

void StackTableEmitter::emitTables(raw_ostream &os) {
  os << "#ifdef GET_STACK_TABLES\n#undef GET_STACK_TABLES\n";
  emitStringArray(os, "StackTypeNames", recs.stackNames);
  emitStringArray(os, "StackLiteralPrefixes", recs.literalPrefixes);
  os << "static const uint8_t StackInlineLiterals[] = {";
  for (unsigned i = 0, e = recs.inlineLiterals.size(); i != e; ++i)
    os << (i ? ", " : "") << unsigned(recs.inlineLiterals[i]);
  if (recs.inlineLiterals.empty())
    os << "1";
  os << "};\n";

  std::vector<std::string> strs;
  os << "static const ::mmptx::stack::ArgTypeInfo StackArgTypes[] = {\n";
  for (const StackArgType &a : recs.argTypes) {
    os << "  {" << a.stack << ", " << a.numVecElems << "}, // " << a.name
       << "\n";
    strs.push_back(a.name);
  }
  if (recs.argTypes.empty())
    os << "  {0, 0},\n";
  os << "};\n";
  emitStringArray(os, "StackArgTypeNames", strs);

  unsigned none = recs.argTypes.size();
  os << "static const ::mmptx::stack::PtxInstrDesc StackInstrDescs[] = {\n";
  for (const StackInstr &in : recs.instrs) {
    os << "  {{";
    for (unsigned i = 0; i != 4; ++i)
      os << (i ? ", " : "") << (i < in.args.size() ? in.args[i] : none);
    os << "}, {";
    for (unsigned i = 0; i != 2; ++i)
      os << (i ? ", " : "") << (i < in.rets.size() ? in.rets[i] : none);
    os << "}, " << in.args.size() << ", " << in.rets.size() << "}, // "
       << in.name << "\n";
  }
  if (recs.instrs.empty())
    os << "  {{0, 0, 0, 0}, {0, 0}, 0, 0},\n";
  os << "};\n";
  strs.clear();
  for (const StackInstr &in : recs.instrs)
    strs.push_back(in.ptx);
  emitStringArray(os, "StackInstrPtx", strs);
  strs.clear();
  for (const StackInstr &in : recs.instrs)
    strs.push_back(in.name);
  emitStringArray(os, "StackInstrNames", strs);

  os << "static const ::mmptx::stack::SpecialRegDesc StackSpecialDescs[] = "
        "{\n";
  for (const StackSpecial &sp : recs.specials)
    os << "  {" << sp.argType << "}, // " << sp.name << "\n";
  if (recs.specials.empty())
    os << "  {0},\n";
  os << "};\n";
  strs.clear();
  for (const StackSpecial &sp : recs.specials)
    strs.push_back(sp.ptx);
  emitStringArray(os, "StackSpecialPtx", strs);
  strs.clear();
  for (const StackSpecial &sp : recs.specials)
    strs.push_back(sp.name);
  emitStringArray(os, "StackSpecialNames", strs);
  recs.emitMinSmArrays(os, "StackInstrMinSm", "StackSpecialMinSm");

  os << "static const ::mmptx::stack::StackInfo stackInfo = {\n"
     << "    " << recs.stackNames.size()
     << ", StackTypeNames, StackLiteralPrefixes,\n"
     << "    " << recs.argTypes.size()
     << ", StackArgTypes, StackArgTypeNames,\n"
     << "    " << recs.instrs.size()
     << ", StackInstrDescs, StackInstrPtx, StackInstrNames,\n"
     << "    " << recs.specials.size()
     << ", StackSpecialDescs, StackSpecialPtx, StackSpecialNames,\n"
     << "    StackInlineLiterals, StackInstrMinSm, StackSpecialMinSm};\n";
  os << "#endif // GET_STACK_TABLES\n\n";
}

void StackTableEmitter::run(raw_ostream &os) {
  emitSourceFileHeader("Stack PTX instruction tables", os);
  emitEnums(os);
  emitEncoders(os);
  emitTables(os);
}

void mmptx::emitStackTables(RecordKeeper &records, raw_ostream &os) {
  StackTableEmitter(records).run(os);
}
