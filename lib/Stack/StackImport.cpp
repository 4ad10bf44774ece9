//===- StackImport.cpp - Import JSON instruction-set descriptions ---------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the reference's JSON description (see StackImport.h) with
/// llvm::json, checks it, and writes one record per entry, in order:
/// `StackType`, `ArgType`, `PtxInstr`, `SpecialReg` (td/StackBase.td).
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackImport.h"
#include "mmptx/Support/Diagnostic.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

namespace {

class Importer {
public:
  Importer(StringRef Json, StringRef BufferName)
      : Json(Json), BufferName(BufferName) {}
  Error run(raw_ostream &Out);

private:
  /// An error about the entry at JSON path \p Path.
  Error error(const Twine &Path, const Twine &Msg) {
    return make_error<DiagnosticError>(SMDiagnostic(
        BufferName, SourceMgr::DK_Error, (Path + ": " + Msg).str()));
  }
  Error parseError(Error E);
  Expected<const json::Array *> getArray(const json::Object &O, StringRef Key);
  Expected<StringRef> getString(const json::Object &O, StringRef Key,
                                const Twine &Path, bool Required = true);
  Expected<unsigned> getArgType(const json::Value &V, const Twine &Path);
  /// \returns entry \p I of array \p Key, which must be an object, and
  /// sets \p Path to its JSON path.
  Expected<const json::Object *> getEntry(const json::Array &A, StringRef Key,
                                          size_t I, std::string &Path);
  /// Calls \p Fn on each entry of array \p Key (getEntry()) in order, up
  /// to the first error.
  Error forEachEntry(const json::Array &A, StringRef Key,
                     function_ref<Error(size_t I, const json::Object *O,
                                        const std::string &Path)>
                         Fn);
  /// Writes \p Heading, then forEachEntry() on array \p Key of at most
  /// 65535 \p What (`stack types`), passing each entry's `name`.
  Error
  forEachNamedEntry(const json::Array &A, StringRef Key, StringRef What,
                    StringRef Heading, raw_ostream &Os,
                    function_ref<Error(size_t I, const json::Object *O,
                                       const std::string &Path, StringRef Name)>
                        Fn);
  /// Records \p Name, a C identifier unique in \p Map, as entry \p I.
  Error claimIdentifier(StringMap<unsigned> &Map, StringRef Name, size_t I,
                        const std::string &Path, StringRef What);
  /// Reads the `ptx` of an instruction or special register at \p Path and
  /// its name (`name` if \p HasName, else `display`, else `ptx`), unique
  /// in \p Names also once mangled; \p What names the kind in errors.
  Expected<std::pair<StringRef, StringRef>>
  getPtxAndName(const json::Object &O, const std::string &Path, bool HasName,
                StringSet<> &Names, StringRef What, StringRef Hint);

  Error stacks(const json::Array &A, raw_ostream &Os);
  Error argTypes(const json::Array &A, raw_ostream &Os);
  Error instructions(const json::Array &A, raw_ostream &Os);
  Error specials(const json::Array &A, raw_ostream &Os);

  StringRef Json, BufferName;
  StringMap<unsigned> StackIdx, ArgIdx;
  /// The .td def name of each arg type.
  std::vector<std::string> ArgDefs;
};

} // namespace

/// \returns \p S as a TableGen string literal.
static std::string quote(StringRef S) {
  std::string R = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      R += '\\';
    R += C;
  }
  return R + "\"";
}

/// \returns \p S with every character that may not appear in an identifier
/// replaced by `_`.
static std::string identifier(StringRef S) {
  std::string R;
  for (char C : S)
    R += isAlnum(C) ? C : '_';
  return R;
}

static bool isCIdentifier(StringRef S) {
  return !S.empty() && (isAlpha(S[0]) || S[0] == '_') &&
         all_of(S, [](char C) { return isAlnum(C) || C == '_'; });
}

Error Importer::parseError(Error E) {
  // llvm::json reports "[line:col, byte=N]: message"; point at it.
  std::string Msg = toString(std::move(E));
  SmallVector<StringRef, 4> M;
  Regex Re("^\\[([0-9]+):([0-9]+), byte=([0-9]+)\\]: (.*)$");
  if (!Re.match(Msg, &M))
    return make_error<DiagnosticError>(
        SMDiagnostic(BufferName, SourceMgr::DK_Error, "invalid JSON: " + Msg));
  unsigned Line = 0, Col = 0;
  M[1].getAsInteger(10, Line);
  M[2].getAsInteger(10, Col);
  SourceMgr Sm;
  unsigned Id = Sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(Json, BufferName), SMLoc());
  return DiagnosticError::get(Sm, Sm.FindLocForLineAndColumn(Id, Line, Col),
                              "invalid JSON: " + M[4]);
}

