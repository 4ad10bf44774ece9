//===- ReferenceWire.cpp - Reader of mm-ptx's serialised jobs -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Serialize/ReferenceWire.h"

#include "ByteIO.h"

#include "mmptx/Support/EnumNames.h"

#include "llvm/ADT/StringSet.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::wire;
using namespace mmptx::wire::ref;
using mmptx::wire::detail::ByteReader;

static const EnumName<Component> ComponentNames[] = {
    {Component::CompilerInfo, "compiler_info"},
    {Component::StackInfo, "stack_info"},
    {Component::Extra, "extra"},
    {Component::Registers, "registers"},
    {Component::Requests, "requests"},
    {Component::Instructions, "instructions"},
    {Component::Ptx, "ptx"}};

StringRef ref::getComponentName(Component C) {
  return getEnumName(ComponentNames, C);
}

Optional<Component> ref::parseComponentName(StringRef Name) {
  return parseEnumName(ComponentNames, Name);
}

bool ref::parseLayout(StringRef Name, Layout &L, Component &Single) {
  if (Name == "state") {
    L = Layout::State;
    return true;
  }
  if (Name == "01") {
    L = Layout::Example01;
    return true;
  }
  if (Optional<Component> C = parseComponentName(Name)) {
    L = Layout::Single;
    Single = *C;
    return true;
  }
  return false;
}

/// The smallest a size_t-counted item can be: \p MinItem bytes.
static Error readCount(ByteReader &R, uint64_t &N, uint64_t MinItem,
                       const Twine &What) {
  return R.count(N, MinItem, What);
}

static Error readStrings(ByteReader &R, uint64_t N,
                         std::vector<std::string> &Out, const Twine &What) {
  Out.resize(N);
  for (std::string &S : Out)
    if (Error E = R.cstr(S, What))
      return E;
  return Error::success();
}

static Error readStackInfo(ByteReader &R, StackInfo &S) {
  uint64_t N;
  // Each PTX instruction: at least a NUL and a 31-byte descriptor.
  if (Error E = readCount(R, N, 32, "PTX instruction"))
    return E;
  if (Error E = readStrings(R, N, S.PtxInstrs, "PTX instruction string"))
    return E;
  S.Descriptors.resize(N);
  for (PtxInstrDescriptor &D : S.Descriptors) {
    StringRef Raw;
    size_t At = R.position();
    if (Error E = R.bytes(31, Raw, "PTX instruction descriptor"))
      return E;
    D.Raw = Raw.str();
    ByteReader F(Raw, R.offset() - 31);
    (void)At;
    for (uint16_t &A : D.ArgTypes)
      cantFail(F.u16(A, ""));
    for (uint16_t &A : D.RetTypes)
      cantFail(F.u16(A, ""));
    cantFail(F.u16(D.NumUniqueStacks, ""));
    cantFail(F.u8(D.IsAligned, ""));
    for (std::array<uint16_t, 2> &U : D.UniqueStacks) {
      cantFail(F.u16(U[0], ""));
      cantFail(F.u16(U[1], ""));
    }
  }
  if (Error E = readCount(R, N, 3, "special register"))
    return E;
  if (Error E = readStrings(R, N, S.Specials, "special register string"))
    return E;
  S.SpecialArgTypes.resize(N);
  for (uint16_t &A : S.SpecialArgTypes)
    if (Error E = R.u16(A, "special register descriptor"))
      return E;
  if (Error E = readCount(R, N, 1, "stack"))
    return E;
  if (Error E = readStrings(R, N, S.LiteralPrefixes, "stack literal prefix"))
    return E;
  if (Error E = readCount(R, N, 4, "arg type"))
    return E;
  S.ArgTypes.resize(N);
  for (std::array<uint16_t, 2> &A : S.ArgTypes) {
    if (Error E = R.u16(A[0], "arg type stack index"))
      return E;
    if (Error E = R.u16(A[1], "arg type vector size"))
      return E;
  }
  return Error::success();
}

