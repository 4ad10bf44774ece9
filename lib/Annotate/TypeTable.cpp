//===- TypeTable.cpp - Inject types known to the rewriter -----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The default types are the inject layer's built-in ones; user
/// types come from the device header a user generates from an own .td file
/// (`mmptx-tblgen -gen-inject-device-types`), so one .td file drives both the
/// macro form and the comment form of annotation.
///
/// The header is read line by line: `#define PTX_INJECT_TYPE_<T> 1` names a
/// type, and `#define PTX_INJECT_TYPE_<T>_{REG,MOV,CONSTRAINT,BIND} value`
/// gives its fields. The marker line decides where the token ends, so tokens
/// that contain underscores (`HALF_BITS`) are read correctly.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Annotate/Annotate.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::annotate;

TypeTable TypeTable::getDefault() {
  TypeTable table;
  for (const InjectType &t : getBuiltinInjectTypes())
    cantFail(table.add(t));
  return table;
}

Error TypeTable::add(TypeInfo info) {
  auto save = [&](StringRef s) { return strings.insert(s).first->getKey(); };
  info.token = save(info.token);
  info.regType = save(info.regType);
  info.movSuffix = save(info.movSuffix);
  info.bits = info.constraint == 'h'                      ? 16
              : StringRef("ld").contains(info.constraint) ? 64
                                                          : 32;
  std::string key = StringRef(info.token).lower();
  auto it = byLowerToken.find(key);
  if (it != byLowerToken.end()) {
    const TypeInfo &old = types[it->second];
    if (old.token == info.token && old.regType == info.regType &&
        old.movSuffix == info.movSuffix && old.constraint == info.constraint &&
        old.bind == info.bind)
      return Error::success();
    return makeError("inject type '" + info.token +
                     "' conflicts with the earlier definition of '" +
                     old.token + "'");
  }
  byLowerToken[key] = types.size();
  types.push_back(std::move(info));
  return Error::success();
}

const TypeInfo *TypeTable::lookup(StringRef token) const {
  auto it = byLowerToken.find(token.lower());
  return it == byLowerToken.end() ? nullptr : &types[it->second];
}

namespace {
/// The fields of one type seen so far in a header.
struct HeaderType {
  SMLoc loc;
  StringRef reg, mov, constraint, bind;
  SMLoc regLoc, movLoc, constraintLoc, bindLoc;
};
} // namespace

static bool isRegTypeName(StringRef s) {
  return !s.empty() && all_of(s, [](char c) { return isAlnum(c); });
}

/// \returns the contents of a string literal `"..."` without escapes, or
/// None.
static Optional<StringRef> unquote(StringRef s) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"')
    return None;
  StringRef inner = s.drop_front().drop_back();
  if (inner.contains('"') || inner.contains('\\'))
    return None;
  return inner;
}

Error TypeTable::addFromHeader(const SourceMgr &sm, unsigned bufferID) {
  StringRef buf = sm.getMemoryBuffer(bufferID)->getBuffer();
  const StringRef prefix = "PTX_INJECT_TYPE_";
  // Pass 1: the `#define PTX_INJECT_TYPE_<T> 1` markers, in order.
  MapVector<StringRef, HeaderType> found;
  SmallVector<std::pair<StringRef, StringRef>, 64> fieldDefs; // name, value
  SmallVector<const char *, 64> fieldLocs;
  StringRef rest = buf;
  while (!rest.empty()) {
    StringRef line;
    std::tie(line, rest) = rest.split('\n');
    StringRef t = line.trim();
    if (!t.consume_front("#"))
      continue;
    t = t.ltrim();
    if (!t.consume_front("define"))
      continue;
    t = t.ltrim();
    if (!t.startswith(prefix))
      continue;
    size_t nameEnd = t.find_first_of(" \t");
    StringRef name = t.substr(0, nameEnd);
    StringRef value =
        nameEnd == StringRef::npos ? StringRef() : t.substr(nameEnd).trim();
    StringRef token = name.drop_front(prefix.size());
    if (value == "1" && !token.empty()) {
      found[token].loc = SMLoc::getFromPointer(name.data());
      continue;
    }
    fieldDefs.push_back({name, value});
    fieldLocs.push_back(value.empty() ? name.data() : value.data());
  }
  // Anything else (a wrong file, a binary one) would add nothing, silently.
  if (found.empty())
    return DiagnosticError::get(
        sm, SMLoc::getFromPointer(buf.data()),
        "no inject types in this header: expected '#define " + prefix +
            "<T> 1' lines, as 'mmptx-tblgen -gen-inject-device-types' "
            "writes them");
  // Pass 2: attach the fields to their types.
  for (size_t i = 0, e = fieldDefs.size(); i != e; ++i) {
    StringRef name = fieldDefs[i].first, value = fieldDefs[i].second;
    SMLoc loc = SMLoc::getFromPointer(fieldLocs[i]);
    for (auto &entry : found) {
      std::string base = (prefix + entry.first + "_").str();
      if (!name.startswith(base))
        continue;
      StringRef field = name.drop_front(base.size());
      HeaderType &ht = entry.second;
      if (field == "REG")
        ht.reg = value, ht.regLoc = loc;
      else if (field == "MOV")
        ht.mov = value, ht.movLoc = loc;
      else if (field == "CONSTRAINT")
        ht.constraint = value, ht.constraintLoc = loc;
      else if (field == "BIND")
        ht.bind = value, ht.bindLoc = loc;
    }
  }
  for (auto &entry : found) {
    StringRef token = entry.first;
    const HeaderType &ht = entry.second;
    auto missing = [&](StringRef field) {
      return DiagnosticError::get(sm, ht.loc,
                                  "inject type '" + token + "' has no " +
                                      prefix + token + "_" + field +
                                      " definition");
    };
    if (!ht.regLoc.isValid())
      return missing("REG");
    if (!ht.movLoc.isValid())
      return missing("MOV");
    if (!ht.constraintLoc.isValid())
      return missing("CONSTRAINT");
    if (!ht.bindLoc.isValid())
      return missing("BIND");
    TypeInfo info;
    info.token = token;
    Optional<StringRef> reg = unquote(ht.reg);
    if (!reg || !isRegTypeName(*reg))
      return DiagnosticError::get(sm, ht.regLoc,
                                  "expected a quoted PTX register type");
    info.regType = *reg;
    Optional<StringRef> mov = unquote(ht.mov);
    if (!mov || !isRegTypeName(*mov))
      return DiagnosticError::get(sm, ht.movLoc,
                                  "expected a quoted mov suffix");
    info.movSuffix = *mov;
    Optional<StringRef> c = unquote(ht.constraint);
    if (!c || c->size() != 1 || !StringRef("hrlfd").contains((*c)[0]))
      return DiagnosticError::get(
          sm, ht.constraintLoc,
          "expected a quoted constraint letter: h, r, l, f or d");
    info.constraint = (*c)[0];
    if (ht.bind == "PTX_INJECT_BIND_VALUE")
      info.bind = BindKind::Value;
    else if (ht.bind == "PTX_INJECT_BIND_U16")
      info.bind = BindKind::U16;
    else if (ht.bind == "PTX_INJECT_BIND_U32")
      info.bind = BindKind::U32;
    else if (ht.bind == "PTX_INJECT_BIND_U64")
      info.bind = BindKind::U64;
    else
      return DiagnosticError::get(sm, ht.bindLoc,
                                  "unknown bind kind '" + ht.bind + "'");
    if (Error err = add(std::move(info)))
      return DiagnosticError::get(sm, ht.loc, toString(std::move(err)));
  }
  return Error::success();
}