Expected<const json::Array *> Importer::getArray(const json::Object &O,
                                                 StringRef Key) {
  const json::Array *A = O.getArray(Key);
  if (!A)
    return error(Key, O.get(Key) ? "must be an array" : "is missing");
  return A;
}

Expected<StringRef> Importer::getString(const json::Object &O, StringRef Key,
                                        const Twine &Path, bool Required) {
  const json::Value *V = O.get(Key);
  if (!V) {
    if (Required)
      return error(Path, "has no '" + Key + "'");
    return StringRef();
  }
  Optional<StringRef> S = V->getAsString();
  if (!S)
    return error(Path + "." + Key, "must be a string");
  return *S;
}

Expected<unsigned> Importer::getArgType(const json::Value &V,
                                        const Twine &Path) {
  Optional<StringRef> S = V.getAsString();
  if (!S)
    return error(Path, "must be the name of an arg type");
  auto It = ArgIdx.find(*S);
  if (It == ArgIdx.end())
    return error(Path, "unknown arg type '" + *S + "'");
  return It->second;
}

Expected<const json::Object *> Importer::getEntry(const json::Array &A,
                                                  StringRef Key, size_t I,
                                                  std::string &Path) {
  Path = (Key + "[" + Twine(I) + "]").str();
  const json::Object *O = A[I].getAsObject();
  if (!O)
    return error(Path, "must be an object");
  return O;
}

Error Importer::forEachEntry(
    const json::Array &A, StringRef Key,
    function_ref<Error(size_t, const json::Object *, const std::string &)> Fn) {
  for (size_t I = 0; I != A.size(); ++I) {
    std::string Path;
    Expected<const json::Object *> Entry = getEntry(A, Key, I, Path);
    if (!Entry)
      return Entry.takeError();
    if (Error E = Fn(I, *Entry, Path))
      return E;
  }
  return Error::success();
}

Error Importer::forEachNamedEntry(
    const json::Array &A, StringRef Key, StringRef What, StringRef Heading,
    raw_ostream &Os,
    function_ref<Error(size_t, const json::Object *, const std::string &,
                       StringRef)>
        Fn) {
  if (A.size() > 65535)
    return error(Key, "more than 65535 " + What);
  Os << Heading;
  return forEachEntry(
      A, Key,
      [&](size_t I, const json::Object *O, const std::string &Path) -> Error {
        Expected<StringRef> Name = getString(*O, "name", Path);
        if (!Name)
          return Name.takeError();
        return Fn(I, O, Path, *Name);
      });
}

Error Importer::claimIdentifier(StringMap<unsigned> &Map, StringRef Name,
                                size_t I, const std::string &Path,
                                StringRef What) {
  if (!isCIdentifier(Name))
    return error(Path + ".name", "'" + Name + "' is not a C identifier");
  if (!Map.try_emplace(Name, I).second)
    return error(Path + ".name", What + " '" + Name + "' is defined twice");
  return Error::success();
}

Expected<std::pair<StringRef, StringRef>>
Importer::getPtxAndName(const json::Object &O, const std::string &Path,
                        bool HasName, StringSet<> &Names, StringRef What,
                        StringRef Hint) {
  Expected<StringRef> Ptx = getString(O, "ptx", Path);
  if (!Ptx)
    return Ptx.takeError();
  Expected<StringRef> Display = getString(O, "display", Path, false);
  if (!Display)
    return Display.takeError();
  Expected<StringRef> NameField =
      HasName ? getString(O, "name", Path, false) : StringRef();
  if (!NameField)
    return NameField.takeError();
  StringRef Name = !NameField->empty() ? *NameField
                   : !Display->empty() ? *Display
                                       : *Ptx;
  if (Ptx->empty() || Ptx->find_first_of(" \t\n,;{}%") != StringRef::npos)
    return error(Path + ".ptx", "'" + *Ptx + "' is not PTX");
  if (Name.find_first_of(" \t\n,;{}()%:/") != StringRef::npos)
    return error(Path, "name '" + Name +
                           "' has a character the text form cannot spell");
  // Generated identifiers are the mangled, upper-cased names.
  if (!Names.insert(Name).second ||
      !Names.insert("\1" + StringRef(identifier(Name)).upper()).second)
    return error(Path, What + " name '" + Name + "' is used twice; " + Hint);
  return std::make_pair(*Ptx, Name);
}

