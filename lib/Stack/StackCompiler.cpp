//===- StackCompiler.cpp - Stack PTX to PTX stub compiler -----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The compiler works in three steps on buffers owned by the context:
///
/// 1. Execution: the words run on one value stack per stack type, a meta
///    stack of u32 and a store of slots. Values are indices of DAG nodes
///    (inputs, constants, special-register elements, instructions and their
///    result elements). A PTX word pops its operands (first popped = first
///    operand element) if every stack it needs has enough values, and pushes
///    its results so that element 0 of return 0 ends on top. runCommon runs
///    the common words (valid INPUT and CONSTANT, one-stack scalar PTX, dup,
///    swap) without per-word room checks; execWord runs everything else.
/// 2. Requests: the k-th request for a stack gets its k-th value from the
///    top, without popping.
/// 3. Emission: requests are visited last to first, depth first; an
///    instruction whose operands are not yet emitted is re-pushed under them
///    so operand 0 is emitted first. Results get per-stack register numbers
///    in emission order; special registers are read with a `mov` just before
///    their first use. The declarations are written last and put in front.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackCompiler.h"

#include "mmptx/Expr/InstrTraits.h"
#include "mmptx/Expr/PtxEmitter.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;
using expr::writeName;

const char *stack::getMetaOpName(uint32_t Op) {
  static const char *const Names[] = {"dup",       "yank_dup", "swap",
                                      "swap_with", "replace",  "drop",
                                      "clear",     "rotate",   "reverse"};
  return Op < NumMetaOps ? Names[Op] : nullptr;
}

Error stack::checkStackPtxOptions(const StackPtxOptions &Opts,
                                  function_ref<StringRef(StringRef)> Spelling) {
  auto Check = [&](StringRef Field, uint64_t Value, uint64_t Min,
                   uint64_t Max) -> Error {
    if (Value >= Min && Value <= Max)
      return Error::success();
    StringRef Name = Spelling ? Spelling(Field) : Field;
    if (Value < Min)
      return makeError(Name + " must be at least " + Twine(Min));
    return makeError(Name + " = " + Twine(Value) + " is too large (at most " +
                     Twine(Max) + ")");
  };
  using B = StackPtxBounds;
  if (Error E = Check("stackSize", Opts.StackSize, 1, B::MaxStackSize))
    return E;
  if (Error E = Check("maxNodes", Opts.MaxNodes, 1, B::MaxNodes))
    return E;
  if (Error E = Check("maxFrameDepth", Opts.MaxFrameDepth, 0, B::MaxFrameDepth))
    return E;
  if (Error E = Check("storeSize", Opts.StoreSize, 0, B::MaxStoreSize))
    return E;
  return Check("executionLimit", Opts.ExecutionLimit, 0, B::MaxExecutionLimit);
}

void stack::describeLimitsHit(const StackPtxStats &Stats,
                              const StackPtxOptions &O,
                              function_ref<StringRef(StringRef)> Flag,
                              function_ref<void(const Twine &)> Report) {
  if (Stats.HitExecutionLimit)
    Report("execution stopped at the execution limit of " +
           Twine(O.ExecutionLimit) + " words (" + Flag("executionLimit") +
           "); the stub is what was built until then");
  if (Stats.RefusedCalls)
    Report(Twine(Stats.RefusedCalls) +
           " routine call(s) beyond the frame-depth limit of " +
           Twine(O.MaxFrameDepth) + " frames were skipped (" +
           Flag("maxFrameDepth") + ")");
  if (Stats.HitNodeLimit)
    Report("execution stopped at the node limit of " + Twine(O.MaxNodes) +
           " nodes (" + Flag("maxNodes") +
           "); the stub is what was built until then");
  if (Stats.DroppedPushes)
    Report(Twine(Stats.DroppedPushes) + " push(es) onto a full stack (" +
           Twine(O.StackSize) + " values, " + Flag("stackSize") +
           ") were dropped");
  if (Stats.IgnoredWords) {
    std::string Target;
    if (O.TargetSm)
      Target = ("; for sm_" + Twine(O.TargetSm) +
                ", instructions and special registers that need a newer "
                "target are invalid")
                   .str();
    Report(Twine(Stats.IgnoredWords) + " invalid word(s) were skipped (" +
           Flag("strict") + " reports them as errors)" + Target);
  }
}

struct StackPtxContext::Impl {
  Impl(const StackInfo &Info, StackPtxOptions Opts);

  llvm::Error execute(const Program &Prog, llvm::ArrayRef<Register> Regs,
                      llvm::ArrayRef<uint32_t> Requests);

  struct InstrInfo {
    bool Valid = false;
    /// 1-4 scalar args and one scalar ret, all on UniqueStack[0].
    bool Simple = false;
    /// No vector args or rets.
    bool Scalar = false;
    uint8_t NumUnique = 0;
    uint16_t NumArgElems = 0, NumRetElems = 0;
    uint32_t ArgElemBegin = 0, RetElemBegin = 0;
    uint16_t UniqueStack[4] = {0, 0, 0, 0};
    uint16_t UniqueCount[4] = {0, 0, 0, 0};
    /// `\t<ptx> ` at OpText[OpTextBegin]; LineMax bounds the line's length
    /// without the names of input registers.
    uint32_t OpTextBegin = 0, OpTextLen = 0, LineMax = 0;
  };
  /// What the traits say, and the length of the register's name.
  struct SpecialInfo {
    bool Valid = false;
    uint16_t Stack = 0;
    uint16_t NumVecElems = 0;
    uint32_t PtxLen = 0;
  };
  struct Frame {
    const uint64_t *Words;
    size_t Size;
    size_t Pc;
    uint32_t Routine; // ~0u for the main program
  };
  struct Slot {
    uint32_t Node;
    uint16_t Stack;
    uint32_t Gen; ///< valid if == StoreGen
  };
  /// Values per stack in StackData are preceded by this many spare slots,
  /// so an operand copy may read a fixed number of values below any stack.
  static constexpr uint32_t StackGuard = 4;

