//===- InjectTypeEmitter.cpp - Inject type tables -------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Emits, from the InjectType records, one X-macro section:
///
///   GET_INJECT_TYPE_LIST:
///     MMPTX_INJECT_TYPE(Token, "Token", "regtype", "movsuffix", 'c', Bind,
///                       Bits)
///
/// Records are validated (constraint letter, register type, unique tokens)
/// and sorted by definition order so the output is deterministic.
///
//===----------------------------------------------------------------------===//

#include "Emitters.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;

namespace {

class InjectTypeEmitter {
public:
  explicit InjectTypeEmitter(RecordKeeper &Records) : Records(Records) {}
  void run(raw_ostream &OS);

private:
  void emitList(raw_ostream &OS, ArrayRef<Record *> Types);

  RecordKeeper &Records;
};

} // namespace

static bool isIdentifier(StringRef S) {
  if (S.empty() || !(isAlpha(S[0]) || S[0] == '_'))
    return false;
  return all_of(S, [](char C) { return isAlnum(C) || C == '_'; });
}

static bool isRegType(StringRef S) {
  static const char *const Types[] = {"b16", "b32", "b64",  "u16", "u32",
                                      "u64", "s16", "s32",  "s64", "f16",
                                      "f32", "f64", "bf16", "pred"};
  return is_contained(Types, S);
}

static void check(const Record *R) {
  StringRef Token = R->getValueAsString("Token");
  if (!isIdentifier(Token))
    PrintFatalError(R,
                    "inject type token '" + Token + "' is not a C identifier");
  StringRef RegType = R->getValueAsString("RegType");
  if (!isRegType(RegType))
    PrintFatalError(R, "unknown PTX register type '" + RegType +
                           "' for inject type '" + Token + "'");
  if (!isRegType(R->getValueAsString("MovSuffix")))
    PrintFatalError(R, "unknown mov suffix '" +
                           R->getValueAsString("MovSuffix") +
                           "' for inject type '" + Token + "'");
  StringRef C = R->getValueAsString("Constraint");
  if (C.size() != 1 || !StringRef("hrlfd").contains(C[0]))
    PrintFatalError(R, "inline-asm constraint '" + C + "' of inject type '" +
                           Token + "' must be one of h, r, l, f, d");
  int64_t Bits = R->getValueAsInt("Bits");
  unsigned RegBits = 0;
  RegType.drop_while([](char Ch) { return !isDigit(Ch); })
      .getAsInteger(10, RegBits);
  if (RegBits && Bits && int64_t(RegBits) != Bits)
    PrintFatalError(R, "constraint '" + C + "' binds " + Twine(Bits) +
                           " bits but register type '" + RegType + "' has " +
                           Twine(RegBits));
}

void InjectTypeEmitter::emitList(raw_ostream &OS, ArrayRef<Record *> Types) {
  OS << "#ifdef GET_INJECT_TYPE_LIST\n";
  OS << "#ifndef MMPTX_INJECT_TYPE\n"
        "#define MMPTX_INJECT_TYPE(ID, TOKEN, REGTYPE, MOVSUFFIX, CONSTRAINT, "
        "BIND, BITS)\n#endif\n";
  for (const Record *R : Types) {
    StringRef Bind = R->getValueAsDef("Bind")->getValueAsString("Name");
    std::string BindId = Bind == "value" ? "Value" : Bind.upper();
    OS << "MMPTX_INJECT_TYPE(" << R->getValueAsString("Token") << ", \""
       << R->getValueAsString("Token") << "\", \""
       << R->getValueAsString("RegType") << "\", \""
       << R->getValueAsString("MovSuffix") << "\", '"
       << R->getValueAsString("Constraint") << "', " << BindId << ", "
       << R->getValueAsInt("Bits") << ")\n";
  }
  OS << "#undef MMPTX_INJECT_TYPE\n#undef GET_INJECT_TYPE_LIST\n#endif\n\n";
}

std::vector<Record *> mmptx::collectInjectTypes(RecordKeeper &Records) {
  std::vector<Record *> Types = Records.getAllDerivedDefinitions("InjectType");
  llvm::sort(Types, [](const Record *A, const Record *B) {
    return A->getID() < B->getID();
  });
  StringSet<> Seen;
  for (const Record *R : Types) {
    check(R);
    if (!Seen.insert(R->getValueAsString("Token")).second)
      PrintFatalError(R, "duplicate inject type token '" +
                             R->getValueAsString("Token") + "'");
  }
  return Types;
}

void InjectTypeEmitter::run(raw_ostream &OS) {
  emitSourceFileHeader("Inject types", OS);
  emitList(OS, mmptx::collectInjectTypes(Records));
}

void mmptx::emitInjectTypes(RecordKeeper &Records, raw_ostream &OS) {
  InjectTypeEmitter(Records).run(OS);
}
