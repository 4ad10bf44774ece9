//===- StackCHeaderEmitter.cpp - Stack PTX C99 header ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// -gen-stack-c-header: a self-contained C99 header for one Stack PTX
/// instruction set, for use with the C API (mmptx-c/StackPtx.h): enums
/// (MMPTX_STACK_TYPE_*, MMPTX_ARG_TYPE_*, MMPTX_PTX_INSTR_*,
/// MMPTX_SPECIAL_REG_*), `static inline` word encoders per instruction,
/// special register and stack, the name and descriptor arrays and one
/// `mmptx_stack_tables_t mmptx_stack_tables` to pass to mmptx_stack_compile. No
/// designated initialisers or compiler extensions are used.
///
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "StackRecords.h"

#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;
using namespace mmptx;

namespace {

class StackCHeaderEmitter {
public:
  explicit StackCHeaderEmitter(RecordKeeper &records) : recs(records) {}
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
    os << "  0,\n";
  os << "};\n";
}

void StackCHeaderEmitter::emitEnums(raw_ostream &os) {
  os << "typedef enum mmptx_stack_type {\n";
  for (unsigned i = 0, e = recs.stackNames.size(); i != e; ++i)
    os << "  MMPTX_STACK_TYPE_"
       << StackRecords::mangle(recs.stackNames[i], true) << " = " << i << ",\n";
  os << "  MMPTX_STACK_TYPE_NUM = " << recs.stackNames.size()
     << "\n} mmptx_stack_type_t;\n\n";
  os << "typedef enum mmptx_stack_arg_type {\n";
  for (unsigned i = 0, e = recs.argTypes.size(); i != e; ++i)
    os << "  MMPTX_ARG_TYPE_"
       << StackRecords::mangle(recs.argTypes[i].name, true) << " = " << i
       << ",\n";
  os << "  MMPTX_ARG_TYPE_NONE = " << recs.argTypes.size()
     << "\n} mmptx_stack_arg_type_t;\n\n";
  os << "typedef enum mmptx_stack_ptx_instr {\n";
  for (unsigned i = 0, e = recs.instrs.size(); i != e; ++i)
    os << "  MMPTX_PTX_INSTR_"
       << StackRecords::mangle(recs.instrs[i].name, true) << " = " << i
       << ",\n";
  os << "  MMPTX_PTX_INSTR_NUM = " << recs.instrs.size()
     << "\n} mmptx_stack_ptx_instr_t;\n\n";
  os << "typedef enum mmptx_stack_special_reg {\n";
  for (unsigned i = 0, e = recs.specials.size(); i != e; ++i)
    os << "  MMPTX_SPECIAL_REG_"
       << StackRecords::mangle(recs.specials[i].name, true) << " = " << i
       << ",\n";
  os << "  MMPTX_SPECIAL_REG_NUM = " << recs.specials.size()
     << "\n} mmptx_stack_special_reg_t;\n\n";
}

void StackCHeaderEmitter::emitEncoders(raw_ostream &os) {
  for (const StackInstr &in : recs.instrs)
    os << "static inline uint64_t mmptx_stack_encode_ptx_"
       << StackRecords::mangle(in.name, false)
       << "(void) { return mmptx_stack_encode_ptx(MMPTX_PTX_INSTR_"
       << StackRecords::mangle(in.name, true) << "); }\n";
  for (const StackSpecial &sp : recs.specials)
    os << "static inline uint64_t mmptx_stack_encode_special_"
       << StackRecords::mangle(sp.name, false)
       << "(void) { return mmptx_stack_encode_special(MMPTX_SPECIAL_REG_"
       << StackRecords::mangle(sp.name, true) << "); }\n";
  for (unsigned i = 0, e = recs.stackNames.size(); i != e; ++i) {
    StringRef cty = recs.getConstantCType(i);
    std::string lower = StackRecords::mangle(recs.stackNames[i], false);
    std::string upper = StackRecords::mangle(recs.stackNames[i], true);
    os << "static inline uint64_t mmptx_stack_encode_constant_" << lower << "("
       << cty << " v) {\n";
    if (cty == "float")
      os << "  uint32_t bits;\n  memcpy(&bits, &v, sizeof bits);\n";
    else
      os << "  uint32_t bits = (uint32_t)v;\n";
    os << "  return mmptx_stack_encode_constant(MMPTX_STACK_TYPE_" << upper
       << ", bits);\n}\n";
  }
  os << "\n";
}

void StackCHeaderEmitter::emitTables(raw_ostream &os) {
  emitStringArray(os, "mmptx_stack_type_names", recs.stackNames);
  emitStringArray(os, "mmptx_stack_literal_prefixes", recs.literalPrefixes);
  os << "static const uint8_t mmptx_stack_inline_literals[] = {";
  for (unsigned i = 0, e = recs.inlineLiterals.size(); i != e; ++i)
    os << (i ? ", " : "") << unsigned(recs.inlineLiterals[i]);
  if (recs.inlineLiterals.empty())
    os << "1";
  os << "};\n";
  std::vector<std::string> strs;
  os << "static const mmptx_stack_arg_type_info_t mmptx_stack_arg_types[] = "
        "{\n";
  for (const StackArgType &a : recs.argTypes) {
    os << "  {" << a.stack << ", " << a.numVecElems << "}, /* " << a.name
       << " */\n";
    strs.push_back(a.name);
  }
  if (recs.argTypes.empty())
    os << "  {0, 0},\n";
  os << "};\n";
  emitStringArray(os, "mmptx_stack_arg_type_names", strs);
  unsigned none = recs.argTypes.size();
  os << "static const mmptx_stack_instr_desc_t mmptx_stack_instr_descs[] = {\n";
  for (const StackInstr &in : recs.instrs) {
    os << "  {{";
    for (unsigned i = 0; i != 4; ++i)
      os << (i ? ", " : "") << (i < in.args.size() ? in.args[i] : none);
    os << "}, {";
    for (unsigned i = 0; i != 2; ++i)
      os << (i ? ", " : "") << (i < in.rets.size() ? in.rets[i] : none);
    os << "}, " << in.args.size() << ", " << in.rets.size() << "}, /* "
       << in.name << " */\n";
  }
  if (recs.instrs.empty())
    os << "  {{0, 0, 0, 0}, {0, 0}, 0, 0},\n";
  os << "};\n";
  strs.clear();
  for (const StackInstr &in : recs.instrs)
    strs.push_back(in.ptx);
  emitStringArray(os, "mmptx_stack_instr_ptx", strs);
  strs.clear();
  for (const StackInstr &in : recs.instrs)
    strs.push_back(in.name);
  emitStringArray(os, "mmptx_stack_instr_names", strs);
  os << "static const mmptx_stack_special_desc_t mmptx_stack_special_descs[] = "
        "{\n";
  for (const StackSpecial &sp : recs.specials)
    os << "  {" << sp.argType << "}, /* " << sp.name << " */\n";
  if (recs.specials.empty())
    os << "  {0},\n";
  os << "};\n";
  strs.clear();
  for (const StackSpecial &sp : recs.specials)
    strs.push_back(sp.ptx);
  emitStringArray(os, "mmptx_stack_special_ptx", strs);
  strs.clear();
  for (const StackSpecial &sp : recs.specials)
    strs.push_back(sp.name);
  emitStringArray(os, "mmptx_stack_special_names", strs);
  recs.emitMinSmArrays(os, "mmptx_stack_instr_min_sm",
                       "mmptx_stack_special_min_sm");
  os << "static const mmptx_stack_tables_t mmptx_stack_tables = {\n"
     << "  " << recs.stackNames.size()
     << ", mmptx_stack_type_names, mmptx_stack_literal_prefixes,\n"
     << "  " << recs.argTypes.size()
     << ", mmptx_stack_arg_types, mmptx_stack_arg_type_names,\n"
     << "  " << recs.instrs.size()
     << ", mmptx_stack_instr_descs, mmptx_stack_instr_ptx, "
        "mmptx_stack_instr_names,\n"
     << "  " << recs.specials.size()
     << ", mmptx_stack_special_descs, mmptx_stack_special_ptx, "
        "mmptx_stack_special_names,\n  mmptx_stack_inline_literals, "
        "mmptx_stack_instr_min_sm, mmptx_stack_special_min_sm\n};\n\n";
}

void StackCHeaderEmitter::run(raw_ostream &os) {
  emitSourceFileHeader("Stack PTX instruction tables (C99)", os);
  os << "#ifndef MMPTX_STACK_TABLES_H\n#define MMPTX_STACK_TABLES_H\n\n"
     << "#include <stdint.h>\n#include <string.h>\n\n"
     << "#include \"mmptx-c/StackPtx.h\"\n\n";
  emitEnums(os);
  emitEncoders(os);
  emitTables(os);
  os << "#endif /* MMPTX_STACK_TABLES_H */\n";
}

void mmptx::emitStackCHeader(RecordKeeper &records, raw_ostream &os) {
  StackCHeaderEmitter(records).run(os);
}
