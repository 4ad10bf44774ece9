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
  TypeTable Table;
  for (const InjectType &T : getBuiltinInjectTypes())
    cantFail(Table.add(T));
  return Table;
}

Error TypeTable::add(TypeInfo Info) {
  auto Save = [&](StringRef S) { return Strings.insert(S).first->getKey(); };
  Info.TheToken = Save(Info.TheToken);
  Info.RegType = Save(Info.RegType);
  Info.MovSuffix = Save(Info.MovSuffix);
  Info.Bits = Info.Constraint == 'h'                      ? 16
              : StringRef("ld").contains(Info.Constraint) ? 64
                                                          : 32;
  std::string Key = StringRef(Info.TheToken).lower();
  auto It = ByLowerToken.find(Key);
  if (It != ByLowerToken.end()) {
    const TypeInfo &Old = Types[It->second];
    if (Old.TheToken == Info.TheToken && Old.RegType == Info.RegType &&
        Old.MovSuffix == Info.MovSuffix && Old.Constraint == Info.Constraint &&
        Old.Bind == Info.Bind)
      return Error::success();
    return makeError("inject type '" + Info.TheToken +
                     "' conflicts with the earlier definition of '" +
                     Old.TheToken + "'");
  }
  ByLowerToken[Key] = Types.size();
  Types.push_back(std::move(Info));
  return Error::success();
}

const TypeInfo *TypeTable::lookup(StringRef Token) const {
  auto It = ByLowerToken.find(Token.lower());
  return It == ByLowerToken.end() ? nullptr : &Types[It->second];
}

namespace {
/// The fields of one type seen so far in a header.
struct HeaderType {
  SMLoc Loc;
  StringRef Reg, Mov, Constraint, Bind;
  SMLoc RegLoc, MovLoc, ConstraintLoc, BindLoc;
};
} // namespace

static bool isRegTypeName(StringRef S) {
  return !S.empty() && all_of(S, [](char C) { return isAlnum(C); });
}

/// \returns the contents of a string literal `"..."` without escapes, or
/// None.
static Optional<StringRef> unquote(StringRef S) {
  if (S.size() < 2 || S.front() != '"' || S.back() != '"')
    return None;
  StringRef Inner = S.drop_front().drop_back();
  if (Inner.contains('"') || Inner.contains('\\'))
    return None;
  return Inner;
}

Error TypeTable::addFromHeader(const SourceMgr &Sm, unsigned BufferId) {
  StringRef Buf = Sm.getMemoryBuffer(BufferId)->getBuffer();
  const StringRef Prefix = "PTX_INJECT_TYPE_";
  // Pass 1: the `#define PTX_INJECT_TYPE_<T> 1` markers, in order.
  MapVector<StringRef, HeaderType> Found;
  SmallVector<std::pair<StringRef, StringRef>, 64> FieldDefs; // name, value
  SmallVector<const char *, 64> FieldLocs;
  StringRef Rest = Buf;
  while (!Rest.empty()) {
    StringRef Line;
    std::tie(Line, Rest) = Rest.split('\n');
    StringRef T = Line.trim();
    if (!T.consume_front("#"))
      continue;
    T = T.ltrim();
    if (!T.consume_front("define"))
      continue;
    T = T.ltrim();
    if (!T.startswith(Prefix))
      continue;
    size_t NameEnd = T.find_first_of(" \t");
    StringRef Name = T.substr(0, NameEnd);
    StringRef Value =
        NameEnd == StringRef::npos ? StringRef() : T.substr(NameEnd).trim();
    StringRef Token = Name.drop_front(Prefix.size());
    if (Value == "1" && !Token.empty()) {
      Found[Token].Loc = SMLoc::getFromPointer(Name.data());
      continue;
    }
    FieldDefs.push_back({Name, Value});
    FieldLocs.push_back(Value.empty() ? Name.data() : Value.data());
  }
  // Anything else (a wrong file, a binary one) would add nothing, silently.
  if (Found.empty())
    return DiagnosticError::get(
        Sm, SMLoc::getFromPointer(Buf.data()),
        "no inject types in this header: expected '#define " + Prefix +
            "<T> 1' lines, as 'mmptx-tblgen -gen-inject-device-types' "
            "writes them");
  // Pass 2: attach the fields to their types.
  for (size_t I = 0, E = FieldDefs.size(); I != E; ++I) {
    StringRef Name = FieldDefs[I].first, Value = FieldDefs[I].second;
    SMLoc Loc = SMLoc::getFromPointer(FieldLocs[I]);
    for (auto &Entry : Found) {
      std::string Base = (Prefix + Entry.first + "_").str();
      if (!Name.startswith(Base))
        continue;
      StringRef Field = Name.drop_front(Base.size());
      HeaderType &Ht = Entry.second;
      if (Field == "REG")
        Ht.Reg = Value, Ht.RegLoc = Loc;
      else if (Field == "MOV")
        Ht.Mov = Value, Ht.MovLoc = Loc;
      else if (Field == "CONSTRAINT")
        Ht.Constraint = Value, Ht.ConstraintLoc = Loc;
      else if (Field == "BIND")
        Ht.Bind = Value, Ht.BindLoc = Loc;
    }
  }
  for (auto &Entry : Found) {
    StringRef Token = Entry.first;
    const HeaderType &Ht = Entry.second;
    auto Missing = [&](StringRef Field) {
      return DiagnosticError::get(Sm, Ht.Loc,
                                  "inject type '" + Token + "' has no " +
                                      Prefix + Token + "_" + Field +
                                      " definition");
    };
    if (!Ht.RegLoc.isValid())
      return Missing("REG");
    if (!Ht.MovLoc.isValid())
      return Missing("MOV");
    if (!Ht.ConstraintLoc.isValid())
      return Missing("CONSTRAINT");
    if (!Ht.BindLoc.isValid())
      return Missing("BIND");
    TypeInfo Info;
    Info.TheToken = Token;
    Optional<StringRef> Reg = unquote(Ht.Reg);
    if (!Reg || !isRegTypeName(*Reg))
      return DiagnosticError::get(Sm, Ht.RegLoc,
                                  "expected a quoted PTX register type");
    Info.RegType = *Reg;
    Optional<StringRef> Mov = unquote(Ht.Mov);
    if (!Mov || !isRegTypeName(*Mov))
      return DiagnosticError::get(Sm, Ht.MovLoc,
                                  "expected a quoted mov suffix");
    Info.MovSuffix = *Mov;
    Optional<StringRef> C = unquote(Ht.Constraint);
    if (!C || C->size() != 1 || !StringRef("hrlfd").contains((*C)[0]))
      return DiagnosticError::get(
          Sm, Ht.ConstraintLoc,
          "expected a quoted constraint letter: h, r, l, f or d");
    Info.Constraint = (*C)[0];
    if (Ht.Bind == "PTX_INJECT_BIND_VALUE")
      Info.Bind = BindKind::Value;
    else if (Ht.Bind == "PTX_INJECT_BIND_U16")
      Info.Bind = BindKind::U16;
    else if (Ht.Bind == "PTX_INJECT_BIND_U32")
      Info.Bind = BindKind::U32;
    else if (Ht.Bind == "PTX_INJECT_BIND_U64")
      Info.Bind = BindKind::U64;
    else
      return DiagnosticError::get(Sm, Ht.BindLoc,
                                  "unknown bind kind '" + Ht.Bind + "'");
    if (Error Err = add(std::move(Info)))
      return DiagnosticError::get(Sm, Ht.Loc, toString(std::move(Err)));
  }
  return Error::success();
}
