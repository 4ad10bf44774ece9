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
  Importer(StringRef json, StringRef bufferName)
      : json(json), bufferName(bufferName) {}
  Error run(raw_ostream &os);

private:
  /// An error about the entry at JSON path \p path.
  Error error(const Twine &path, const Twine &msg) {
    return make_error<DiagnosticError>(SMDiagnostic(
        bufferName, SourceMgr::DK_Error, (path + ": " + msg).str()));
  }
  Error parseError(Error e);
  Expected<const json::Array *> getArray(const json::Object &o, StringRef key);
  Expected<StringRef> getString(const json::Object &o, StringRef key,
                                const Twine &path, bool required = true);
  Expected<unsigned> getArgType(const json::Value &v, const Twine &path);
  /// \returns entry \p i of array \p key, which must be an object, and
  /// sets \p path to its JSON path.
  Expected<const json::Object *> getEntry(const json::Array &a, StringRef key,
                                          size_t i, std::string &path);
  /// Records \p name, a C identifier unique in \p map, as entry \p i.
  Error claimIdentifier(StringMap<unsigned> &map, StringRef name, size_t i,
                        const std::string &path, StringRef what);
  /// Reads the `ptx` of an instruction or special register at \p path and
  /// its name (`name` if \p hasName, else `display`, else `ptx`), unique
  /// in \p names also once mangled; \p what names the kind in errors.
  Expected<std::pair<StringRef, StringRef>>
  getPtxAndName(const json::Object &o, const std::string &path, bool hasName,
                StringSet<> &names, StringRef what, StringRef hint);

  Error stacks(const json::Array &a, raw_ostream &os);
  Error argTypes(const json::Array &a, raw_ostream &os);
  Error instructions(const json::Array &a, raw_ostream &os);
  Error specials(const json::Array &a, raw_ostream &os);

  StringRef json, bufferName;
  StringMap<unsigned> stackIdx, argIdx;
  /// The .td def name of each arg type.
  std::vector<std::string> argDefs;
};

} // namespace

/// \returns \p s as a TableGen string literal.
static std::string quote(StringRef s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      r += '\\';
    r += c;
  }
  return r + "\"";
}

/// \returns \p s with every character that may not appear in an identifier
/// replaced by `_`.
static std::string identifier(StringRef s) {
  std::string r;
  for (char c : s)
    r += isAlnum(c) ? c : '_';
  return r;
}

static bool isCIdentifier(StringRef s) {
  return !s.empty() && (isAlpha(s[0]) || s[0] == '_') &&
         all_of(s, [](char c) { return isAlnum(c) || c == '_'; });
}

Error Importer::parseError(Error e) {
  // llvm::json reports "[line:col, byte=N]: message"; point at it.
  std::string msg = toString(std::move(e));
  SmallVector<StringRef, 4> m;
  Regex re("^\\[([0-9]+):([0-9]+), byte=([0-9]+)\\]: (.*)$");
  if (!re.match(msg, &m))
    return make_error<DiagnosticError>(
        SMDiagnostic(bufferName, SourceMgr::DK_Error, "invalid JSON: " + msg));
  unsigned line = 0, col = 0;
  m[1].getAsInteger(10, line);
  m[2].getAsInteger(10, col);
  SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(json, bufferName), SMLoc());
  return DiagnosticError::get(sm, sm.FindLocForLineAndColumn(id, line, col),
                              "invalid JSON: " + m[4]);
}

Expected<const json::Array *> Importer::getArray(const json::Object &o,
                                                 StringRef key) {
  const json::Array *a = o.getArray(key);
  if (!a)
    return error(key, o.get(key) ? "must be an array" : "is missing");
  return a;
}

Expected<StringRef> Importer::getString(const json::Object &o, StringRef key,
                                        const Twine &path, bool required) {
  const json::Value *v = o.get(key);
  if (!v) {
    if (required)
      return error(path, "has no '" + key + "'");
    return StringRef();
  }
  Optional<StringRef> s = v->getAsString();
  if (!s)
    return error(path + "." + key, "must be a string");
  return *s;
}

Expected<unsigned> Importer::getArgType(const json::Value &v,
                                        const Twine &path) {
  Optional<StringRef> s = v.getAsString();
  if (!s)
    return error(path, "must be the name of an arg type");
  auto it = argIdx.find(*s);
  if (it == argIdx.end())
    return error(path, "unknown arg type '" + *s + "'");
  return it->second;
}

Expected<const json::Object *> Importer::getEntry(const json::Array &a,
                                                  StringRef key, size_t i,
                                                  std::string &path) {
  path = (key + "[" + Twine(i) + "]").str();
  const json::Object *o = a[i].getAsObject();
  if (!o)
    return error(path, "must be an object");
  return o;
}

Error Importer::claimIdentifier(StringMap<unsigned> &map, StringRef name,
                                size_t i, const std::string &path,
                                StringRef what) {
  if (!isCIdentifier(name))
    return error(path + ".name", "'" + name + "' is not a C identifier");
  if (!map.try_emplace(name, i).second)
    return error(path + ".name", what + " '" + name + "' is defined twice");
  return Error::success();
}

