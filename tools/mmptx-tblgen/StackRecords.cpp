//===- StackRecords.cpp - Validated Stack PTX records ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Validation rules: stack and arg-type names are C identifiers and unique;
/// literal prefixes are PTX register types; vectors have at most 64
/// elements; instructions have at most 4 args and 1 or 2 rets; instruction
/// and special-register names are unique, also after mangling to C
/// identifiers; opcodes contain no blanks, `,` or `;`; MinSm is 0..65535.
///
//===----------------------------------------------------------------------===//

#include "StackRecords.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"

using namespace llvm;
using namespace mmptx;

static bool isIdentifier(StringRef s) {
  if (s.empty() || !(isAlpha(s[0]) || s[0] == '_'))
    return false;
  return all_of(s, [](char c) { return isAlnum(c) || c == '_'; });
}

static bool isRegType(StringRef s) {
  static const char *const types[] = {"b8",  "b16", "b32", "b64",  "u8",  "u16",
                                      "u32", "u64", "s8",  "s16",  "s32", "s64",
                                      "f16", "f32", "f64", "bf16", "pred"};
  return is_contained(types, s);
}

/// \returns the MinSm of \p r, which the tables hold in 16 bits; 0 for a
/// record from a StackBase.td older than the field.
static unsigned getMinSm(const Record *r) {
  if (!r->getValue("MinSm"))
    return 0;
  int64_t v = r->getValueAsInt("MinSm");
  if (v < 0 || v > 65535)
    PrintFatalError(r, "MinSm " + Twine(v) + " is not in 0..65535");
  return unsigned(v);
}

static std::vector<Record *> sortedDefs(RecordKeeper &records, StringRef cls) {
  std::vector<Record *> defs = records.getAllDerivedDefinitions(cls);
  llvm::sort(defs, [](const Record *a, const Record *b) {
    return a->getID() < b->getID();
  });
  return defs;
}

std::string StackRecords::mangle(StringRef name, bool upper) {
  std::string out;
  for (char c : name) {
    if (!isAlnum(c))
      out += '_';
    else
      out += upper ? toUpper(c) : toLower(c);
  }
  if (out.empty() || isDigit(out[0]))
    out.insert(out.begin(), '_');
  return out;
}

void StackRecords::emitMinSmArrays(raw_ostream &os, StringRef instrArray,
                                   StringRef specialArray) const {
  std::vector<unsigned> minSm;
  for (const StackInstr &in : instrs)
    minSm.push_back(in.minSm);
  os << "static const uint16_t " << instrArray << "[] = {";
  emitArrayBody(os, minSm);
  minSm.clear();
  for (const StackSpecial &sp : specials)
    minSm.push_back(sp.minSm);
  os << "};\nstatic const uint16_t " << specialArray << "[] = {";
  emitArrayBody(os, minSm);
  os << "};\n";
}

void StackRecords::emitArrayBody(raw_ostream &os, ArrayRef<unsigned> vals) {
  if (vals.empty()) {
    os << "0";
    return;
  }
  for (size_t i = 0, e = vals.size(); i != e; ++i)
    os << (i == 0 ? "\n  " : i % 16 == 0 ? ",\n  " : ", ") << vals[i];
  os << "\n";
}

StringRef StackRecords::getConstantCType(unsigned stack) const {
  StringRef p = literalPrefixes[stack];
  if (p == "f32" || p == "f64")
    return "float";
  if (p == "s32")
    return "int32_t";
  return "uint32_t";
}

unsigned StackRecords::getArgType(const Record *owner, const Record *arg) {
  StringRef name = arg->getValueAsString("Name");
  const Record *stackRec = arg->getValueAsDef("Stack");
  auto it = stackIdx.find(stackRec);
  if (it == stackIdx.end())
    PrintFatalError(owner, "arg type '" + name + "' uses an unknown stack");
  int64_t vec = arg->getValueAsInt("NumVecElems");
  if (vec < 0 || vec > 64)
    PrintFatalError(owner, "arg type '" + name + "' has " + Twine(vec) +
                               " vector elements; the limit is 64");
  if (!isIdentifier(name))
    PrintFatalError(owner,
                    "arg type name '" + name + "' is not a C identifier");
  for (unsigned i = 0, e = argTypes.size(); i != e; ++i) {
    if (argTypes[i].name != name)
      continue;
    if (argTypes[i].stack != it->second ||
        argTypes[i].numVecElems != unsigned(vec))
      PrintFatalError(owner, "arg type '" + name +
                                 "' is defined twice with different shapes");
    return i;
  }
  argTypes.push_back({name.str(), it->second, unsigned(vec)});
  return argTypes.size() - 1;
}