  llvm::Error run(const Program &Prog, llvm::ArrayRef<Register> Regs);
  /// Runs the common words (valid INPUT and CONSTANT, simple PTX, dup and
  /// swap; no push dropped) from \p Pc on while there is room for any of
  /// them.
  /// \returns \p Stop or the first word it left to execWord.
  const uint64_t *runCommon(const uint64_t *Pc, const uint64_t *Stop,
                            llvm::ArrayRef<Register> Regs);
  /// Executes \p W, read at \p F.pc - 1, on the member state: any word but
  /// RETURN and a call that is made.
  llvm::Error execWord(uint64_t W, const Frame &F, const Program &Prog,
                       llvm::ArrayRef<Register> Regs);
  llvm::Error resolveRequests(llvm::ArrayRef<Register> Regs,
                              llvm::ArrayRef<uint32_t> Requests);
  llvm::Error invalidWord(const Frame &F, const llvm::Twine &Msg);
  llvm::StringRef emit(llvm::ArrayRef<Register> Regs,
                       llvm::ArrayRef<uint32_t> Requests,
                       llvm::ArrayRef<Register> ZeroRegs);
  inline char *emitInstr(char *P, uint32_t N, llvm::ArrayRef<Register> Regs);
  /// The rets and args of instruction \p N when some are vectors.
  char *emitVectorOperands(char *P, uint32_t N, llvm::ArrayRef<Register> Regs);
  /// Writes operand \p N; room for \p After more characters remains.
  inline char *writeOperand(char *P, uint32_t N, llvm::ArrayRef<Register> Regs,
                            size_t After);
  /// `%_s<stack>_` always fits a piece.
  char *writeReg(char *P, uint16_t Stack, uint32_t Reg) const {
    return Tables.writeShortReg(P, Stack, Reg);
  }
  /// \returns the next register number of \p Stack.
  uint32_t newReg(uint16_t Stack) {
    uint32_t R = RegCounts[Stack]++;
    if (R == 0)
      UsedStacks[NumUsedStacks++] = Stack;
    return R;
  }
  char *writeMov(char *P, uint16_t Stack) const {
    return Tables.writeMovLine(P, Stack);
  }
  /// Literals in upper-case hex, as the reference prints them.
  char *writeLiteral(char *P, uint16_t Stack, uint32_t Bits) const {
    return expr::writePtxLiteral<true>(P, Tables.getLiteralKind(Stack), Bits);
  }
  void growNodes(uint32_t MoreNodes, uint32_t MoreOps);
  bool makeRoom(uint32_t MoreNodes, uint32_t MoreOps);

  const StackInfo &Info;
  StackPtxOptions Opts;
  StackPtxStats Stats;
  /// Opts.TargetSm at construction, which the tables below reflect.
  const uint32_t TargetSm;
  const expr::InstrSetTraits Traits;
  const expr::PtxStackTables Tables;

  // Derived from the tables once.
  std::vector<InstrInfo> InstrInfos;
  /// Per instruction, `stack << 16 | NumArgElems` if simple, else 0: the
  /// fast path's table.
  std::vector<uint32_t> SimpleInstrs;
  uint32_t NumInstrs = 0;
  /// traits.getElemStacks().
  const uint16_t *ElemStacks;
  std::vector<SpecialInfo> SpecialInfos;
  /// The opcode texts, padded so that 32 bytes can be read at any start.
  std::vector<char> OpText;
  /// Room for the longest possible declarations, which are written last
  /// in front of the body.
  size_t HeaderRoom = 0;
  /// The longest mov line of any stack, and one more.
  size_t MovMax = 0;

  // Per compile; cleared, never shrunk. nodes/operands are storage of which
  // the first numNodes/numOperands are used.
  uint32_t AllocatedStackSize = 0;
  uint32_t NumNodes = 0, NumOperands = 0;
  size_t NodeCap = 0, OperandCap = 0; ///< sizes of nodes/operands
  uint32_t NodeLimit = 0;             ///< min(NodeCap, MaxNodes)
  uint32_t StoreGen = 0;
  uint32_t MetaHeight = 0;
  std::vector<StackNode> Nodes;
  std::vector<uint32_t> Operands;
  std::vector<uint32_t> StackData;
  std::vector<uint32_t> Heights;
  std::vector<uint32_t> MetaStack;
  std::vector<Slot> Store;
  std::vector<Frame> Frames;
  std::vector<uint32_t> RequestNodes;
  /// Per request, a register holding a copy of its input operand taken
  /// before any request writes (None if no copy is needed).
  std::vector<uint32_t> RequestCopies;
  std::vector<uint32_t> Visit;
  std::vector<uint32_t> RegCounts;
  /// The stacks with registers, in the order of their first.
  std::vector<uint16_t> UsedStacks;
  uint32_t NumUsedStacks = 0;
  /// Instructions emitted so far by this emit(): each Instr node's Reg
  /// becomes its 1-based position.
  uint32_t EmitSeq = 0;
  expr::TextBuf Out;
};

StackPtxContext::Impl::Impl(const StackInfo &Info, StackPtxOptions Opts)
    : Info(Info), Opts(Opts), TargetSm(Opts.TargetSm),
      Traits(Info, Opts.TargetSm), Tables(Info, "\t", [](unsigned S) {
        return "%_s" + std::to_string(S) + "_";
      }) {
  // An instruction or special register the traits find malformed or too new
  // for the target stays invalid and its words are ignored, so a broken
  // table cannot crash us and the target costs nothing per word.
  assert(Tables.allRegPrefixesFit() && "writeReg copies one piece");
  ElemStacks = Traits.getElemStacks().data();
  InstrInfos.resize(Info.NumInstrs);
  // `\t<ptx> ` per instruction, and padding for the fixed-size copy.
  size_t TextSize = 32;
  for (uint32_t I = 0; I != Info.NumInstrs; ++I) {
    InstrInfos[I].OpTextBegin = TextSize - 32;
    InstrInfos[I].OpTextLen = std::strlen(Info.InstrPtx[I]) + 2;
    TextSize += InstrInfos[I].OpTextLen;
  }
  OpText.resize(TextSize);
  for (uint32_t I = 0; I != Info.NumInstrs; ++I) {
    char *T = &OpText[InstrInfos[I].OpTextBegin];
    size_t Len = InstrInfos[I].OpTextLen - 2;
    T[0] = '\t';
    std::memcpy(T + 1, Info.InstrPtx[I], Len);
    T[Len + 1] = ' ';
  }
  for (uint32_t I = 0; I != Info.NumInstrs; ++I) {
    const PtxInstrDesc &D = Info.Instrs[I];
    const expr::InstrTraits &T = Traits.getInstr(I);
    InstrInfo &Ii = InstrInfos[I];
    if (!T.isUsable())
      continue;
    Ii.ArgElemBegin = T.ArgElemBegin;
    Ii.NumArgElems = T.NumArgElems;
    Ii.RetElemBegin = T.RetElemBegin;
    Ii.NumRetElems = T.NumRetElems;
    // The distinct stacks of the operands and how many values each gives.
    for (unsigned E = 0; E != T.NumArgElems; ++E) {
      uint16_t St = ElemStacks[T.ArgElemBegin + E];
      unsigned U = 0;
      while (U != Ii.NumUnique && Ii.UniqueStack[U] != St)
        ++U;
      if (U == Ii.NumUnique) {
        Ii.UniqueStack[U] = St;
        ++Ii.NumUnique;
      }
      ++Ii.UniqueCount[U];
    }
    Ii.Valid = true;
    Ii.Scalar = !T.HasVectorArgs && !T.HasVectorRets;
    Ii.Simple = Ii.Scalar && Ii.NumUnique == 1 && D.NumRets == 1 &&
                ElemStacks[Ii.RetElemBegin] == Ii.UniqueStack[0];
    // Per element: ", " or "|", and a register or literal of at most 19
    // characters written with a 16-byte copy; "\n\t\t{" and "}" per vector;
    // 32 for the opcode copy, ";\n" and the final fixed-size copy.
    Ii.LineMax = Ii.OpTextLen + 34 * (Ii.NumArgElems + Ii.NumRetElems) +
                 5 * (D.NumArgs + D.NumRets) + 64;
  }
  SpecialInfos.resize(Info.NumSpecials);
  for (uint32_t I = 0; I != Info.NumSpecials; ++I) {
    const expr::SpecialTraits &T = Traits.getSpecials()[I];
    if (T.isUsable())
      SpecialInfos[I] = {true, T.Stack, T.NumVecElems,
                         uint32_t(std::strlen(Info.SpecialPtx[I]))};
  }
  HeaderRoom = 3;
  for (uint32_t S = 0; S != Info.NumStacks; ++S)
    HeaderRoom += Tables.getDeclHead(S).size() + 10 + 3;
  MovMax = Tables.getMaxMovLine() + 1;
  Heights.resize(Info.NumStacks);
  RegCounts.resize(Info.NumStacks);
  UsedStacks.resize(Info.NumStacks);
  NumInstrs = Info.NumInstrs;
  SimpleInstrs.reserve(NumInstrs);
  for (const InstrInfo &Ii : InstrInfos)
    SimpleInstrs.push_back(
        Ii.Simple ? uint32_t(Ii.UniqueStack[0]) << 16 | Ii.NumArgElems : 0);
}

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

