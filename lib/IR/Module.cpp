//===- Module.cpp - Lossless PTX module -----------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/IR/Module.h"
#include "mmptx/Support/EnumNames.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cassert>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

static const EnumName<StmtKind> StmtKindNames[] = {
    {StmtKind::Comment, "comment"},
    {StmtKind::Directive, "directive"},
    {StmtKind::FunctionHeader, "function header"},
    {StmtKind::ScopeBegin, "scope begin"},
    {StmtKind::ScopeEnd, "scope end"},
    {StmtKind::Label, "label"},
    {StmtKind::Instruction, "instruction"},
    {StmtKind::Empty, "empty statement"}};

StringRef mmptx::ptx::getStmtKindName(StmtKind K) {
  return getEnumName(StmtKindNames, K);
}

Module::Module(const SourceMgr &SM, unsigned BufferID)
    : SM(&SM), BufferID(BufferID),
      Buffer(SM.getMemoryBuffer(BufferID)->getBuffer()) {}

Module::Module(StringRef Text, StringRef BufferName)
    : SM(nullptr), BufferID(0), Buffer(Text), LazyName(BufferName) {}

Module::~Module() = default;

const SourceMgr &Module::makeSourceMgr() const {
  auto Owned = std::make_unique<SourceMgr>();
  BufferID = Owned->AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(Buffer, LazyName,
                                 /*RequiresNullTerminator=*/false),
      SMLoc());
  SM = Owned.get();
  OwnedSM = std::move(Owned);
  return *SM;
}

void Module::adoptSourceMgr(std::unique_ptr<SourceMgr> Owned) {
  assert(Owned.get() == SM && "must adopt the SourceMgr the module uses");
  OwnedSM = std::move(Owned);
}

StringRef Module::getBufferIdentifier() const {
  if (!SM)
    return LazyName;
  return SM->getMemoryBuffer(BufferID)->getBufferIdentifier();
}

StringRef Module::getLeadingGap(uint32_t I) const {
  uint32_t Prev = I == 0 ? 0 : Stmts[I - 1].End;
  return Buffer.substr(Prev, Stmts[I].Begin - Prev);
}

unsigned Module::getLine(const Statement &S) const {
  return getSourceMgr().getLineAndColumn(getLoc(S), BufferID).first;
}

const Function *Module::lookupFunction(StringRef Name) const {
  for (const Function &F : Functions)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

void Module::replaceRange(uint32_t Begin, uint32_t End, std::string Text) {
  assert(Begin <= End && End <= Buffer.size() && "edit out of range");
  // Most passes edit front to back, so appending is the common case.
  auto It = Edits.end();
  if (!Edits.empty() && Edits.back().End > Begin)
    It =
        std::upper_bound(Edits.begin(), Edits.end(), Begin,
                         [](uint32_t B, const Edit &E) { return B < E.Begin; });
  assert((It == Edits.begin() || std::prev(It)->End <= Begin) &&
         (It == Edits.end() || It->Begin >= End) && "overlapping edits");
  Edits.insert(It, Edit{Begin, End, std::move(Text)});
}
