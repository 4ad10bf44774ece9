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

static bool isIdentifier(StringRef S) {
  if (S.empty() || !(isAlpha(S[0]) || S[0] == '_'))
    return false;
  return all_of(S, [](char C) { return isAlnum(C) || C == '_'; });
}

static bool isRegType(StringRef S) {
  static const char *const Types[] = {"b8",  "b16", "b32", "b64",  "u8",  "u16",
                                      "u32", "u64", "s8",  "s16",  "s32", "s64",
                                      "f16", "f32", "f64", "bf16", "pred"};
  return is_contained(Types, S);
}

/// \returns the MinSm of \p R, which the tables hold in 16 bits; 0 for a
/// record from a StackBase.td older than the field.
static unsigned getMinSm(const Record *R) {
  if (!R->getValue("MinSm"))
    return 0;
  int64_t V = R->getValueAsInt("MinSm");
  if (V < 0 || V > 65535)
    PrintFatalError(R, "MinSm " + Twine(V) + " is not in 0..65535");
  return unsigned(V);
}

static std::vector<Record *> sortedDefs(RecordKeeper &Records, StringRef Cls) {
  std::vector<Record *> Defs = Records.getAllDerivedDefinitions(Cls);
  llvm::sort(Defs, [](const Record *A, const Record *B) {
    return A->getID() < B->getID();
  });
  return Defs;
}

std::string StackRecords::mangle(StringRef Name, bool Upper) {
  std::string Out;
  for (char C : Name) {
    if (!isAlnum(C))
      Out += '_';
    else
      Out += Upper ? toUpper(C) : toLower(C);
  }
  if (Out.empty() || isDigit(Out[0]))
    Out.insert(Out.begin(), '_');
  return Out;
}

void StackRecords::emitMinSmArrays(raw_ostream &Os, StringRef InstrArray,
                                   StringRef SpecialArray) const {
  std::vector<unsigned> MinSm;
  for (const StackInstr &In : Instrs)
    MinSm.push_back(In.MinSm);
  Os << "static const uint16_t " << InstrArray << "[] = {";
  emitArrayBody(Os, MinSm);
  MinSm.clear();
  for (const StackSpecial &Sp : Specials)
    MinSm.push_back(Sp.MinSm);
  Os << "};\nstatic const uint16_t " << SpecialArray << "[] = {";
  emitArrayBody(Os, MinSm);
  Os << "};\n";
}

void StackRecords::emitArrayBody(raw_ostream &Os, ArrayRef<unsigned> Vals) {
  if (Vals.empty()) {
    Os << "0";
    return;
  }
  for (size_t I = 0, E = Vals.size(); I != E; ++I)
    Os << (I == 0 ? "\n  " : I % 16 == 0 ? ",\n  " : ", ") << Vals[I];
  Os << "\n";
}

StringRef StackRecords::getConstantCType(unsigned Stack) const {
  StringRef P = LiteralPrefixes[Stack];
  if (P == "f32" || P == "f64")
    return "float";
  if (P == "s32")
    return "int32_t";
  return "uint32_t";
}

unsigned StackRecords::getArgType(const Record *Owner, const Record *Arg) {
  StringRef Name = Arg->getValueAsString("Name");
  const Record *StackRec = Arg->getValueAsDef("Stack");
  auto It = StackIdx.find(StackRec);
  if (It == StackIdx.end())
    PrintFatalError(Owner, "arg type '" + Name + "' uses an unknown stack");
  int64_t Vec = Arg->getValueAsInt("NumVecElems");
  if (Vec < 0 || Vec > 64)
    PrintFatalError(Owner, "arg type '" + Name + "' has " + Twine(Vec) +
                               " vector elements; the limit is 64");
  if (!isIdentifier(Name))
    PrintFatalError(Owner,
                    "arg type name '" + Name + "' is not a C identifier");
  for (unsigned I = 0, E = ArgTypes.size(); I != E; ++I) {
    if (ArgTypes[I].Name != Name)
      continue;
    if (ArgTypes[I].Stack != It->second ||
        ArgTypes[I].NumVecElems != unsigned(Vec))
      PrintFatalError(Owner, "arg type '" + Name +
                                 "' is defined twice with different shapes");
    return I;
  }
  ArgTypes.push_back({Name.str(), It->second, unsigned(Vec)});
  return ArgTypes.size() - 1;
}