static Error readComponent(ByteReader &R, Component C, Buffer &B) {
  switch (C) {
  case Component::CompilerInfo: {
    CompilerInfo I;
    for (uint64_t *F : {&I.MaxAstSize, &I.MaxAstToVisitStackDepth, &I.StackSize,
                        &I.MaxFrameDepth, &I.StoreSize})
      if (Error E = R.u64(*F, "compiler info"))
        return E;
    B.Compiler = I;
    return Error::success();
  }
  case Component::StackInfo: {
    StackInfo S;
    if (Error E = readStackInfo(R, S))
      return E;
    B.Stack = std::move(S);
    return Error::success();
  }
  case Component::Extra: {
    Extra X;
    if (Error E = R.u32(X.SmMajor, "extra info"))
      return E;
    if (Error E = R.u32(X.SmMinor, "extra info"))
      return E;
    if (Error E = R.u64(X.ExecutionLimit, "extra info"))
      return E;
    B.ExtraInfo = X;
    return Error::success();
  }
  case Component::Registers: {
    uint64_t N;
    // A u16 stack index and at least a NUL each.
    if (Error E = readCount(R, N, 3, "register"))
      return E;
    std::vector<Register> Regs(N);
    for (Register &Reg : Regs)
      if (Error E = R.u16(Reg.StackIdx, "register stack index"))
        return E;
    for (Register &Reg : Regs)
      if (Error E = R.cstr(Reg.Name, "register name"))
        return E;
    B.Registers = std::move(Regs);
    return Error::success();
  }
  case Component::Requests: {
    uint64_t N;
    if (Error E = readCount(R, N, 8, "request list"))
      return E;
    std::vector<uint64_t> Lengths(N);
    for (uint64_t &L : Lengths)
      if (Error E = R.u64(L, "request list length"))
        return E;
    std::vector<std::vector<uint64_t>> Lists(N);
    for (size_t I = 0; I != N; ++I) {
      if (Lengths[I] > R.left() / 8)
        return R.error("request list " + Twine(I) + " of " + Twine(Lengths[I]) +
                       " indices cannot fit in the " + Twine(R.left()) +
                       " bytes left");
      Lists[I].resize(Lengths[I]);
      for (uint64_t &X : Lists[I])
        if (Error E = R.u64(X, "request index"))
          return E;
    }
    B.Requests = std::move(Lists);
    return Error::success();
  }
  case Component::Instructions: {
    uint64_t N;
    // At least a RETURN word each.
    if (Error E = readCount(R, N, 8, "program"))
      return E;
    std::vector<std::vector<uint64_t>> Progs(N);
    for (size_t I = 0; I != N; ++I) {
      for (;;) {
        uint64_t W;
        if (Error E = R.u64(W, "program " + std::to_string(I) +
                                   " (no RETURN word before the end)"))
          return E;
        Progs[I].push_back(W);
        if (stack::getWordType(W) == stack::WordType::Return)
          break;
      }
    }
    B.Programs = std::move(Progs);
    return Error::success();
  }
  case Component::Ptx: {
    std::string S;
    if (Error E = R.cstr(S, "PTX text"))
      return E;
    B.Ptx = std::move(S);
    return Error::success();
  }
  }
  llvm_unreachable("unknown component");
}

Expected<Buffer> ref::readBuffer(StringRef Bytes, Layout L, Component Single) {
  std::vector<Component> Order;
  switch (L) {
  case Layout::State:
    Order = {Component::Ptx,   Component::CompilerInfo, Component::StackInfo,
             Component::Extra, Component::Registers,    Component::Requests};
    break;
  case Layout::Example01:
    Order = {Component::CompilerInfo, Component::StackInfo,
             Component::Ptx,          Component::Registers,
             Component::Requests,     Component::Instructions,
             Component::Extra};
    break;
  case Layout::Single:
    Order = {Single};
    break;
  }
  Buffer B;
  ByteReader R(Bytes);
  for (Component C : Order) {
    uint64_t Start = R.offset();
    if (Error E = readComponent(R, C, B))
      return createStringError(inconvertibleErrorCode(),
                               getComponentName(C) + ": " +
                                   toString(std::move(E)));
    B.Spans.push_back({C, Start, R.offset() - Start});
  }
  if (!R.atEnd())
    return R.error(Twine(R.left()) + " bytes after the last component (" +
                   getComponentName(Order.back()) + "): is the layout right?");
  return B;
}