Expected<std::pair<StringRef, StringRef>>
Importer::getPtxAndName(const json::Object &o, const std::string &path,
                        bool hasName, StringSet<> &names, StringRef what,
                        StringRef hint) {
  Expected<StringRef> ptx = getString(o, "ptx", path);
  if (!ptx)
    return ptx.takeError();
  Expected<StringRef> display = getString(o, "display", path, false);
  if (!display)
    return display.takeError();
  Expected<StringRef> nameField =
      hasName ? getString(o, "name", path, false) : StringRef();
  if (!nameField)
    return nameField.takeError();
  StringRef name = !nameField->empty() ? *nameField
                   : !display->empty() ? *display
                                       : *ptx;
  if (ptx->empty() || ptx->find_first_of(" \t\n,;{}%") != StringRef::npos)
    return error(path + ".ptx", "'" + *ptx + "' is not PTX");
  if (name.find_first_of(" \t\n,;{}()%:/") != StringRef::npos)
    return error(path, "name '" + name +
                           "' has a character the text form cannot spell");
  // Generated identifiers are the mangled, upper-cased names.
  if (!names.insert(name).second ||
      !names.insert("\1" + StringRef(identifier(name)).upper()).second)
    return error(path, what + " name '" + name + "' is used twice; " + hint);
  return std::make_pair(*ptx, name);
}

/// Writes record \p def of class instance \p body, with `let Name` when
/// \p name is not \p ptx.
static void writeRecord(raw_ostream &os, const Twine &def, const Twine &body,
                        StringRef name, StringRef ptx) {
  os << "def " << def << " : " << body;
  if (name != ptx)
    os << " {\n  let Name = " << quote(name) << ";\n}\n";
  else
    os << ";\n";
}

Error Importer::stacks(const json::Array &a, raw_ostream &os) {
  if (a.size() > 65535)
    return error("stack_types", "more than 65535 stack types");
  os << "// Stacks\n";
  for (size_t i = 0; i != a.size(); ++i) {
    std::string path;
    Expected<const json::Object *> entry = getEntry(a, "stack_types", i, path);
    if (!entry)
      return entry.takeError();
    const json::Object *o = *entry;
    Expected<StringRef> name = getString(*o, "name", path);
    if (!name)
      return name.takeError();
    Expected<StringRef> prefix = getString(*o, "literal_prefix", path);
    if (!prefix)
      return prefix.takeError();
    Expected<StringRef> constant =
        getString(*o, "constant_type", path, /*required=*/false);
    if (!constant)
      return constant.takeError();
    Expected<StringRef> encoder =
        getString(*o, "encoder_type", path, /*required=*/false);
    if (!encoder)
      return encoder.takeError();
    if (!constant->empty() && !constant->equals_insensitive("f32") &&
        !constant->equals_insensitive("s32") &&
        !constant->equals_insensitive("u32"))
      return error(path + ".constant_type",
                   "'" + *constant + "' is not f32, s32 or u32");
    if (Error e = claimIdentifier(stackIdx, *name, i, path, "stack type"))
      return e;
    os << "def Stack_" << *name << " : StackType<" << quote(*name) << ", "
       << quote(*prefix) << ">;\n";
  }
  return Error::success();
}

Error Importer::argTypes(const json::Array &a, raw_ostream &os) {
  if (a.size() > 65535)
    return error("arg_types", "more than 65535 arg types");
  os << "\n// Arg types\n";
  for (size_t i = 0; i != a.size(); ++i) {
    std::string path;
    Expected<const json::Object *> entry = getEntry(a, "arg_types", i, path);
    if (!entry)
      return entry.takeError();
    const json::Object *o = *entry;
    Expected<StringRef> name = getString(*o, "name", path);
    if (!name)
      return name.takeError();
    Expected<StringRef> stack = getString(*o, "stack_type", path);
    if (!stack)
      return stack.takeError();
    auto s = stackIdx.find(*stack);
    if (s == stackIdx.end())
      return error(path + ".stack_type", "unknown stack type '" + *stack + "'");
    Optional<int64_t> vec = 0;
    if (const json::Value *v = o->get("num_vec_elems"))
      vec = v->getAsInteger();
    if (!vec || *vec < 0 || *vec > 65535)
      return error(path + ".num_vec_elems", "must be an integer in 0..65535");
    if (*vec > 64)
      return error(path + ".num_vec_elems",
                   Twine(*vec) + " vector elements; mmptx allows at most 64");
    if (Error e = claimIdentifier(argIdx, *name, i, path, "arg type"))
      return e;
    argDefs.push_back("Arg_" + name->str());
    os << "def Arg_" << *name << " : ArgType<Stack_" << *stack << ", " << *vec
       << "> {\n  let Name = " << quote(*name) << ";\n}\n";
  }
  return Error::success();
}