bool StackPtxContext::Impl::makeRoom(uint32_t MoreNodes, uint32_t MoreOps) {
  if (uint64_t(NumNodes) + MoreNodes > Opts.MaxNodes)
    return false;
  growNodes(MoreNodes, MoreOps);
  return true;
}

void StackPtxContext::Impl::growNodes(uint32_t MoreNodes, uint32_t MoreOps) {
  if (NumNodes + MoreNodes > Nodes.size())
    Nodes.resize(std::max<size_t>(2 * Nodes.size() + 64, NumNodes + MoreNodes));
  if (NumOperands + MoreOps > Operands.size())
    Operands.resize(
        std::max<size_t>(2 * Operands.size() + 64, NumOperands + MoreOps));
  NodeCap = Nodes.size();
  OperandCap = Operands.size();
  NodeLimit = uint32_t(std::min<size_t>(NodeCap, Opts.MaxNodes));
}

Error StackPtxContext::Impl::invalidWord(const Frame &F, const Twine &Msg) {
  // f.pc is the index of the word after the invalid one.
  std::string Where = F.Routine == ~0u ? std::string("the main program")
                                       : ("routine " + Twine(F.Routine)).str();
  return makeError("word " + Twine(F.Pc - 1) + " of " + Where + ": " + Msg);
}

/// Writes a node with two 8-byte stores (field by field takes five, and
/// building it in a temporary first costs a store-forwarding stall).
static inline void setNode(StackNode &N, StackNode::NodeKind Kind,
                           uint16_t Stack, uint32_t Payload, uint32_t Aux,
                           uint32_t Reg) {
  static_assert(sizeof(StackNode) == 16 && offsetof(StackNode, Stack) == 2 &&
                    offsetof(StackNode, Payload) == 4 &&
                    offsetof(StackNode, Aux) == 8 &&
                    offsetof(StackNode, Reg) == 12,
                "StackNode layout");
  uint64_t Lo =
      uint64_t(Kind) | uint64_t(Stack) << 16 | uint64_t(Payload) << 32;
  uint64_t Hi = uint64_t(Aux) | uint64_t(Reg) << 32;
  char *P = reinterpret_cast<char *>(&N);
  std::memcpy(P, &Lo, 8);
  std::memcpy(P + 8, &Hi, 8);
}