/// Writes record \p Def of class instance \p Body, with `let Name` when
/// \p Name is not \p Ptx.
static void writeRecord(raw_ostream &Os, const Twine &Def, const Twine &Body,
                        StringRef Name, StringRef Ptx) {
  Os << "def " << Def << " : " << Body;
  if (Name != Ptx)
    Os << " {\n  let Name = " << quote(Name) << ";\n}\n";
  else
    Os << ";\n";
}

Error Importer::stacks(const json::Array &A, raw_ostream &Os) {
  return forEachNamedEntry(
      A, "stack_types", "stack types", "// Stacks\n", Os,
      [&](size_t I, const json::Object *O, const std::string &Path,
          StringRef Name) -> Error {
        Expected<StringRef> Prefix = getString(*O, "literal_prefix", Path);
        if (!Prefix)
          return Prefix.takeError();
        Expected<StringRef> Constant =
            getString(*O, "constant_type", Path, /*required=*/false);
        if (!Constant)
          return Constant.takeError();
        Expected<StringRef> Encoder =
            getString(*O, "encoder_type", Path, /*required=*/false);
        if (!Encoder)
          return Encoder.takeError();
        if (!Constant->empty() && !Constant->equals_insensitive("f32") &&
            !Constant->equals_insensitive("s32") &&
            !Constant->equals_insensitive("u32"))
          return error(Path + ".constant_type",
                       "'" + *Constant + "' is not f32, s32 or u32");
        if (Error E = claimIdentifier(StackIdx, Name, I, Path, "stack type"))
          return E;
        Os << "def Stack_" << Name << " : StackType<" << quote(Name) << ", "
           << quote(*Prefix) << ">;\n";
        return Error::success();
      });
}

Error Importer::argTypes(const json::Array &A, raw_ostream &Os) {
  return forEachNamedEntry(
      A, "arg_types", "arg types", "\n// Arg types\n", Os,
      [&](size_t I, const json::Object *O, const std::string &Path,
          StringRef Name) -> Error {
        Expected<StringRef> Stack = getString(*O, "stack_type", Path);
        if (!Stack)
          return Stack.takeError();
        auto S = StackIdx.find(*Stack);
        if (S == StackIdx.end())
          return error(Path + ".stack_type",
                       "unknown stack type '" + *Stack + "'");
        Optional<int64_t> Vec = 0;
        if (const json::Value *V = O->get("num_vec_elems"))
          Vec = V->getAsInteger();
        if (!Vec || *Vec < 0 || *Vec > 65535)
          return error(Path + ".num_vec_elems",
                       "must be an integer in 0..65535");
        if (*Vec > 64)
          return error(Path + ".num_vec_elems",
                       Twine(*Vec) +
                           " vector elements; mmptx allows at most 64");
        if (Error E = claimIdentifier(ArgIdx, Name, I, Path, "arg type"))
          return E;
        ArgDefs.push_back("Arg_" + Name.str());
        Os << "def Arg_" << Name << " : ArgType<Stack_" << *Stack << ", "
           << *Vec << "> {\n  let Name = " << quote(Name) << ";\n}\n";
        return Error::success();
      });
}