Error Importer::instructions(const json::Array &a, raw_ostream &os) {
  os << "\n// Instructions\n";
  StringSet<> names;
  for (size_t i = 0; i != a.size(); ++i) {
    std::string path;
    Expected<const json::Object *> entry = getEntry(a, "instructions", i, path);
    if (!entry)
      return entry.takeError();
    const json::Object *o = *entry;
    auto pn = getPtxAndName(*o, path, /*hasName=*/true, names, "instruction",
                            "give one a unique \"name\"");
    if (!pn)
      return pn.takeError();
    auto [ptx, name] = *pn;
    if (const json::Value *al = o->get("aligned")) {
      Optional<bool> b = al->getAsBoolean();
      Optional<StringRef> s = al->getAsString();
      static const char *const words[] = {"true", "false", "1",
                                          "0",    "yes",   "no"};
      if (!b && !(s && is_contained(words, s->lower())))
        return error(path + ".aligned", "must be a boolean");
    }
    std::string lists[2];
    for (int k = 0; k != 2; ++k) {
      StringRef key = k ? "rets" : "args";
      const json::Value *v = o->get(key);
      const json::Array *l = v ? v->getAsArray() : nullptr;
      if (!l)
        return error(path + "." + key, v ? "must be an array" : "is missing");
      if (k == 0 && l->size() > 4)
        return error(path + ".args",
                     Twine(l->size()) + " arguments; at most 4");
      if (k == 1 && (l->empty() || l->size() > 2))
        return error(path + ".rets",
                     Twine(l->size()) + " returns; mmptx needs 1 or 2");
      for (size_t j = 0; j != l->size(); ++j) {
        Expected<unsigned> t =
            getArgType((*l)[j], path + "." + key + "[" + Twine(j) + "]");
        if (!t)
          return t.takeError();
        lists[k] += (j ? ", " : "") + argDefs[*t];
      }
    }
    writeRecord(os, "Instr" + Twine(i) + "_" + identifier(name),
                "PtxInstr<" + quote(ptx) + ", [" + lists[0] + "], [" +
                    lists[1] + "]>",
                name, ptx);
  }
  if (a.size() > 65535)
    return error("instructions", "more than 65535 instructions");
  return Error::success();
}

Error Importer::specials(const json::Array &a, raw_ostream &os) {
  os << "\n// Special registers\n";
  StringSet<> names;
  for (size_t i = 0; i != a.size(); ++i) {
    std::string path;
    Expected<const json::Object *> entry =
        getEntry(a, "special_registers", i, path);
    if (!entry)
      return entry.takeError();
    const json::Object *o = *entry;
    auto pn =
        getPtxAndName(*o, path, /*hasName=*/false, names, "special register",
                      "mmptx needs unique names (give one a "
                      "\"display\")");
    if (!pn)
      return pn.takeError();
    auto [ptx, name] = *pn;
    const json::Value *t = o->get("arg_type");
    if (!t)
      return error(path, "has no 'arg_type'");
    Expected<unsigned> arg = getArgType(*t, path + ".arg_type");
    if (!arg)
      return arg.takeError();
    writeRecord(os, "Sreg" + Twine(i) + "_" + identifier(name),
                "SpecialReg<" + quote(ptx) + ", " + argDefs[*arg] + ">", name,
                ptx);
  }
  return Error::success();
}

Error Importer::run(raw_ostream &out) {
  Expected<json::Value> root = json::parse(json);
  if (!root)
    return parseError(root.takeError());
  const json::Object *o = root->getAsObject();
  if (!o)
    return error("(top level)", "must be an object");
  const json::Value *abi = o->get("abi_version");
  if (!abi)
    return error("abi_version", "is missing");
  if (!abi->getAsInteger())
    return error("abi_version", "must be an integer");
  Expected<const json::Array *> st = getArray(*o, "stack_types");
  if (!st)
    return st.takeError();
  Expected<const json::Array *> at = getArray(*o, "arg_types");
  if (!at)
    return at.takeError();
  Expected<const json::Array *> in = getArray(*o, "instructions");
  if (!in)
    return in.takeError();
  Expected<const json::Array *> sp = getArray(*o, "special_registers");
  if (!sp)
    return sp.takeError();

  // Write to a string first: nothing is written for a bad description.
  std::string text;
  raw_string_ostream os(text);
  if (Error e = stacks(**st, os))
    return e;
  if (Error e = argTypes(**at, os))
    return e;
  if (Error e = instructions(**in, os))
    return e;
  if (Error e = specials(**sp, os))
    return e;
  os.flush();
  out << "// Imported by mmptx-stack-import from "
      << sys::path::filename(bufferName) << ".\n"
      << "//\n"
      << "// A Stack PTX instruction set numbered as the JSON description\n"
      << "// numbers it: records are in the description's order.\n"
      << "// Generate tables with\n"
      << "//   mmptx-tblgen -gen-stack-tables -I <mmptx>/td THIS.td\n"
      << "\n"
      << "include \"StackBase.td\"\n\n"
      << text;
  return Error::success();
}

Error stack::importStackDescription(StringRef json, StringRef bufferName,
                                    raw_ostream &os) {
  return Importer(json, bufferName).run(os);
}