Error StackPtxContext::Impl::execWord(uint64_t W, const Frame &F,
                                      const Program &Prog,
                                      ArrayRef<Register> Regs) {
  const uint32_t S = Opts.StackSize;
  const uint32_t NumStacks = Info.NumStacks;
  uint32_t *Sd = StackData.data() + StackGuard;
  uint32_t *Hts = Heights.data();
  uint16_t Aux = getWordAux(W);
  uint32_t Payload = getWordPayload(W);
  auto Push = [&](uint16_t St, uint32_t Node) {
    uint32_t H = Hts[St];
    if (H == S) {
      ++Stats.DroppedPushes;
      return;
    }
    Sd[size_t(St) * S + H] = Node;
    Hts[St] = H + 1;
  };
  // \returns false at the node limit; else there is room for k more nodes
  // and m more operands.
  auto Room = [&](uint32_t K, uint32_t M) {
    if (NumNodes + K <= NodeLimit && NumOperands + M <= OperandCap)
      return true;
    if (makeRoom(K, M))
      return true;
    Stats.HitNodeLimit = true;
    return false;
  };
  // An invalid word is skipped, or in strict mode named in the error.
  auto Bad = [&](const Twine &Msg) -> Error {
    if (!Opts.Strict) {
      ++Stats.IgnoredWords;
      return Error::success();
    }
    return invalidWord(F, Msg);
  };

  switch (getWordType(W)) {
  case WordType::Input: {
    if (Payload >= Regs.size())
      return Bad("input register index " + Twine(Payload) + " out of range (" +
                 Twine(Regs.size()) + " registers)");
    uint16_t StackIdx = Regs[Payload].StackIdx;
    if (StackIdx >= NumStacks)
      return Bad("input register '" + Regs[Payload].Name +
                 "' has stack index " + Twine(StackIdx) + " out of range");
    if (Room(1, 0)) {
      setNode(Nodes[NumNodes], StackNode::Input, StackIdx, Payload, 0, None);
      Push(StackIdx, NumNodes++);
    }
    return Error::success();
  }

  case WordType::Constant:
    if (Aux >= NumStacks)
      return Bad("constant stack index " + Twine(Aux) + " out of range (" +
                 Twine(NumStacks) + " stacks)");
    if (Room(1, 0)) {
      setNode(Nodes[NumNodes], StackNode::Constant, Aux, Payload, 0, None);
      Push(Aux, NumNodes++);
    }
    return Error::success();

  case WordType::Special: {
    if (Payload >= SpecialInfos.size() || !SpecialInfos[Payload].Valid) {
      if (uint32_t Sm = Traits.specialTooNewFor(Payload))
        return Bad("special register '%" + Twine(Info.SpecialPtx[Payload]) +
                   "' needs sm_" + Twine(Sm) + ", the target is sm_" +
                   Twine(TargetSm));
      return Bad("special register index " + Twine(Payload) +
                 " out of range (" + Twine(Info.NumSpecials) +
                 " special registers)");
    }
    const SpecialInfo &Si = SpecialInfos[Payload];
    unsigned N = Si.NumVecElems ? Si.NumVecElems : 1;
    if (!Room(N, 0))
      return Error::success();
    for (unsigned E = 0; E != N; ++E) {
      setNode(Nodes[NumNodes], StackNode::Special, Si.Stack, Payload,
              Si.NumVecElems ? E : None, None);
      Push(Si.Stack, NumNodes++);
    }
    return Error::success();
  }

  case WordType::Ptx: {
    if (Payload >= InstrInfos.size() || !InstrInfos[Payload].Valid) {
      if (uint32_t Sm = Traits.instrTooNewFor(Payload))
        return Bad("PTX instruction '" + Twine(Info.InstrPtx[Payload]) +
                   "' needs sm_" + Twine(Sm) + ", the target is sm_" +
                   Twine(TargetSm));
      return Bad("PTX instruction index " + Twine(Payload) + " out of range (" +
                 Twine(Info.NumInstrs) + " instructions)");
    }
    const InstrInfo &Ii = InstrInfos[Payload];
    bool Enough = true;
    for (unsigned U = 0; U != Ii.NumUnique; ++U)
      Enough &= Hts[Ii.UniqueStack[U]] >= Ii.UniqueCount[U];
    if (!Enough) {
      ++Stats.NoOpWords;
      return Error::success();
    }
    if (!Room(1 + Ii.NumRetElems, Ii.NumArgElems))
      return Error::success();
    uint32_t InstrNode = NumNodes;
    setNode(Nodes[InstrNode], StackNode::Instr, 0, Payload, NumOperands, 0);
    const uint16_t *ArgStacks = &ElemStacks[Ii.ArgElemBegin];
    for (unsigned E = 0, Ne = Ii.NumArgElems; E != Ne; ++E) {
      uint16_t St = ArgStacks[E];
      Operands[NumOperands + E] = Sd[size_t(St) * S + --Hts[St]];
    }
    NumOperands += Ii.NumArgElems;
    const uint16_t *RetStacks = &ElemStacks[Ii.RetElemBegin];
    unsigned Nr = Ii.NumRetElems;
    for (unsigned E = 0; E != Nr; ++E)
      setNode(Nodes[InstrNode + 1 + E], StackNode::Result, RetStacks[E], E,
              InstrNode, None);
    NumNodes = InstrNode + 1 + Nr;
    for (unsigned E = Nr; E-- != 0;)
      Push(RetStacks[E], InstrNode + 1 + E);
    return Error::success();
  }

  case WordType::MetaConstant:
    if (MetaHeight == S)
      ++Stats.DroppedPushes;
    else
      MetaStack[MetaHeight++] = Payload;
    return Error::success();

  case WordType::Meta: {
    if (Aux >= NumStacks || Payload >= NumMetaOps)
      return Bad(Aux >= NumStacks
                     ? "meta stack index " + Twine(Aux) + " out of range (" +
                           Twine(NumStacks) + " stacks)"
                     : "meta opcode " + Twine(Payload) + " out of range");
    uint32_t *Base = Sd + size_t(Aux) * S;
    uint32_t &Sp = Hts[Aux];
    MetaOp Op = MetaOp(Payload);
    // Depth-taking ops consume the meta constant even when they no-op.
    bool TakesDepth = Op == MetaOp::YankDup || Op == MetaOp::SwapWith ||
                      Op == MetaOp::Replace || Op == MetaOp::Drop;
    uint32_t D = 0;
    if (TakesDepth) {
      if (MetaHeight == 0) {
        ++Stats.NoOpWords;
        return Error::success();
      }
      D = MetaStack[--MetaHeight];
    }
    bool Done = true;
    switch (Op) {
    case MetaOp::Dup:
      if (Sp == 0 || Sp == S)
        Done = false;
      else
        Base[Sp] = Base[Sp - 1], ++Sp;
      break;
    case MetaOp::YankDup:
      if (Sp <= D || Sp == S)
        Done = false;
      else
        Base[Sp] = Base[Sp - 1 - D], ++Sp;
      break;
    case MetaOp::Swap:
      if (Sp < 2)
        Done = false;
      else
        std::swap(Base[Sp - 1], Base[Sp - 2]);
      break;
    case MetaOp::SwapWith:
      if (Sp <= D || Sp == S)
        Done = false;
      else
        std::swap(Base[Sp - 1], Base[Sp - 1 - D]);
      break;
    case MetaOp::Replace:
      if (Sp <= D || Sp == S)
        Done = false;
      else
        Base[Sp - 1 - D] = Base[Sp - 1], --Sp;
      break;
    case MetaOp::Drop:
      if (Sp <= D)
        Done = false;
      else
        Sp -= D;
      break;
    case MetaOp::Clear:
      Sp = 0;
      break;
    case MetaOp::Rotate:
      if (Sp < 3) {
        Done = false;
      } else {
        uint32_t C = Base[Sp - 1];
        Base[Sp - 1] = Base[Sp - 2];
        Base[Sp - 2] = Base[Sp - 3];
        Base[Sp - 3] = C;
      }
      break;
    case MetaOp::Reverse:
      std::reverse(Base, Base + Sp);
      break;
    }
    if (!Done)
      ++Stats.NoOpWords;
    return Error::success();
  }

  case WordType::Store:
    if (Aux >= NumStacks || Payload >= Opts.StoreSize)
      return Bad(Aux >= NumStacks
                     ? "store stack index " + Twine(Aux) + " out of range (" +
                           Twine(NumStacks) + " stacks)"
                     : "store slot " + Twine(Payload) + " out of range (" +
                           Twine(Opts.StoreSize) + " slots)");
    if (Hts[Aux] == 0) {
      ++Stats.NoOpWords;
      return Error::success();
    }
    Store[Payload] = {Sd[size_t(Aux) * S + --Hts[Aux]], Aux, StoreGen};
    return Error::success();

  case WordType::Load: {
    if (Payload >= Opts.StoreSize)
      return Bad("load slot " + Twine(Payload) + " out of range (" +
                 Twine(Opts.StoreSize) + " slots)");
    const Slot &Sl = Store[Payload];
    if (Sl.Gen != StoreGen)
      ++Stats.NoOpWords;
    else
      Push(Sl.Stack, Sl.Node);
    return Error::success();
  }

  case WordType::Routine:
    // run() makes the calls that are allowed.
    if (Payload >= Prog.Routines.size())
      return Bad("routine index " + Twine(Payload) + " out of range (" +
                 Twine(Prog.Routines.size()) + " routines)");
    ++Stats.RefusedCalls;
    return Error::success();

  case WordType::Return:
    llvm_unreachable("run() handles RETURN");

  case WordType::None:
  case WordType::ReservedRegister:
  case WordType::ReservedAstIdx:
  default:
    return Bad("unknown word type " + Twine(getWordTypeBits(W)));
  }
}