StackRecords::StackRecords(RecordKeeper &Records) {
  StringSet<> Seen;
  for (Record *R : sortedDefs(Records, "StackType")) {
    StringRef Name = R->getValueAsString("Name");
    StringRef Prefix = R->getValueAsString("LiteralPrefix");
    if (!isIdentifier(Name))
      PrintFatalError(R, "stack name '" + Name + "' is not a C identifier");
    if (!Seen.insert(Name).second)
      PrintFatalError(R, "duplicate stack name '" + Name + "'");
    if (!isRegType(Prefix))
      PrintFatalError(R, "literal prefix '" + Prefix + "' of stack '" + Name +
                             "' is not a PTX register type");
    StackIdx[R] = StackNames.size();
    StackNames.push_back(Name.str());
    LiteralPrefixes.push_back(Prefix.str());
    InlineLiterals.push_back(R->getValueAsBit("InlineLiterals"));
  }
  if (StackNames.size() > 65535)
    PrintFatalError("more than 65535 stacks");

  for (Record *R : sortedDefs(Records, "ArgType"))
    getArgType(R, R);

  StringSet<> Names, Mangled;
  for (Record *R : sortedDefs(Records, "PtxInstr")) {
    StackInstr In;
    In.Rec = R;
    In.Ptx = R->getValueAsString("Ptx").str();
    In.Name = R->getValueAsString("Name").str();
    if (In.Ptx.empty() ||
        StringRef(In.Ptx).find_first_of(" \t\n,;{}%") != StringRef::npos)
      PrintFatalError(R, "bad PTX opcode '" + In.Ptx + "'");
    if (In.Name.empty() ||
        StringRef(In.Name).find_first_of(" \t\n,;{}()%:/") != StringRef::npos)
      PrintFatalError(R, "bad instruction name '" + In.Name + "'");
    if (!Names.insert(In.Name).second)
      PrintFatalError(R, "duplicate instruction name '" + In.Name +
                             "'; set a unique Name with `let Name = ...`");
    if (!Mangled.insert(mangle(In.Name, true)).second)
      PrintFatalError(R, "instruction name '" + In.Name +
                             "' mangles to the identifier of another one");
    std::vector<Record *> Args = R->getValueAsListOfDefs("Args");
    std::vector<Record *> Rets = R->getValueAsListOfDefs("Rets");
    if (Args.size() > 4)
      PrintFatalError(R, "instruction '" + In.Name + "' has " +
                             Twine(Args.size()) + " args; the limit is 4");
    if (Rets.empty() || Rets.size() > 2)
      PrintFatalError(R, "instruction '" + In.Name + "' has " +
                             Twine(Rets.size()) + " rets; it must have 1 or 2");
    for (Record *A : Args)
      In.Args.push_back(getArgType(R, A));
    for (Record *A : Rets)
      In.Rets.push_back(getArgType(R, A));
    In.MinSm = getMinSm(R);
    Instrs.push_back(std::move(In));
  }
  if (ArgTypes.size() > 65535)
    PrintFatalError("more than 65535 arg types");

  Names.clear();
  Mangled.clear();
  for (Record *R : sortedDefs(Records, "SpecialReg")) {
    StackSpecial Sp;
    Sp.Ptx = R->getValueAsString("Ptx").str();
    Sp.Name = R->getValueAsString("Name").str();
    if (Sp.Ptx.empty() ||
        StringRef(Sp.Ptx).find_first_of(" \t\n,;{}%") != StringRef::npos)
      PrintFatalError(R, "bad special register '" + Sp.Ptx + "'");
    if (!Names.insert(Sp.Name).second ||
        !Mangled.insert(mangle(Sp.Name, true)).second)
      PrintFatalError(R, "duplicate special register name '" + Sp.Name + "'");
    Sp.ArgType = getArgType(R, R->getValueAsDef("Type"));
    Sp.MinSm = getMinSm(R);
    Specials.push_back(std::move(Sp));
  }
}