StackRecords::StackRecords(RecordKeeper &records) {
  StringSet<> seen;
  for (Record *r : sortedDefs(records, "StackType")) {
    StringRef name = r->getValueAsString("Name");
    StringRef prefix = r->getValueAsString("LiteralPrefix");
    if (!isIdentifier(name))
      PrintFatalError(r, "stack name '" + name + "' is not a C identifier");
    if (!seen.insert(name).second)
      PrintFatalError(r, "duplicate stack name '" + name + "'");
    if (!isRegType(prefix))
      PrintFatalError(r, "literal prefix '" + prefix + "' of stack '" + name +
                             "' is not a PTX register type");
    stackIdx[r] = stackNames.size();
    stackNames.push_back(name.str());
    literalPrefixes.push_back(prefix.str());
    inlineLiterals.push_back(r->getValueAsBit("InlineLiterals"));
  }
  if (stackNames.size() > 65535)
    PrintFatalError("more than 65535 stacks");

  for (Record *r : sortedDefs(records, "ArgType"))
    getArgType(r, r);

  StringSet<> names, mangled;
  for (Record *r : sortedDefs(records, "PtxInstr")) {
    StackInstr in;
    in.rec = r;
    in.ptx = r->getValueAsString("Ptx").str();
    in.name = r->getValueAsString("Name").str();
    if (in.ptx.empty() ||
        StringRef(in.ptx).find_first_of(" \t\n,;{}%") != StringRef::npos)
      PrintFatalError(r, "bad PTX opcode '" + in.ptx + "'");
    if (in.name.empty() ||
        StringRef(in.name).find_first_of(" \t\n,;{}()%:/") != StringRef::npos)
      PrintFatalError(r, "bad instruction name '" + in.name + "'");
    if (!names.insert(in.name).second)
      PrintFatalError(r, "duplicate instruction name '" + in.name +
                             "'; set a unique Name with `let Name = ...`");
    if (!mangled.insert(mangle(in.name, true)).second)
      PrintFatalError(r, "instruction name '" + in.name +
                             "' mangles to the identifier of another one");
    std::vector<Record *> args = r->getValueAsListOfDefs("Args");
    std::vector<Record *> rets = r->getValueAsListOfDefs("Rets");
    if (args.size() > 4)
      PrintFatalError(r, "instruction '" + in.name + "' has " +
                             Twine(args.size()) + " args; the limit is 4");
    if (rets.empty() || rets.size() > 2)
      PrintFatalError(r, "instruction '" + in.name + "' has " +
                             Twine(rets.size()) + " rets; it must have 1 or 2");
    for (Record *a : args)
      in.args.push_back(getArgType(r, a));
    for (Record *a : rets)
      in.rets.push_back(getArgType(r, a));
    in.minSm = getMinSm(r);
    instrs.push_back(std::move(in));
  }
  if (argTypes.size() > 65535)
    PrintFatalError("more than 65535 arg types");

  names.clear();
  mangled.clear();
  for (Record *r : sortedDefs(records, "SpecialReg")) {
    StackSpecial sp;
    sp.ptx = r->getValueAsString("Ptx").str();
    sp.name = r->getValueAsString("Name").str();
    if (sp.ptx.empty() ||
        StringRef(sp.ptx).find_first_of(" \t\n,;{}%") != StringRef::npos)
      PrintFatalError(r, "bad special register '" + sp.ptx + "'");
    if (!names.insert(sp.name).second ||
        !mangled.insert(mangle(sp.name, true)).second)
      PrintFatalError(r, "duplicate special register name '" + sp.name + "'");
    sp.argType = getArgType(r, r->getValueAsDef("Type"));
    sp.minSm = getMinSm(r);
    specials.push_back(std::move(sp));
  }
}