const uint64_t *StackPtxContext::Impl::runCommon(const uint64_t *Pc,
                                                 const uint64_t *Stop,
                                                 ArrayRef<Register> Regs) {
  // Make room for the next words at once: stopping where the room runs out
  // costs a slow word and a call per doubling.
  size_t Words = std::min<size_t>(Stop - Pc, 4096);
  if ((NumNodes + 2 * Words > NodeLimit ||
       NumOperands + 4 * Words > OperandCap) &&
      NumNodes < Opts.MaxNodes)
    growNodes(uint32_t(std::min<size_t>(2 * Words, Opts.MaxNodes - NumNodes)),
              uint32_t(4 * Words));
  // The state lives in locals: a store through the node or stack arrays
  // could alias the members and would force reloads.
  const uint32_t S = Opts.StackSize;
  uint32_t *Sd = StackData.data() + StackGuard;
  uint32_t *Hts = Heights.data();
  StackNode *Nd = Nodes.data();
  uint32_t *Ops = Operands.data();
  uint32_t Nn = NumNodes;
  size_t No = NumOperands;
  // Each word here takes at most two nodes and four operands: stop early
  // enough that no word needs to check for room.
  size_t Budget = std::min<size_t>((NodeLimit - Nn) / 2, (OperandCap - No) / 4);
  if (size_t(Stop - Pc) > Budget)
    Stop = Pc + Budget;
  for (; Pc != Stop; ++Pc) {
    uint64_t W = *Pc;
    uint32_t Payload = getWordPayload(W);
    // By frequency in typical programs: PTX, INPUT, CONSTANT, then meta.
    WordType Type = getWordType(W);
    if (Type == WordType::Ptx) {
      // The common shape: 1-4 scalars on one stack in, one scalar out.
      if (Payload >= NumInstrs || !SimpleInstrs[Payload])
        goto other;
      uint32_t St = SimpleInstrs[Payload] >> 16;
      uint32_t Na = SimpleInstrs[Payload] & 0xffff;
      uint32_t *Base = Sd + size_t(St) * S;
      uint32_t H = Hts[St];
      if (H < Na) {
        ++Stats.NoOpWords;
        continue;
      }
      // Copy four values whatever na is, without branches: operands has
      // room, and the reads below stack 0 land in the guard slots.
      const uint32_t *Top = Base + H;
      uint32_t V0 = Top[-1], V1 = Top[-2], V2 = Top[-3], V3 = Top[-4];
      uint32_t *O = Ops + No;
      O[0] = V0;
      O[1] = V1;
      O[2] = V2;
      O[3] = V3;
      StackNode *Np = Nd + Nn;
      setNode(Np[0], StackNode::Instr, 0, Payload, uint32_t(No), 0);
      // The Result's aux and reg as two 4-byte stores: one 8-byte store
      // needs a 64-bit immediate in a register, which this loop lacks.
      uint64_t ResLo = uint64_t(StackNode::Result) | uint64_t(St) << 16;
      std::memcpy(&Np[1], &ResLo, 8);
      Np[1].Aux = Nn;
      Np[1].Reg = None;
      // Popping na >= 1 values leaves room for the result.
      H -= Na;
      Base[H] = Nn + 1;
      Hts[St] = H + 1;
      No += Na;
      Nn += 2;
      continue;
    }
    if (Type == WordType::Input) {
      if (Payload >= Regs.size())
        goto other;
      uint16_t StackIdx = Regs[Payload].StackIdx;
      if (StackIdx >= Info.NumStacks)
        goto other;
      uint32_t H = Hts[StackIdx];
      if (H == S)
        goto other;
      setNode(Nd[Nn], StackNode::Input, StackIdx, Payload, 0, None);
      Sd[size_t(StackIdx) * S + H] = Nn++;
      Hts[StackIdx] = H + 1;
      continue;
    }
    if (Type == WordType::Constant) {
      uint16_t StackIdx = getWordAux(W);
      if (StackIdx >= Info.NumStacks)
        goto other;
      uint32_t H = Hts[StackIdx];
      if (H == S)
        goto other;
      setNode(Nd[Nn], StackNode::Constant, StackIdx, Payload, 0, None);
      Sd[size_t(StackIdx) * S + H] = Nn++;
      Hts[StackIdx] = H + 1;
      continue;
    }
    if (Type == WordType::Meta) {
      // dup and swap, which take no depth from the meta stack.
      uint16_t StackIdx = getWordAux(W);
      if (StackIdx >= Info.NumStacks)
        goto other;
      uint32_t *Base = Sd + size_t(StackIdx) * S;
      uint32_t H = Hts[StackIdx];
      if (Payload == uint32_t(MetaOp::Dup)) {
        if (H == 0 || H == S) {
          ++Stats.NoOpWords;
          continue;
        }
        Base[H] = Base[H - 1];
        Hts[StackIdx] = H + 1;
        continue;
      }
      if (Payload == uint32_t(MetaOp::Swap)) {
        if (H < 2) {
          ++Stats.NoOpWords;
          continue;
        }
        std::swap(Base[H - 1], Base[H - 2]);
        continue;
      }
      goto other;
    }
    goto other;
  }
other:
  NumNodes = Nn;
  NumOperands = uint32_t(No);
  return Pc;
}

Error StackPtxContext::Impl::run(const Program &Prog, ArrayRef<Register> Regs) {
  Stats = StackPtxStats();
  // Options may change between compiles; nothing is sized before this.
  using B = StackPtxBounds;
  if (LLVM_UNLIKELY(Opts.StackSize - 1 >= B::MaxStackSize ||
                    Opts.MaxNodes - 1 >= B::MaxNodes ||
                    Opts.MaxFrameDepth > B::MaxFrameDepth ||
                    Opts.StoreSize > B::MaxStoreSize ||
                    Opts.ExecutionLimit > B::MaxExecutionLimit))
    return checkStackPtxOptions(Opts);
  NumNodes = 0;
  NumOperands = 0;
  // Options may change between compiles.
  NodeLimit = uint32_t(std::min<size_t>(NodeCap, Opts.MaxNodes));
  if (AllocatedStackSize != Opts.StackSize) {
    StackData.assign(StackGuard + size_t(Info.NumStacks) * Opts.StackSize, 0);
    MetaStack.assign(Opts.StackSize, 0);
    AllocatedStackSize = Opts.StackSize;
  }
  std::fill(Heights.begin(), Heights.end(), 0);
  MetaHeight = 0;
  // Slots are valid only if stamped with this compile's generation, so
  // nothing is cleared per compile.
  if (Store.size() != Opts.StoreSize)
    Store.assign(Opts.StoreSize, Slot{0, 0, 0});
  if (++StoreGen == 0) {
    for (Slot &Sl : Store)
      Sl.Gen = 0;
    StoreGen = 1;
  }
  Frames.clear();
  uint32_t MaxDepth = Opts.MaxFrameDepth ? Opts.MaxFrameDepth : 1;
  // Frames grow with the calls actually made, not with the limit.
  Frames.reserve(std::min<uint32_t>(MaxDepth, 64));
  uint64_t Executed = 0;
  // The current frame lives in locals; `frames` holds its callers.
  Frame F = {Prog.Main.data(), Prog.Main.size(), 0, ~0u};
  const uint64_t *Pc = F.Words, *End = F.Words + F.Size;
  // Words are counted per segment: `stop` is the end of the frame or where
  // the execution limit runs out, whichever comes first, so the loop tests
  // one pointer per word.
  const uint64_t *SegStart = Pc, *Stop = End;
  auto SetStop = [&] {
    SegStart = Pc;
    uint64_t Rem = Opts.ExecutionLimit - Executed;
    Stop = uint64_t(End - Pc) <= Rem ? End : Pc + Rem;
  };
  SetStop();

  // runCommon runs the common words; the rest, frames and limits are here.
  for (;;) {
    Pc = runCommon(Pc, Stop, Regs);
    if (Pc != Stop) {
      uint64_t W = *Pc++;
      uint32_t Payload = getWordPayload(W);
      if (getWordType(W) == WordType::Return) {
        Executed += Pc - SegStart;
        SegStart = Pc;
        goto popFrame;
      }
      if (getWordType(W) == WordType::Routine &&
          Payload < Prog.Routines.size() && Frames.size() + 1 < MaxDepth) {
        ArrayRef<uint64_t> R = Prog.Routines[Payload];
        Executed += Pc - SegStart;
        F.Pc = Pc - F.Words;
        Frames.push_back(F);
        F = {R.data(), R.size(), 0, Payload};
        Pc = F.Words;
        End = F.Words + F.Size;
        SetStop();
        continue;
      }
      F.Pc = Pc - F.Words;
      if (Error E = execWord(W, F, Prog, Regs))
        return E;
      if (Stats.HitNodeLimit)
        break;
      continue;
    }
    Executed += Pc - SegStart;
    SegStart = Pc;
    if (Pc != End) {
      Stats.HitExecutionLimit = true;
      break;
    }
    // A routine that ends at its last word returns there: that counts as
    // one executed word, like the reference's RETURN word.
    if (!Frames.empty()) {
      if (Executed >= Opts.ExecutionLimit) {
        Stats.HitExecutionLimit = true;
        break;
      }
      ++Executed;
    }
  popFrame:
    if (Frames.empty())
      break;
    F = Frames.back();
    Frames.pop_back();
    Pc = F.Words + F.Pc;
    End = F.Words + F.Size;
    SetStop();
  }
  Executed += Pc - SegStart;
  Stats.ExecutedWords = Executed;
  Stats.NumNodes = NumNodes;
  return Error::success();
}