Error Importer::instructions(const json::Array &A, raw_ostream &Os) {
  Os << "\n// Instructions\n";
  StringSet<> Names;
  if (Error E = forEachEntry(
          A, "instructions",
          [&](size_t I, const json::Object *O,
              const std::string &Path) -> Error {
            auto Pn =
                getPtxAndName(*O, Path, /*HasName=*/true, Names, "instruction",
                              "give one a unique \"name\"");
            if (!Pn)
              return Pn.takeError();
            auto [ptx, name] = *Pn;
            if (const json::Value *Al = O->get("aligned")) {
              Optional<bool> B = Al->getAsBoolean();
              Optional<StringRef> S = Al->getAsString();
              static const char *const Words[] = {"true", "false", "1",
                                                  "0",    "yes",   "no"};
              if (!B && !(S && is_contained(Words, S->lower())))
                return error(Path + ".aligned", "must be a boolean");
            }
            std::string Lists[2];
            for (int K = 0; K != 2; ++K) {
              StringRef Key = K ? "rets" : "args";
              const json::Value *V = O->get(Key);
              const json::Array *L = V ? V->getAsArray() : nullptr;
              if (!L)
                return error(Path + "." + Key,
                             V ? "must be an array" : "is missing");
              if (K == 0 && L->size() > 4)
                return error(Path + ".args",
                             Twine(L->size()) + " arguments; at most 4");
              if (K == 1 && (L->empty() || L->size() > 2))
                return error(Path + ".rets",
                             Twine(L->size()) + " returns; mmptx needs 1 or 2");
              for (size_t J = 0; J != L->size(); ++J) {
                Expected<unsigned> T = getArgType(
                    (*L)[J], Path + "." + Key + "[" + Twine(J) + "]");
                if (!T)
                  return T.takeError();
                Lists[K] += (J ? ", " : "") + ArgDefs[*T];
              }
            }
            writeRecord(Os, "Instr" + Twine(I) + "_" + identifier(name),
                        "PtxInstr<" + quote(ptx) + ", [" + Lists[0] + "], [" +
                            Lists[1] + "]>",
                        name, ptx);
            return Error::success();
          }))
    return E;
  if (A.size() > 65535)
    return error("instructions", "more than 65535 instructions");
  return Error::success();
}

Error Importer::specials(const json::Array &A, raw_ostream &Os) {
  Os << "\n// Special registers\n";
  StringSet<> Names;
  return forEachEntry(
      A, "special_registers",
      [&](size_t I, const json::Object *O, const std::string &Path) -> Error {
        auto Pn = getPtxAndName(*O, Path, /*HasName=*/false, Names,
                                "special register",
                                "mmptx needs unique names (give one a "
                                "\"display\")");
        if (!Pn)
          return Pn.takeError();
        auto [ptx, name] = *Pn;
        const json::Value *T = O->get("arg_type");
        if (!T)
          return error(Path, "has no 'arg_type'");
        Expected<unsigned> Arg = getArgType(*T, Path + ".arg_type");
        if (!Arg)
          return Arg.takeError();
        writeRecord(Os, "Sreg" + Twine(I) + "_" + identifier(name),
                    "SpecialReg<" + quote(ptx) + ", " + ArgDefs[*Arg] + ">",
                    name, ptx);
        return Error::success();
      });
}

Error Importer::run(raw_ostream &Out) {
  Expected<json::Value> Root = json::parse(Json);
  if (!Root)
    return parseError(Root.takeError());
  const json::Object *O = Root->getAsObject();
  if (!O)
    return error("(top level)", "must be an object");
  const json::Value *Abi = O->get("abi_version");
  if (!Abi)
    return error("abi_version", "is missing");
  if (!Abi->getAsInteger())
    return error("abi_version", "must be an integer");
  Expected<const json::Array *> St = getArray(*O, "stack_types");
  if (!St)
    return St.takeError();
  Expected<const json::Array *> At = getArray(*O, "arg_types");
  if (!At)
    return At.takeError();
  Expected<const json::Array *> In = getArray(*O, "instructions");
  if (!In)
    return In.takeError();
  Expected<const json::Array *> Sp = getArray(*O, "special_registers");
  if (!Sp)
    return Sp.takeError();

  // Write to a string first: nothing is written for a bad description.
  std::string Text;
  raw_string_ostream Os(Text);
  if (Error E = stacks(**St, Os))
    return E;
  if (Error E = argTypes(**At, Os))
    return E;
  if (Error E = instructions(**In, Os))
    return E;
  if (Error E = specials(**Sp, Os))
    return E;
  Os.flush();
  Out << "// Imported by mmptx-stack-import from "
      << sys::path::filename(BufferName) << ".\n"
      << "//\n"
      << "// A Stack PTX instruction set numbered as the JSON description\n"
      << "// numbers it: records are in the description's order.\n"
      << "// Generate tables with\n"
      << "//   mmptx-tblgen -gen-stack-tables -I <mmptx>/td THIS.td\n"
      << "\n"
      << "include \"StackBase.td\"\n\n"
      << Text;
  return Error::success();
}

Error stack::importStackDescription(StringRef Json, StringRef BufferName,
                                    raw_ostream &Os) {
  return Importer(Json, BufferName).run(Os);
}