/// True if \p S equals the first entries of mmptx's default set (up to the
/// one correction mmptx makes to the reference's tables).
static bool matchesDefaultSet(const StackInfo &S) {
  const stack::StackInfo &D = stack::getDefaultStackInfo();
  if (S.LiteralPrefixes.size() > D.NumStacks ||
      S.ArgTypes.size() > D.NumArgTypes || S.PtxInstrs.size() > D.NumInstrs ||
      S.Specials.size() > D.NumSpecials)
    return false;
  for (size_t I = 0; I != S.LiteralPrefixes.size(); ++I)
    if (S.LiteralPrefixes[I] != D.LiteralPrefixes[I])
      return false;
  for (size_t I = 0; I != S.ArgTypes.size(); ++I)
    if (S.ArgTypes[I][0] != D.ArgTypes[I].StackIdx ||
        S.ArgTypes[I][1] != D.ArgTypes[I].NumVecElems)
      return false;
  uint16_t None = uint16_t(S.ArgTypes.size());
  for (size_t I = 0; I != S.PtxInstrs.size(); ++I) {
    const PtxInstrDescriptor &X = S.Descriptors[I];
    const stack::PtxInstrDesc &Y = D.Instrs[I];
    if (S.PtxInstrs[I] != D.InstrPtx[I])
      return false;
    for (unsigned K = 0; K != 4; ++K)
      if (X.ArgTypes[K] != (K < Y.NumArgs ? Y.Args[K] : None))
        return false;
    for (unsigned K = 0; K != 2; ++K)
      if (X.RetTypes[K] != (K < Y.NumRets ? Y.Rets[K] : None))
        return false;
  }
  for (size_t I = 0; I != S.Specials.size(); ++I) {
    if (S.Specials[I] != D.SpecialPtx[I])
      return false;
    // The one deliberate difference: %gridid is a .u64 register, which the
    // reference's tables read as u32 (invalid PTX) and mmptx's as u64.
    bool GrididFix =
        S.Specials[I] == "gridid" &&
        D.ArgTypes[D.Specials[I].TheArgType].NumVecElems == 0 &&
        StringRef(
            D.LiteralPrefixes[D.ArgTypes[D.Specials[I].TheArgType].StackIdx]) ==
            "u64";
    if (S.SpecialArgTypes[I] != D.Specials[I].TheArgType && !GrididFix)
      return false;
  }
  return true;
}

/// A set of the buffer's own: names from opcodes, made unique.
static Expected<InstructionSet> ownSet(const StackInfo &S) {
  InstructionSet Set;
  StringSet<> Used;
  auto Unique = [&](std::string Base) {
    std::string Name = Base;
    for (unsigned K = 2; !Used.insert(Name).second; ++K)
      Name = Base + "." + std::to_string(K);
    return Name;
  };
  for (size_t I = 0; I != S.LiteralPrefixes.size(); ++I)
    Set.Stacks.push_back({"S" + std::to_string(I) + "_" +
                              StringRef(S.LiteralPrefixes[I]).upper(),
                          S.LiteralPrefixes[I], true});
  for (size_t I = 0; I != S.ArgTypes.size(); ++I) {
    uint16_t St = S.ArgTypes[I][0], Vec = S.ArgTypes[I][1];
    std::string Base = St < Set.Stacks.size() ? Set.Stacks[St].Name : "S?";
    Set.ArgTypes.push_back(
        {Vec ? "V" + std::to_string(Vec) + "_" + Base : Base, St, Vec});
  }
  uint16_t None = uint16_t(S.ArgTypes.size());
  for (size_t I = 0; I != S.PtxInstrs.size(); ++I) {
    InstrDecl D;
    D.Ptx = S.PtxInstrs[I];
    D.Name = Unique(D.Ptx);
    const PtxInstrDescriptor &X = S.Descriptors[I];
    for (uint16_t A : X.ArgTypes)
      if (A < None)
        D.Args.push_back(A);
    for (uint16_t A : X.RetTypes)
      if (A < None)
        D.Rets.push_back(A);
    Set.Instrs.push_back(std::move(D));
  }
  for (size_t I = 0; I != S.Specials.size(); ++I)
    Set.Specials.push_back(
        {Unique(S.Specials[I]), S.Specials[I], S.SpecialArgTypes[I], 0});
  // The same checks a compiler would make.
  Expected<std::unique_ptr<StackInfoView>> V = StackInfoView::create(Set);
  if (!V)
    return createStringError(inconvertibleErrorCode(),
                             "stack_info: " + toString(V.takeError()));
  return Set;
}