Error StackPtxContext::Impl::resolveRequests(ArrayRef<Register> Regs,
                                             ArrayRef<uint32_t> Requests) {
  RequestNodes.resize(Requests.size());
  // The k-th request for a stack gets its k-th value from the top. RegCounts,
  // zero outside emit(), counts the values taken so far.
  uint32_t *Taken = RegCounts.data();
  const uint32_t *Sd = StackData.data() + StackGuard;
  const uint32_t S = Opts.StackSize;
  auto Valid = [&](uint32_t R) {
    return R < Regs.size() && Regs[R].StackIdx < Info.NumStacks;
  };
  uint32_t Unsatisfied = 0, I = 0, E = Requests.size();
  for (; I != E; ++I) {
    uint32_t R = Requests[I];
    uint32_t Node = None;
    if (!Valid(R)) {
      if (Opts.Strict)
        break;
    } else {
      uint16_t St = Regs[R].StackIdx;
      uint32_t K = Taken[St]++;
      if (K < Heights[St])
        Node = Sd[size_t(St) * S + Heights[St] - 1 - K];
    }
    Unsatisfied += Node == None;
    RequestNodes[I] = Node;
  }
  for (uint32_t K = 0; K != I; ++K)
    if (Valid(Requests[K]))
      Taken[Regs[Requests[K]].StackIdx] = 0;
  Stats.UnsatisfiedRequests = Unsatisfied;
  if (I == E)
    return Error::success();
  uint32_t R = Requests[I];
  return makeError(R >= Regs.size()
                       ? "request " + Twine(I) + ": register index " +
                             Twine(R) + " out of range (" + Twine(Regs.size()) +
                             " registers)"
                       : "request " + Twine(I) + ": register '" + Regs[R].Name +
                             "' has stack index " + Twine(Regs[R].StackIdx) +
                             " out of range");
}

Error StackPtxContext::Impl::execute(const Program &Prog,
                                     ArrayRef<Register> Regs,
                                     ArrayRef<uint32_t> Requests) {
  if (Error E = run(Prog, Regs))
    return E;
  return resolveRequests(Regs, Requests);
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//
//
// Text is written through a raw cursor `p`; each line first makes room for
// its longest possible text (TextBuf::ensure), so the writers below neither
// check nor grow. Registers and pieces are written with fixed 16-byte copies,
// so room includes that overshoot.

char *StackPtxContext::Impl::writeOperand(char *P, uint32_t N,
                                          ArrayRef<Register> Regs,
                                          size_t After) {
  const StackNode &Nd = Nodes[N];
  switch (Nd.Kind) {
  case StackNode::Input: {
    // Names are the only text of unbounded length.
    StringRef Name = Regs[Nd.Payload].Name;
    P = Out.ensure(P, 1 + Name.size() + After);
    *P = '%';
    return writeName(P + 1, Name);
  }
  case StackNode::Constant:
    if (Nd.Reg == None)
      return writeLiteral(P, Nd.Stack, Nd.Payload);
    return writeReg(P, Nd.Stack, Nd.Reg);
  case StackNode::Special:
  case StackNode::Result:
    return writeReg(P, Nd.Stack, Nd.Reg);
  case StackNode::Instr:
    break;
  }
  llvm_unreachable("an instruction node is never an operand");
}

char *StackPtxContext::Impl::emitInstr(char *P, uint32_t N,
                                       ArrayRef<Register> Regs) {
  StackNode *Nd = Nodes.data();
  StackNode &In = Nd[N];
  In.Reg = ++EmitSeq;
  ++Stats.EmittedInstrs;
  const InstrInfo &Ii = InstrInfos[In.Payload];
  P = Out.ensure(P, Ii.LineMax);
  const char *Op = &OpText[Ii.OpTextBegin];
  std::memcpy(P, Op, 32);
  if (Ii.OpTextLen > 32)
    std::memcpy(P + 32, Op + 32, Ii.OpTextLen - 32);
  P += Ii.OpTextLen;
  if (!Ii.Scalar)
    return emitVectorOperands(P, N, Regs);
  for (unsigned E = 0; E != Ii.NumRetElems; ++E) {
    if (E)
      *P++ = '|';
    StackNode &Res = Nd[N + 1 + E];
    Res.Reg = newReg(Res.Stack);
    P = writeReg(P, Res.Stack, Res.Reg);
  }
  const uint32_t *Ops = &Operands[In.Aux];
  for (unsigned E = 0; E != Ii.NumArgElems; ++E) {
    std::memcpy(P, ", ", 2);
    P = writeOperand(P + 2, Ops[E], Regs, Ii.LineMax);
  }
  std::memcpy(P, ";\n", 2);
  return P + 2;
}

char *StackPtxContext::Impl::emitVectorOperands(char *P, uint32_t N,
                                                ArrayRef<Register> Regs) {
  // Vector operands: `\n\t\t{e0, e1, ...}`.
  StackNode *Nd = Nodes.data();
  const StackNode &In = Nd[N];
  const InstrInfo &Ii = InstrInfos[In.Payload];
  const PtxInstrDesc &D = Info.Instrs[In.Payload];
  uint32_t Elem = 0;
  for (unsigned R = 0; R != D.NumRets; ++R) {
    if (R)
      *P++ = '|';
    unsigned Vec = Info.ArgTypes[D.Rets[R]].NumVecElems;
    unsigned Cnt = Vec ? Vec : 1;
    if (Vec) {
      std::memcpy(P, "\n\t\t{", 4);
      P += 4;
    }
    for (unsigned E = 0; E != Cnt; ++E, ++Elem) {
      StackNode &Res = Nd[N + 1 + Elem];
      Res.Reg = newReg(Res.Stack);
      if (E) {
        std::memcpy(P, ", ", 2);
        P += 2;
      }
      P = writeReg(P, Res.Stack, Res.Reg);
    }
    if (Vec)
      *P++ = '}';
  }
  const uint32_t *Ops = &Operands[In.Aux];
  Elem = 0;
  for (unsigned A = 0; A != D.NumArgs; ++A) {
    std::memcpy(P, ", ", 2);
    P += 2;
    unsigned Vec = Info.ArgTypes[D.Args[A]].NumVecElems;
    unsigned Cnt = Vec ? Vec : 1;
    if (Vec) {
      std::memcpy(P, "\n\t\t{", 4);
      P += 4;
    }
    for (unsigned E = 0; E != Cnt; ++E, ++Elem) {
      if (E) {
        std::memcpy(P, ", ", 2);
        P += 2;
      }
      P = writeOperand(P, Ops[Elem], Regs, Ii.LineMax);
    }
    if (Vec)
      *P++ = '}';
  }
  std::memcpy(P, ";\n", 2);
  return P + 2;
}

StringRef StackPtxContext::Impl::emit(ArrayRef<Register> Regs,
                                      ArrayRef<uint32_t> Requests,
                                      ArrayRef<Register> ZeroRegs) {
  // RegCounts is all zero here and is put back so at the end.
  NumUsedStacks = 0;
  EmitSeq = 0;
  // The declarations depend on the register counts, known last: the body
  // starts after room for them, and they are written backwards in front.
  Out.clear();
  char *P = Out.ensure(Out.end(), HeaderRoom + 256) + HeaderRoom;

  // Every node is pushed at most once per expansion of the instruction
  // using it, and each instruction is expanded at most once.
  size_t MaxVisit = Requests.size() + NumNodes + NumOperands;
  if (Visit.size() < MaxVisit)
    Visit.resize(MaxVisit);
  uint32_t *Vis = Visit.data();
  size_t Top = 0;
  for (uint32_t N : RequestNodes)
    if (N != None)
      Vis[Top++] = N;
  StackNode *Nd = Nodes.data();
  const uint8_t *Inl = Tables.getInlineLiterals();
  while (Top) {
    uint32_t N = Vis[--Top];
    StackNode &X = Nd[N];
    switch (X.Kind) {
    case StackNode::Input:
      continue;
    case StackNode::Special: {
      if (X.Reg != None)
        continue;
      uint32_t Len = SpecialInfos[X.Payload].PtxLen;
      P = Out.ensure(P, MovMax + 64 + Len);
      X.Reg = newReg(X.Stack);
      P = writeMov(P, X.Stack);
      P = writeReg(P, X.Stack, X.Reg);
      std::memcpy(P, ", %", 3);
      std::memcpy(P + 3, Info.SpecialPtx[X.Payload], Len);
      P += 3 + Len;
      if (X.Aux != None) {
        P[0] = '.';
        P[1] = "xyzw"[X.Aux & 3];
        P += 2;
      }
      std::memcpy(P, ";\n", 2);
      P += 2;
      continue;
    }
    case StackNode::Constant:
      // Only literals that cannot be immediate operands are visited.
      if (X.Reg != None || Inl[X.Stack])
        continue;
      P = Out.ensure(P, MovMax + 64);
      X.Reg = newReg(X.Stack);
      P = writeMov(P, X.Stack);
      P = writeReg(P, X.Stack, X.Reg);
      std::memcpy(P, ", ", 2);
      P = writeLiteral(P + 2, X.Stack, X.Payload);
      std::memcpy(P, ";\n", 2);
      P += 2;
      continue;
    case StackNode::Instr:
      // Pushed back under its operands, which are all emitted now.
      if (X.Reg == 0)
        P = emitInstr(P, N, Regs);
      continue;
    case StackNode::Result:
      N = X.Aux;
      break;
    }
    if (Nd[N].Reg != 0)
      continue;
    const uint32_t *Ops = &Operands[Nd[N].Aux];
    size_t Mark = Top;
    Vis[Top++] = N;
    for (unsigned E = InstrInfos[Nd[N].Payload].NumArgElems; E-- != 0;) {
      // A result gets its register when its instruction is emitted.
      const StackNode &O = Nd[Ops[E]];
      bool Done = O.Reg != None || O.Kind == StackNode::Input ||
                  (O.Kind == StackNode::Constant && Inl[O.Stack]);
      if (!Done)
        Vis[Top++] = Ops[E];
    }
    if (Top != Mark + 1)
      continue;
    Top = Mark;
    P = emitInstr(P, N, Regs);
  }

  // The requests' movs are a parallel assignment: a request that reads an
  // input register which an earlier request overwrites (a mod variable
  // requested before the read) reads a copy taken before the first write.
  auto SameRegister = [&](uint32_t A, uint32_t B) {
    return A == B ||
           (A < Regs.size() && B < Regs.size() && Regs[A].Name == Regs[B].Name);
  };
  // An unsatisfied request is zeroed unless another request of the same
  // register gets a value (`.requests { z z }` with one value). The names
  // with a value are collected only when some request has none.
  StringSet<> Valued;
  if (Opts.ZeroUnsatisfied &&
      llvm::is_contained(
          ArrayRef<uint32_t>(RequestNodes.data(), Requests.size()), None))
    for (uint32_t K = 0, E = Requests.size(); K != E; ++K)
      if (RequestNodes[K] != None && Requests[K] < Regs.size())
        Valued.insert(Regs[Requests[K]].Name);
  auto Zeroes = [&](uint32_t I) {
    uint32_t R = Requests[I];
    return RequestNodes[I] == None && Opts.ZeroUnsatisfied &&
           Regs[R].Kind != RegKind::Mod && !Valued.count(Regs[R].Name);
  };
  auto Writes = [&](uint32_t I) {
    uint32_t R = Requests[I];
    if (R >= Regs.size() || Regs[R].StackIdx >= Info.NumStacks)
      return false;
    return RequestNodes[I] != None || Zeroes(I);
  };
  bool AnyCopies = false;
  if (Requests.size() > 1)
    RequestCopies.assign(Requests.size(), None);
  for (uint32_t I = 1, E = Requests.size(); I < E; ++I) {
    uint32_t N = RequestNodes[I];
    if (N == None || !Writes(I) || Nd[N].Kind != StackNode::Input)
      continue;
    uint32_t Src = Nd[N].Payload;
    for (uint32_t K = 0; K != I; ++K) {
      uint32_t R = Requests[K];
      if (!Writes(K) || !SameRegister(R, Src))
        continue;
      uint16_t St = Nd[N].Stack;
      RequestCopies[I] = newReg(St);
      AnyCopies = true;
      P = Out.ensure(P, MovMax + 64);
      P = writeMov(P, St);
      P = writeReg(P, St, RequestCopies[I]);
      std::memcpy(P, ", ", 2);
      P = writeOperand(P + 2, N, Regs, 64);
      std::memcpy(P, ";\n", 2);
      P += 2;
      break;
    }
  }

  // `mov.<type> %name, ` with room for the source operand after it.
  auto WriteMovTo = [&](char *P, uint16_t S, StringRef Name) {
    P = Out.ensure(P, MovMax + 64 + Name.size());
    P = writeMov(P, S);
    *P = '%';
    P = writeName(P + 1, Name);
    std::memcpy(P, ", ", 2);
    return P + 2;
  };
  uint32_t Zeroed = 0;
  for (uint32_t I = 0, E = Requests.size(); I != E; ++I) {
    uint32_t R = Requests[I];
    uint32_t N = RequestNodes[I];
    if (R >= Regs.size() || Regs[R].StackIdx >= Info.NumStacks)
      continue;
    if (N == None && !Zeroes(I))
      continue;
    uint16_t S = Regs[R].StackIdx;
    P = WriteMovTo(P, S, Regs[R].Name);
    if (N == None) {
      ++Zeroed;
      P = writeLiteral(P, S, 0);
    } else if (AnyCopies && RequestCopies[I] != None) {
      P = writeReg(P, Nd[N].Stack, RequestCopies[I]);
    } else {
      P = writeOperand(P, N, Regs, 64);
    }
    std::memcpy(P, ";\n", 2);
    P += 2;
  }
  Stats.ZeroedRequests = Zeroed;
  for (const Register &Z : ZeroRegs) {
    if (Z.StackIdx >= Info.NumStacks)
      continue;
    P = writeLiteral(WriteMovTo(P, Z.StackIdx, Z.Name), Z.StackIdx, 0);
    std::memcpy(P, ";\n", 2);
    P += 2;
  }
  P = Out.ensure(P, 3);
  std::memcpy(P, "\t}", 3);
  Out.setEnd(P + 2);

  // Declarations in stack order; usually one or two stacks are used.
  uint16_t *Used = UsedStacks.data();
  if (NumUsedStacks > 1)
    std::sort(Used, Used + NumUsedStacks);
  char *Q = Out.begin() + HeaderRoom;
  for (uint32_t I = NumUsedStacks; I-- != 0;) {
    uint16_t S = Used[I];
    uint32_t C = RegCounts[S];
    RegCounts[S] = 0;
    Q -= 3;
    std::memcpy(Q, ">;\n", 3);
    do {
      *--Q = char('0' + C % 10);
      C /= 10;
    } while (C);
    const std::string &Head = Tables.getDeclHead(S);
    Q -= Head.size();
    std::memcpy(Q, Head.data(), Head.size());
  }
  Q -= 3;
  std::memcpy(Q, "\t{\n", 3);
  return StringRef(Q, Out.end() - Q);
}

//===----------------------------------------------------------------------===//
// StackPtxContext
//===----------------------------------------------------------------------===//

StackPtxContext::StackPtxContext(const StackInfo &Info, StackPtxOptions Opts)
    : PImpl(std::make_unique<Impl>(Info, Opts)) {}
StackPtxContext::~StackPtxContext() = default;
StackPtxContext::StackPtxContext(StackPtxContext &&) = default;
StackPtxContext &StackPtxContext::operator=(StackPtxContext &&) = default;

Expected<StringRef> StackPtxContext::compile(const Program &Prog,
                                             ArrayRef<Register> Regs,
                                             ArrayRef<uint32_t> Requests,
                                             ArrayRef<Register> ZeroRegs) {
  Impl &Im = *PImpl;
  assert(Im.Opts.TargetSm == Im.TargetSm &&
         "the target is baked into the context's tables at construction");
  if (Error E = Im.execute(Prog, Regs, Requests))
    return E;
  return Im.emit(Regs, Requests, ZeroRegs);
}

Error StackPtxContext::execute(const Program &Prog, ArrayRef<Register> Regs,
                               ArrayRef<uint32_t> Requests) {
  return PImpl->execute(Prog, Regs, Requests);
}

const StackPtxStats &StackPtxContext::getStats() const { return PImpl->Stats; }
const StackPtxOptions &StackPtxContext::getOptions() const {
  return PImpl->Opts;
}
StackPtxOptions &StackPtxContext::getOptions() { return PImpl->Opts; }
const StackInfo &StackPtxContext::getInfo() const { return PImpl->Info; }
uint32_t StackPtxContext::getTargetSm() const { return PImpl->TargetSm; }
ArrayRef<StackNode> StackPtxContext::getNodes() const {
  return ArrayRef<StackNode>(PImpl->Nodes.data(), PImpl->NumNodes);
}
ArrayRef<uint32_t> StackPtxContext::getOperands() const {
  return ArrayRef<uint32_t>(PImpl->Operands.data(), PImpl->NumOperands);
}
ArrayRef<uint32_t> StackPtxContext::getRequestNodes() const {
  return PImpl->RequestNodes;
}
unsigned StackPtxContext::getNumArgElems(uint32_t Instr) const {
  return PImpl->InstrInfos[Instr].NumArgElems;
}
uint16_t StackPtxContext::getRetElemStack(uint32_t Instr, unsigned Elem) const {
  return PImpl->ElemStacks[PImpl->InstrInfos[Instr].RetElemBegin + Elem];
}

bool stack::isRegisterName(StringRef Name) {
  if (Name.empty() || !(isAlpha(Name[0]) || Name[0] == '_' || Name[0] == '$'))
    return false;
  return all_of(Name,
                [](char C) { return isAlnum(C) || C == '_' || C == '$'; });
}

bool stack::isReservedRegisterName(StringRef Name) {
  if (!Name.consume_front("_s"))
    return false;
  auto [stackNo, n] = Name.split('_');
  auto Digits = [](StringRef D) {
    return !D.empty() && all_of(D, [](char C) { return isDigit(C); });
  };
  return Digits(stackNo) && Digits(n);
}

Expected<std::string> stack::compileStackPtx(const StackInfo &Info,
                                             const Program &Prog,
                                             ArrayRef<Register> Regs,
                                             ArrayRef<uint32_t> Requests,
                                             const StackPtxOptions &Opts) {
  // One context per thread and table: building one costs microseconds.
  thread_local std::unique_ptr<StackPtxContext> Ctx;
  if (!Ctx || &Ctx->getInfo() != &Info || Ctx->getTargetSm() != Opts.TargetSm)
    Ctx = std::make_unique<StackPtxContext>(Info, Opts);
  Ctx->getOptions() = Opts;
  Expected<StringRef> Text = Ctx->compile(Prog, Regs, Requests);
  if (!Text)
    return Text.takeError();
  return Text->str();
}