static uint32_t clampU32(uint64_t V) {
  return V > UINT32_MAX ? UINT32_MAX : uint32_t(V);
}

Expected<Job> ref::toJob(const Buffer &B) {
  Job J;
  if (B.Ptx) {
    J.Kind = SourceKind::Inject;
    J.Source = *B.Ptx;
  }
  if (B.Compiler) {
    J.StackOptions.MaxNodes = clampU32(B.Compiler->MaxAstSize);
    J.StackOptions.StackSize = clampU32(B.Compiler->StackSize);
    J.StackOptions.MaxFrameDepth = clampU32(B.Compiler->MaxFrameDepth);
    J.StackOptions.StoreSize = clampU32(B.Compiler->StoreSize);
  }
  if (B.ExtraInfo) {
    J.StackOptions.ExecutionLimit = B.ExtraInfo->ExecutionLimit;
    uint64_t Sm = uint64_t(B.ExtraInfo->SmMajor) * 10 + B.ExtraInfo->SmMinor;
    J.StackOptions.TargetSm = clampU32(Sm);
    if (Sm)
      J.Target = "sm_" + std::to_string(Sm);
  }
  // The reference's own limits may exceed ours; say which.
  if (Error E = stack::checkStackPtxOptions(J.StackOptions))
    return createStringError(inconvertibleErrorCode(),
                             "compiler_info/extra: " + toString(std::move(E)));
  if (B.Stack && !matchesDefaultSet(*B.Stack)) {
    Expected<InstructionSet> S = ownSet(*B.Stack);
    if (!S)
      return S.takeError();
    J.DefaultInstructionSet = false;
    J.Set = std::move(*S);
  }
  size_t NumStacks = J.DefaultInstructionSet
                         ? stack::getDefaultStackInfo().NumStacks
                         : J.Set.Stacks.size();
  std::vector<bool> Requested;
  if (B.Registers)
    Requested.resize(B.Registers->size());
  if (B.Requests) {
    for (size_t L = 0; L != B.Requests->size(); ++L) {
      std::vector<uint32_t> List;
      for (uint64_t X : (*B.Requests)[L]) {
        if (X >= Requested.size())
          return createStringError(inconvertibleErrorCode(),
                                   "requests: list " + std::to_string(L) +
                                       " names register " + std::to_string(X) +
                                       " of " +
                                       std::to_string(Requested.size()));
        Requested[X] = true;
        List.push_back(uint32_t(X));
      }
      J.Requests.push_back(std::move(List));
    }
  }
  if (B.Registers) {
    for (size_t I = 0; I != B.Registers->size(); ++I) {
      const Register &R = (*B.Registers)[I];
      if (R.StackIdx >= NumStacks)
        return createStringError(inconvertibleErrorCode(),
                                 "registers: register " + std::to_string(I) +
                                     " ('" + R.Name + "') is on stack " +
                                     std::to_string(R.StackIdx) + " of " +
                                     std::to_string(NumStacks));
      if (!stack::isRegisterName(R.Name))
        return createStringError(inconvertibleErrorCode(),
                                 "registers: register " + std::to_string(I) +
                                     " name '" + R.Name +
                                     "' is not a PTX identifier");
      J.Registers.push_back(
          {R.Name, R.StackIdx,
           Requested[I] ? stack::RegKind::Mod : stack::RegKind::In});
    }
  }
  return J;
}

ProgramBatch ref::toPrograms(const Buffer &B) {
  ProgramBatch Batch;
  if (!B.Programs || B.Programs->empty())
    return Batch;
  Variant V;
  WireProgram P;
  P.Kind = ProgramKind::StackWords;
  P.Words = B.Programs->front();
  P.Routines.assign(B.Programs->begin() + 1, B.Programs->end());
  V.Programs.push_back(std::move(P));
  Batch.Variants.push_back(std::move(V));
  return Batch;
}
