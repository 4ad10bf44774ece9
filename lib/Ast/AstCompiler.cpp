//===- AstCompiler.cpp - AST PTX to PTX stub compiler ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// 1. Build: run each output's words on a value stack of node indices,
///    checking every word; nodes are hash-consed, so equal sub-expressions
///    are one node. Routines run inline on a frame stack.
/// 2. Mark the nodes the outputs reach (operands have lower indices).
/// 3. Number registers in node order, then write the declarations, one
///    line per live instruction (and per special register or literal that
///    needs a register), and one `mov` per output.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstPtx.h"

#include "mmptx/Expr/ExprDag.h"
#include "mmptx/Expr/InstrTraits.h"
#include "mmptx/Expr/Literal.h"
#include "mmptx/Expr/PtxEmitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <vector>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ast;
using expr::InstrSet;

char AstError::ID = 0;

static const char *const ResultNames[NumAstResults] = {
    "AST_PTX_SUCCESS",
    "AST_PTX_ERROR_INTERNAL",
    "AST_PTX_ERROR_INSUFFICIENT_BUFFER",
    "AST_PTX_ERROR_INVALID_VALUE",
    "AST_PTX_ERROR_BAD_INSTRUCTION_MAYBE_FORGOT_RETURN",
    "AST_PTX_ERROR_INPUT_IDX_OUT_OF_BOUNDS",
    "AST_PTX_ERROR_PTX_INSTRUCTION_IDX_OUT_OF_BOUNDS",
    "AST_PTX_ERROR_STACK_OVERFLOW",
    "AST_PTX_ERROR_STACK_UNDERFLOW",
    "AST_PTX_ERROR_TOO_MANY_ARGS",
    "AST_PTX_ERROR_UNSUPPORTED_INSTRUCTION",
    "AST_PTX_ERROR_ROUTINE_IDX_OUT_OF_BOUNDS",
    "AST_PTX_ERROR_ROUTINE_ARG_IDX_OUT_OF_BOUNDS",
    "AST_PTX_ERROR_ROUTINE_DEPTH_EXCEEDED",
    "AST_PTX_ERROR_TYPE_MISMATCH",
    "AST_PTX_ERROR_SPECIAL_REGISTER_IDX_OUT_OF_BOUNDS",
    "AST_PTX_ERROR_STACK_IDX_OUT_OF_BOUNDS",
    "AST_PTX_ERROR_LIMIT_EXCEEDED",
};

const char *ast::getAstResultName(uint32_t Result) {
  return Result < NumAstResults ? ResultNames[Result]
                                : "AST_PTX_ERROR_INVALID_RESULT_ENUM";
}

void AstError::log(raw_ostream &Os) const {
  if (Pos.Routine != ~0u)
    Os << "routine " << Pos.Routine << ", word " << Pos.Word << ": ";
  else if (Pos.Expr != ~0u)
    Os << "expression " << Pos.Expr << ", word " << Pos.Word << ": ";
  Os << Msg << " (" << getAstResultName(uint32_t(Result)) << ")";
}

AstResult ast::takeAstResult(Error E, std::string *Message) {
  AstResult Result = AstResult::Success;
  handleAllErrors(
      std::move(E),
      [&](const AstError &Ae) {
        Result = Ae.getResult();
        if (Message)
          *Message = toString(make_error<AstError>(Ae));
      },
      [&](const ErrorInfoBase &Other) {
        Result = AstResult::Internal;
        if (Message)
          *Message = Other.message();
      });
  return Result;
}

std::vector<uint32_t> ast::getReferenceAstInstrMap(const InstrSet &Info) {
  static const char *const Names[] = {
      "copysign.f32",         "add.ftz.f32",        "sub.ftz.f32",
      "mul.ftz.f32",          "fma.rn.ftz.f32",     "div.approx.ftz.f32",
      "abs.ftz.f32",          "neg.ftz.f32",        "min.ftz.f32",
      "max.ftz.f32",          "rcp.approx.ftz.f32", "sqrt.approx.ftz.f32",
      "rsqrt.approx.ftz.f32", "sin.approx.ftz.f32", "cos.approx.ftz.f32",
      "lg2.approx.ftz.f32",   "ex2.approx.ftz.f32", "tanh.approx.f32"};
  std::vector<uint32_t> Map;
  for (const char *N : Names) {
    int I = Info.findInstr(N);
    if (I < 0)
      return {};
    Map.push_back(uint32_t(I));
  }
  return Map;
}

//===----------------------------------------------------------------------===//
// Context state
//===----------------------------------------------------------------------===//

namespace {
/// What the compiler needs of an instruction, derived from its traits.
struct InstrInfo {
  enum : uint8_t { Ok, BadTables, MultiResult, TooNew } Status = BadTables;
  uint16_t RetStack = 0;
  uint16_t NumArgElems = 0;
  uint32_t ArgElemBegin = 0; ///< into Impl::ArgElemStacks
  bool HasVectorArgs = false;
};
struct Frame {
  const uint64_t *Words;
  size_t Size;
  size_t Pc;
  uint32_t Routine; ///< ~0u for an expression
  uint32_t ArgBase, NumArgs, EntryHeight;
};
} // namespace

struct AstPtxContext::Impl {
  using Piece = expr::TextPiece;
  Impl(const InstrSet &Info, AstPtxOptions O);

  Error build(const AstProgram &Prog, ArrayRef<AstVar> Inputs);
  /// Share: Opts.ShareSubexpressions. Presized: the DAG and the value
  /// stack have room for every word, and the executed-word limit cannot be
  /// reached (no routines), so neither is checked per word.
  template <bool Share, bool Presized>
  Error run(uint32_t ExprIdx, const AstOutput &Output, const AstProgram &Prog,
            ArrayRef<AstVar> Inputs);
  StringRef emit(const AstProgram &Prog, ArrayRef<AstVar> Inputs);

  char *ensure(char *P, size_t N) { return Out.ensure(P, N); }
  char *writeReg(char *P, uint16_t Stack, uint32_t Reg) const {
    return Tables.writeReg(P, Stack, Reg);
  }
  inline char *writeOperand(char *P, uint32_t N, ArrayRef<AstVar> Inputs);

  /// The tables the emitter reads, as local raw pointers: a char store
  /// through the output cursor may alias any member, which would make the
  /// compiler reload each of them after every store.
  struct Writer {
    const Node *Nodes;
    const uint32_t *RegOf;
    const expr::PtxStackTables &Tables;
    const expr::LiteralKind *LitKinds;
    const AstVar *Inputs;
    Writer(const Impl &Im, ArrayRef<AstVar> In)
        : Nodes(Im.Dag.getNodes().data()), RegOf(Im.RegOf.data()),
          Tables(Im.Tables), LitKinds(Im.Tables.getLiteralKinds()),
          Inputs(In.data()) {}
    char *reg(char *P, uint16_t Stack, uint32_t R) const {
      return Tables.writeReg(P, Stack, R);
    }
    char *operand(char *P, uint32_t N) const {
      const Node &Nd = Nodes[N];
      if (Nd.Kind == AstWordType::Input) {
        *P = '%';
        return expr::writeName(P + 1, Inputs[Nd.Payload].Name);
      }
      uint32_t R = RegOf[N];
      if (R == ~0u)
        return expr::writePtxLiteral<false>(P, LitKinds[Nd.Stack], Nd.Payload);
      return reg(P, Nd.Stack, R);
    }
  };

  const InstrSet &Info;
  AstPtxOptions Opts;
  const expr::InstrSetTraits Traits;
  /// Lower-case literals, `%ast<N>` for stack 0 and `%ast_s<S>_<N>` for
  /// the others, no indent: the reference's AST PTX text.
  const expr::PtxStackTables Tables;
  std::vector<InstrInfo> InstrInfos;
  /// Per PTX word payload (through Opts.InstrMap when set): instructions
  /// with 1-4 scalar operands and one scalar result the target has, the
  /// common case run() checks without the general path.
  struct FastInstr {
    uint32_t Instr;
    uint16_t RetStack;
    uint16_t NumArgs; ///< 0: not fast
    uint16_t ArgStacks[4];
  };
  std::vector<FastInstr> FastInstrs;
  /// traits.getElemStacks().
  const uint16_t *ArgElemStacks;
  /// `<opcode> ` of each instruction at OpText[OpBegin[i]], followed by 32
  /// bytes of padding so that 32 bytes may be copied from any start.
  std::vector<char> OpText;
  std::vector<uint32_t> OpBegin, OpLen;

  // Per compile; cleared, never shrunk.
  expr::ExprDag<Node, AstWordType::Ptx> Dag;
  std::vector<uint32_t> InputNode, InputGen;
  std::vector<uint32_t> Vals;
  std::vector<uint32_t> Args;
  std::vector<Frame> Frames;
  std::vector<uint32_t> OutputNodes;
  std::vector<uint32_t> RegOf; ///< per node: register or ~0u; live marks
  /// Per node, the text of its uses as an operand, `, <operand>`, copied
  /// whole; Long when it does not fit.
  struct OperandText {
    static constexpr uint8_t Long = 0xff;
    char Text[24];
    uint8_t Len;
  };
  std::vector<OperandText> OperandTexts;
  /// Per stack, `, <register prefix>`.
  std::vector<OperandText> RegHeadText;
  /// Decimal digits of 0-999 in the low bytes, their count in the top one
  /// (copied along, past the end of the text).
  static const std::array<uint32_t, 1000> DigitText;
  std::vector<uint32_t> RegCounts;
  std::vector<uint32_t> OutputCopies;
  uint64_t Executed = 0;
  uint32_t Emitted = 0;
  /// Whether a routine was called: only then may nodes be dead (arguments
  /// a routine does not read).
  bool SawCall = false;
  /// Room before the body for the declarations, written last.
  size_t HeaderRoom = 0;
  std::vector<char> Header; ///< HeaderRoom bytes
  /// The longest input name of the compile being emitted.
  size_t MaxNameLen = 0;
  expr::TextBuf Out;
};

AstPtxContext::Impl::Impl(const InstrSet &Info, AstPtxOptions O)
    : Info(Info), Opts(O), Traits(Info, O.TargetSm),
      Tables(Info, "", [](unsigned S) {
        return S == 0 ? std::string("%ast")
                      : "%ast_s" + std::to_string(S) + "_";
      }) {
  ArgElemStacks = Traits.getElemStacks().data();
  InstrInfos.resize(Info.NumInstrs);
  for (uint32_t I = 0; I != Info.NumInstrs; ++I) {
    const expr::InstrTraits &T = Traits.getInstr(I);
    InstrInfo &Ii = InstrInfos[I];
    if (!T.WellFormed)
      continue;
    Ii.ArgElemBegin = T.ArgElemBegin;
    Ii.NumArgElems = T.NumArgElems;
    Ii.HasVectorArgs = T.HasVectorArgs;
    Ii.RetStack = Traits.getRetElemStacks(I)[0];
    if (Info.Instrs[I].NumRets != 1 || T.HasVectorRets)
      Ii.Status = InstrInfo::MultiResult;
    else if (T.TooNew)
      Ii.Status = InstrInfo::TooNew;
    else
      Ii.Status = InstrInfo::Ok;
  }
  for (uint32_t S = 0; S != Info.NumStacks; ++S)
    HeaderRoom += Tables.getDeclHead(S).size() + 16;
  RegCounts.resize(Info.NumStacks);
  HeaderRoom += 2;
  Header.resize(HeaderRoom);
  for (uint32_t S = 0; S != Info.NumStacks; ++S) {
    const std::string &Rp = Tables.getRegPrefix(S);
    OperandText T = {};
    T.Len = OperandText::Long;
    if (Rp.size() + 2 <= 12) {
      std::memcpy(T.Text, ", ", 2);
      std::memcpy(T.Text + 2, Rp.data(), Rp.size());
      T.Len = uint8_t(Rp.size() + 2);
    }
    RegHeadText.push_back(T);
  }
  auto FastOf = [&](uint32_t I) {
    FastInstr Fi = {I, 0, 0, {0, 0, 0, 0}};
    if (I >= Info.NumInstrs)
      return Fi;
    const InstrInfo &Ii = InstrInfos[I];
    if (Ii.Status != InstrInfo::Ok || Ii.HasVectorArgs || Ii.NumArgElems == 0 ||
        Ii.NumArgElems > 4 || Ii.NumArgElems > Opts.MaxArgs)
      return Fi;
    Fi.RetStack = Ii.RetStack;
    Fi.NumArgs = Ii.NumArgElems;
    for (unsigned A = 0; A != Ii.NumArgElems; ++A)
      Fi.ArgStacks[A] = ArgElemStacks[Ii.ArgElemBegin + A];
    return Fi;
  };
  if (Opts.InstrMap.empty())
    for (uint32_t I = 0; I != Info.NumInstrs; ++I)
      FastInstrs.push_back(FastOf(I));
  else
    for (uint32_t I : Opts.InstrMap)
      FastInstrs.push_back(FastOf(I));
  for (uint32_t I = 0; I != Info.NumInstrs; ++I) {
    StringRef Op = Info.InstrPtx[I] ? Info.InstrPtx[I] : "";
    OpBegin.push_back(uint32_t(OpText.size()));
    OpLen.push_back(uint32_t(Op.size() + 1));
    OpText.insert(OpText.end(), Op.begin(), Op.end());
    OpText.push_back(' ');
  }
  OpText.resize(OpText.size() + 32, '\0');
}

//===----------------------------------------------------------------------===//
// Build
//===----------------------------------------------------------------------===//

Error AstPtxContext::Impl::build(const AstProgram &Prog,
                                 ArrayRef<AstVar> Inputs) {
  OutputNodes.clear();
  SawCall = false;
  Executed = 0;
  if (Dag.clear()) // generations wrapped: forget every stamp
    std::fill(InputGen.begin(), InputGen.end(), 0);
  if (InputGen.size() < Inputs.size()) {
    InputGen.resize(Inputs.size(), 0);
    InputNode.resize(Inputs.size());
  }
  // Without routines every word makes at most one node and one value, and
  // every operand is a value some word made: room for the words is room
  // for everything.
  bool Presized = false;
  if (Prog.Routines.empty()) {
    uint64_t Words = 0;
    for (const AstOutput &Out : Prog.Outputs)
      Words += std::min<uint64_t>(Out.Words.size(), Opts.MaxWords);
    if (Words <= Opts.MaxExecutedWords && Words < (1u << 30)) {
      Presized = true;
      Dag.reserve(size_t(Words));
      // + 4: the DAG copies 4 operands from the stack's top.
      size_t Depth = std::min<uint64_t>(Words, Opts.MaxStackDepth) + 4;
      if (Vals.size() < Depth)
        Vals.resize(Depth);
    }
  }
  using RunFn = Error (Impl::*)(uint32_t, const AstOutput &, const AstProgram &,
                                ArrayRef<AstVar>);
  RunFn Fn =
      Opts.ShareSubexpressions
          ? (Presized ? &Impl::run<true, true> : &Impl::run<true, false>)
          : (Presized ? &Impl::run<false, true> : &Impl::run<false, false>);
  for (uint32_t O = 0, E = uint32_t(Prog.Outputs.size()); O != E; ++O) {
    const AstOutput &Out = Prog.Outputs[O];
    if (Out.Var.StackIdx >= Info.NumStacks)
      return make_error<AstError>(
          AstResult::StackIdxOutOfBounds, AstWordPos{O, ~0u, ~0u},
          ("output '" + Out.Var.Name + "' has stack index " +
           Twine(Out.Var.StackIdx) + ", out of range")
              .str());
    if (Error Err = (this->*Fn)(O, Out, Prog, Inputs))
      return Err;
  }
  return Error::success();
}

template <bool Share, bool Presized>
Error AstPtxContext::Impl::run(uint32_t ExprIdx, const AstOutput &Output,
                               const AstProgram &Prog,
                               ArrayRef<AstVar> Inputs) {
  // The expression's frame; with routines, frames holds it and theirs.
  Frame Top = {Output.Words.data(), Output.Words.size(), 0, ~0u, 0, 0, 0};
  Frame *F = &Top;
  if (!Presized) {
    Args.clear();
    Frames.clear();
    Frames.push_back(Top);
    F = &Frames.back();
  }
  const uint32_t MaxDepth = Opts.MaxStackDepth;
  // The current frame's cursor and end, and the executed-word budget, in
  // locals; Frame::Pc is written back only around calls.
  const size_t MaxWords = Opts.MaxWords;
  const uint64_t *Wp = F->Words;
  const uint64_t *Wend = F->Words + std::min(F->Size, MaxWords);
  const uint64_t MaxExecuted = Opts.MaxExecutedWords;
  uint64_t Exec = Executed;
  auto Fail = [&](AstResult R, const Twine &Msg) {
    Executed = Exec;
    return make_error<AstError>(
        R, AstWordPos{ExprIdx, F->Routine, uint32_t(Wp - F->Words - 1)},
        Msg.str());
  };
  auto StackName = [&](uint16_t S) { return StringRef(Info.StackNames[S]); };
  // The value stack: vs[0, sp), grown on demand up to maxDepth.
  if (Vals.size() < 64)
    Vals.resize(64);
  uint32_t *Vs = Vals.data();
  uint32_t Sp = 0;
  size_t Cap = Vals.size();
  auto Push = [&](uint32_t N) -> bool {
    if (Presized) { // vals has room for min(words, MaxDepth) + 1 values
      if (__builtin_expect(Sp >= MaxDepth, 0))
        return false;
      Vs[Sp++] = N;
      return true;
    }
    if (__builtin_expect(Sp >= Cap, 0)) {
      if (Sp >= MaxDepth)
        return false;
      Vals.resize(std::min<size_t>(size_t(MaxDepth), Cap * 2));
      Vs = Vals.data();
      Cap = Vals.size();
    }
    if (__builtin_expect(Sp >= MaxDepth, 0))
      return false;
    Vs[Sp++] = N;
    return true;
  };
  const FastInstr *Fast = FastInstrs.data();
  const uint32_t NumFast = uint32_t(FastInstrs.size());
  auto Overflow = [&] {
    return Fail(AstResult::StackOverflow,
                "more than " + Twine(MaxDepth) +
                    " values on the stack (maxStackDepth)");
  };
  for (;;) {
    if (__builtin_expect(Wp == Wend, 0)) {
      // Located just past the last word (no pointer arithmetic: an empty
      // program's words may be null).
      Executed = Exec;
      return make_error<AstError>(
          AstResult::BadInstructionMaybeForgotReturn,
          AstWordPos{ExprIdx, F->Routine, uint32_t(Wend - F->Words)},
          ((F->Routine == ~0u ? Twine("expression") : Twine("routine")) +
           " has no RETURN within " +
           Twine(std::min<uint64_t>(F->Size, MaxWords)) + " words")
              .str());
    }
    uint64_t W = *Wp++;
    if (!Presized && __builtin_expect(++Exec > MaxExecuted, 0))
      return Fail(AstResult::LimitExceeded,
                  "more than " + Twine(Opts.MaxExecutedWords) +
                      " words executed (maxExecutedWords)");
    uint16_t Aux = getAstWordAux(W);
    uint32_t Payload = getAstWordPayload(W);
    uint32_t Height = Presized ? Sp : Sp - F->EntryHeight;
    if (getAstWordType(W) == AstWordType::Ptx && Payload < NumFast) {
      const FastInstr &Fi = Fast[Payload];
      // A fast instruction has 1-4 operands; NumArgs 0 marks the others,
      // which a word of 0 operands must not match.
      if (unsigned(Aux) - 1u < 4u && Fi.NumArgs == Aux && Height >= Aux) {
        const uint32_t *Ops = Vs + Sp - Aux;
        bool Typed = true;
        for (unsigned I = 0; I != Aux; ++I)
          Typed &= Dag[Ops[I]].Stack == Fi.ArgStacks[I];
        if (Typed) {
          uint32_t N = Dag.template addInstr<Share, Presized>(
              Fi.Instr, Fi.RetStack, Ops, Aux);
          Sp -= Aux;
          Vs[Sp++] = N;
          continue;
        }
      }
      // Anything else gets the full checks and their errors.
    }
    switch (getAstWordType(W)) {
    case AstWordType::Input: {
      if (Payload >= Inputs.size())
        return Fail(AstResult::InputIdxOutOfBounds,
                    "input " + Twine(Payload) + " out of range (" +
                        Twine(Inputs.size()) + " inputs)");
      uint16_t S = Inputs[Payload].StackIdx;
      if (S >= Info.NumStacks)
        return Fail(AstResult::StackIdxOutOfBounds,
                    "input '" + Inputs[Payload].Name + "' has stack index " +
                        Twine(S) + ", out of range");
      uint32_t N;
      if (InputGen[Payload] == Dag.getGeneration()) {
        N = InputNode[Payload];
      } else {
        N = Dag.template addLeaf<Presized>(AstWordType::Input, S, Payload, 0);
        InputGen[Payload] = Dag.getGeneration();
        InputNode[Payload] = N;
      }
      if (!Push(N))
        return Overflow();
      break;
    }
    case AstWordType::Constant:
      if (Aux >= Info.NumStacks)
        return Fail(AstResult::StackIdxOutOfBounds,
                    "constant on stack " + Twine(Aux) + ", out of range (" +
                        Twine(Info.NumStacks) + " stacks)");
      if (!Push(Dag.template addLeaf<Presized>(AstWordType::Constant, Aux,
                                               Payload, 0)))
        return Overflow();
      break;
    case AstWordType::Special: {
      if (Payload >= Info.NumSpecials ||
          !Traits.getSpecials()[Payload].WellFormed)
        return Fail(AstResult::SpecialRegisterIdxOutOfBounds,
                    "special register " + Twine(Payload) + " out of range (" +
                        Twine(Info.NumSpecials) + ")");
      const expr::SpecialTraits &T = Traits.getSpecials()[Payload];
      if (Aux >= std::max<unsigned>(T.NumVecElems, 1))
        return Fail(AstResult::InvalidValue,
                    "special register '" + Twine(Info.SpecialNames[Payload]) +
                        "' has no element " + Twine(Aux));
      if (uint32_t Sm = Traits.specialTooNewFor(Payload))
        return Fail(AstResult::UnsupportedInstruction,
                    "special register '" + Twine(Info.SpecialNames[Payload]) +
                        "' needs sm_" + Twine(Sm) + "; the target is sm_" +
                        Twine(Opts.TargetSm));
      if (!Push(Dag.template addLeaf<Presized>(AstWordType::Special, T.Stack,
                                               Payload,
                                               T.NumVecElems ? Aux : ~0u)))
        return Overflow();
      break;
    }
    case AstWordType::Ptx: {
      uint32_t Instr = Payload;
      bool Known = true;
      if (!Opts.InstrMap.empty())
        Known = Payload < Opts.InstrMap.size() &&
                (Instr = Opts.InstrMap[Payload]) < Info.NumInstrs;
      else
        Known = Instr < Info.NumInstrs;
      const InstrInfo *Ii = Known ? &InstrInfos[Instr] : nullptr;
      if (Aux > Opts.MaxArgs && !(Ii && Aux == Ii->NumArgElems))
        return Fail(AstResult::TooManyArgs,
                    "instruction word with " + Twine(Aux) +
                        " operands, more than " + Twine(Opts.MaxArgs) +
                        " (maxArgs)");
      if (!Ii || Ii->Status == InstrInfo::BadTables)
        return Fail(AstResult::PtxInstructionIdxOutOfBounds,
                    "instruction " + Twine(Payload) + " out of range (" +
                        Twine(Opts.InstrMap.empty() ? Info.NumInstrs
                                                    : Opts.InstrMap.size()) +
                        " instructions)");
      auto Name = [&] { return StringRef(Info.InstrNames[Instr]); };
      if (Ii->Status == InstrInfo::MultiResult)
        return Fail(AstResult::UnsupportedInstruction,
                    "'" + Name() +
                        "' has more than one result value; an expression "
                        "node has one");
      if (Ii->Status == InstrInfo::TooNew)
        return Fail(AstResult::UnsupportedInstruction,
                    "'" + Name() + "' needs sm_" +
                        Twine(Info.InstrMinSm[Instr]) + "; the target is sm_" +
                        Twine(Opts.TargetSm));
      if (Aux != Ii->NumArgElems)
        return Fail(AstResult::InvalidValue,
                    "'" + Name() + "' takes " + Twine(Ii->NumArgElems) +
                        " operands, the word says " + Twine(Aux));
      if (Height < Aux)
        return Fail(AstResult::StackUnderflow,
                    "'" + Name() + "' needs " + Twine(Aux) + " operands, " +
                        Twine(Height) + " on the stack");
      const uint32_t *Ops = Vs + Sp - Aux;
      const uint16_t *Want = ArgElemStacks + Ii->ArgElemBegin;
      for (unsigned I = 0; I != Aux; ++I)
        if (Dag[Ops[I]].Stack != Want[I])
          return Fail(AstResult::TypeMismatch,
                      "operand " + Twine(I) + " of '" + Name() + "' is " +
                          StackName(Dag[Ops[I]].Stack) + ", expected " +
                          StackName(Want[I]));
      uint32_t N =
          Dag.template addInstr<Share, Presized>(Instr, Ii->RetStack, Ops, Aux);
      Sp -= Aux;
      Vs[Sp++] = N; // where its operands were: room is certain
      break;
    }
    case AstWordType::Routine: {
      if (Aux > Opts.MaxArgs)
        return Fail(AstResult::TooManyArgs, "routine call with " + Twine(Aux) +
                                                " arguments, more than " +
                                                Twine(Opts.MaxArgs) +
                                                " (maxArgs)");
      if (Payload >= Prog.Routines.size())
        return Fail(AstResult::RoutineIdxOutOfBounds,
                    "routine " + Twine(Payload) + " out of range (" +
                        Twine(Prog.Routines.size()) + " routines)");
      if (Frames.size() > Opts.MaxRoutineDepth)
        return Fail(AstResult::RoutineDepthExceeded,
                    "routine calls nested more than " +
                        Twine(Opts.MaxRoutineDepth) +
                        " deep (maxRoutineDepth)");
      if (Height < Aux)
        return Fail(AstResult::StackUnderflow,
                    "routine " + Twine(Payload) + " needs " + Twine(Aux) +
                        " arguments, " + Twine(Height) + " on the stack");
      uint32_t ArgBase = uint32_t(Args.size());
      Args.insert(Args.end(), Vs + Sp - Aux, Vs + Sp);
      Sp -= Aux;
      ArrayRef<uint64_t> Body = Prog.Routines[Payload];
      SawCall = true;
      F->Pc = size_t(Wp - F->Words);
      Frames.push_back(
          {Body.data(), Body.size(), 0, Payload, ArgBase, Aux, Sp});
      F = &Frames.back();
      Wp = F->Words;
      Wend = F->Words + std::min(F->Size, MaxWords);
      break;
    }
    case AstWordType::RoutineArg:
      if (F->Routine == ~0u)
        return Fail(AstResult::RoutineArgIdxOutOfBounds,
                    "routine argument " + Twine(Payload) +
                        " outside a routine");
      if (Payload >= F->NumArgs)
        return Fail(AstResult::RoutineArgIdxOutOfBounds,
                    "routine argument " + Twine(Payload) + " out of range (" +
                        Twine(F->NumArgs) + " arguments)");
      if (!Push(Args[F->ArgBase + Payload]))
        return Overflow();
      break;
    case AstWordType::Return: {
      if (Height != 1)
        return Fail(
            AstResult::InvalidValue,
            (F->Routine == ~0u ? Twine("expression") : Twine("routine")) +
                " returns with " + Twine(Height) +
                " values on its stack, not 1");
      if (F->Routine != ~0u) {
        Args.resize(F->ArgBase);
        Frames.pop_back();
        F = &Frames.back();
        Wp = F->Words + F->Pc;
        Wend = F->Words + std::min(F->Size, MaxWords);
        break;
      }
      uint32_t N = Vs[Sp - 1];
      if (Dag[N].Stack != Output.Var.StackIdx)
        return Fail(AstResult::TypeMismatch,
                    "the value is " + StackName(Dag[N].Stack) + "; output '" +
                        Output.Var.Name + "' is " +
                        StackName(Output.Var.StackIdx));
      OutputNodes.push_back(N);
      Executed = Exec;
      return Error::success();
    }
    default:
      return Fail(AstResult::BadInstructionMaybeForgotReturn,
                  "word type " + Twine(uint16_t(W)) +
                      " is not an AST PTX word");
    }
  }
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

inline char *AstPtxContext::Impl::writeOperand(char *P, uint32_t N,
                                               ArrayRef<AstVar> Inputs) {
  return Writer{*this, Inputs}.operand(P, N);
}

static constexpr uint32_t Dead = ~0u, LiveNoReg = ~0u - 1;

const std::array<uint32_t, 1000> AstPtxContext::Impl::DigitText = [] {
  std::array<uint32_t, 1000> T = {};
  for (uint32_t V = 0; V != 1000; ++V) {
    char D[4] = {};
    D[3] = char(expr::writeUInt(D, V) - D);
    std::memcpy(&T[V], D, 4);
  }
  return T;
}();

StringRef AstPtxContext::Impl::emit(const AstProgram &Prog,
                                    ArrayRef<AstVar> Inputs) {
  MaxNameLen = 0;
  for (const AstVar &V : Inputs)
    MaxNameLen = std::max(MaxNameLen, V.Name.size());
  // Liveness (only a routine call can leave nodes dead); registers are
  // numbered in node order as the lines are written.
  uint32_t NumNodes = Dag.size();
  if (RegOf.size() < NumNodes) {
    RegOf.resize(NumNodes);
    OperandTexts.resize(NumNodes);
  }
  if (SawCall)
    Dag.markLive(OutputNodes, RegOf.data(), Dead, LiveNoReg);
  // RegCounts is all 0 between compiles; UsedStacks has a bit per stack
  // with a register (numbered mod 64), so the declarations visit only those.
  uint64_t UsedStacks = 0;
  Emitted = 0;

  // The body goes after room for the declarations, which are written last.
  Out.clear();
  char *P = Out.ensure(Out.begin(), HeaderRoom + 256) + HeaderRoom;
  // Tables in locals: the char stores below may alias any member.
  const uint8_t *Inl = Tables.getInlineLiterals();
  const Node *NodeP = Dag.getNodes().data();
  uint32_t *RegP = RegOf.data();
  uint32_t *Counts = RegCounts.data();
  const uint32_t *OpLenP = OpLen.data(), *OpBeginP = OpBegin.data();
  const char *OpTextP = OpText.data();
  const InstrInfo *InfoP = InstrInfos.data();
  const uint32_t *OperandP = Dag.getOperands().data();
  const bool Call = SawCall;
  const size_t OperandRoom = MaxNameLen + 40;
  const Writer W(*this, Inputs);
  const expr::LiteralKind *LitKinds = Tables.getLiteralKinds();
  OperandText *TextP = OperandTexts.data();
  const OperandText *RegHeads = RegHeadText.data();
  for (uint32_t N = 0; N != NumNodes; ++N) {
    if (Call && RegP[N] == Dead)
      continue;
    const Node &Nd = NodeP[N];
    OperandText &T = TextP[N];
    if (Nd.Kind == AstWordType::Input ||
        (Nd.Kind == AstWordType::Constant && Inl[Nd.Stack])) {
      RegP[N] = ~0u;
      // `, <operand>` once: every use copies it whole.
      if (Nd.Kind == AstWordType::Input) {
        StringRef Name = Inputs[Nd.Payload].Name;
        T.Len = OperandText::Long;
        if (Name.size() + 3 <= sizeof(T.Text)) {
          std::memcpy(T.Text, ", %", 3);
          std::memcpy(T.Text + 3, Name.data(), Name.size());
          T.Len = uint8_t(Name.size() + 3);
        }
        continue;
      }
      // A literal: at most 18 characters (f64).
      char Tmp[32];
      std::memcpy(Tmp, ", ", 2);
      char *E =
          expr::writePtxLiteral<false>(Tmp + 2, LitKinds[Nd.Stack], Nd.Payload);
      std::memcpy(T.Text, Tmp, sizeof(T.Text));
      T.Len = uint8_t(E - Tmp);
      continue;
    }
    uint32_t R = RegP[N] = Counts[Nd.Stack]++;
    UsedStacks |= uint64_t(1) << (Nd.Stack & 63);
    // `, <register>`: the head piece, then the number's digits.
    const OperandText &Head = RegHeads[Nd.Stack];
    if (LLVM_LIKELY(Head.Len <= 12 && R < 1000)) {
      std::memcpy(T.Text, Head.Text, sizeof(T.Text));
      uint32_t Digits = DigitText[R];
      std::memcpy(T.Text + Head.Len, &Digits, 4);
      T.Len = uint8_t(Head.Len + (Digits >> 24));
    } else {
      T.Len = OperandText::Long;
    }
    if (Nd.Kind == AstWordType::Ptx) {
      uint32_t Len = OpLenP[Nd.Payload];
      const char *Op = OpTextP + OpBeginP[Nd.Payload];
      // Room for the whole line: every operand is at most a literal, a
      // register or an input name.
      P = ensure(P, Len + 64 + size_t(Nd.NumOps) * OperandRoom);
      if (Len <= 32)
        std::memcpy(P, Op, 32);
      else
        std::memcpy(P, Op, Len);
      P += Len;
      if (LLVM_LIKELY(T.Len != OperandText::Long)) {
        std::memcpy(P, T.Text + 2, sizeof(T.Text) - 2);
        P += T.Len - 2;
      } else {
        P = W.reg(P, Nd.Stack, R);
      }
      if (!InfoP[Nd.Payload].HasVectorArgs) {
        const uint32_t *Ops = OperandP + Nd.Aux;
        for (uint32_t I = 0, E = Nd.NumOps; I != E; ++I) {
          const OperandText &O = TextP[Ops[I]];
          if (LLVM_LIKELY(O.Len != OperandText::Long)) {
            std::memcpy(P, O.Text, sizeof(O.Text));
            P += O.Len;
          } else {
            std::memcpy(P, ", ", 2);
            P = W.operand(P + 2, Ops[I]);
          }
        }
      } else {
        const expr::PtxInstrDesc &D = Info.Instrs[Nd.Payload];
        uint32_t E = 0;
        for (unsigned A = 0; A != D.NumArgs; ++A) {
          unsigned V = Info.ArgTypes[D.Args[A]].NumVecElems;
          P = ensure(P, 64);
          std::memcpy(P, ", ", 2);
          P += 2;
          if (!V) {
            P = writeOperand(P, OperandP[Nd.Aux + E++], Inputs);
            continue;
          }
          *P++ = '{';
          for (unsigned K = 0; K != V; ++K) {
            P = ensure(P, 64);
            if (K) {
              std::memcpy(P, ", ", 2);
              P += 2;
            }
            P = writeOperand(P, OperandP[Nd.Aux + E++], Inputs);
          }
          *P++ = '}';
        }
      }
      ++Emitted;
    } else {
      // A special register or a literal that cannot be an operand.
      const std::string &Mov = Tables.getMovLine(Nd.Stack);
      P = ensure(P, Mov.size() + 96);
      std::memcpy(P, Mov.data(), Mov.size());
      P = writeReg(P + Mov.size(), Nd.Stack, R);
      std::memcpy(P, ", ", 2);
      P += 2;
      if (Nd.Kind == AstWordType::Constant) {
        P = expr::writePtxLiteral<false>(P, Tables.getLiteralKind(Nd.Stack),
                                         Nd.Payload);
      } else {
        StringRef Sp = Info.SpecialPtx[Nd.Payload];
        P = ensure(P, Sp.size() + 16);
        *P++ = '%';
        std::memcpy(P, Sp.data(), Sp.size());
        P += Sp.size();
        if (Nd.Aux != ~0u) {
          P[0] = '.';
          P[1] = "xyzw"[Nd.Aux & 3];
          P += 2;
        }
      }
    }
    std::memcpy(P, ";\n", 2);
    P += 2;
  }
  // An output that copies an input variable which an earlier output
  // overwrites reads a copy taken before the movs.
  uint32_t NumOut = uint32_t(OutputNodes.size());
  OutputCopies.assign(NumOut, ~0u);
  for (uint32_t O = 1; O < NumOut; ++O) {
    const Node &Nd = Dag[OutputNodes[O]];
    if (Nd.Kind != AstWordType::Input)
      continue;
    StringRef Name = Inputs[Nd.Payload].Name;
    for (uint32_t J = 0; J != O; ++J)
      if (Prog.Outputs[J].Var.Name == Name) {
        OutputCopies[O] = RegCounts[Nd.Stack]++;
        UsedStacks |= uint64_t(1) << (Nd.Stack & 63);
        break;
      }
  }
  for (uint32_t O = 0; O != NumOut; ++O) {
    if (OutputCopies[O] == ~0u)
      continue;
    uint32_t N = OutputNodes[O];
    const std::string &Mov = Tables.getMovLine(Dag[N].Stack);
    P = ensure(P, Mov.size() + MaxNameLen + 64);
    std::memcpy(P, Mov.data(), Mov.size());
    P = writeReg(P + Mov.size(), Dag[N].Stack, OutputCopies[O]);
    std::memcpy(P, ", ", 2);
    P = writeOperand(P + 2, N, Inputs);
    std::memcpy(P, ";\n", 2);
    P += 2;
  }
  for (uint32_t O = 0; O != NumOut; ++O) {
    const AstVar &V = Prog.Outputs[O].Var;
    uint32_t N = OutputNodes[O];
    P = ensure(P, Tables.getMaxMovLine() + V.Name.size() + MaxNameLen + 64);
    P = Tables.writeMovLine(P, V.StackIdx);
    *P++ = '%';
    P = expr::writeName(P, V.Name);
    std::memcpy(P, ", ", 2);
    P += 2;
    if (OutputCopies[O] != ~0u)
      P = writeReg(P, Dag[N].Stack, OutputCopies[O]);
    else
      P = writeOperand(P, N, Inputs);
    std::memcpy(P, ";\n", 2);
    P += 2;
  }
  P = ensure(P, 2);
  *P++ = '}';
  size_t End = size_t(P - Out.begin());
  // Written into a scratch of HeaderRoom bytes, then moved before the body.
  char *Hp = Header.data();
  std::memcpy(Hp, "{\n", 2);
  Hp += 2;
  auto Declare = [&](uint32_t S) {
    if (!RegCounts[S])
      return;
    const std::string &Head = Tables.getDeclHead(S);
    std::memcpy(Hp, Head.data(), Head.size());
    Hp = expr::writeUInt(Hp + Head.size(), RegCounts[S]);
    std::memcpy(Hp, ">;\n", 3);
    Hp += 3;
    RegCounts[S] = 0;
  };
  if (Info.NumStacks <= 64) {
    for (; UsedStacks; UsedStacks &= UsedStacks - 1)
      Declare(uint32_t(llvm::countTrailingZeros(UsedStacks)));
  } else {
    for (uint32_t S = 0; S != Info.NumStacks; ++S)
      Declare(S);
  }
  size_t HeaderSize = size_t(Hp - Header.data());
  size_t Begin = HeaderRoom - HeaderSize;
  std::memcpy(Out.begin() + Begin, Header.data(), HeaderSize);
  Out.setEnd(Out.begin() + End);
  return StringRef(Out.data() + Begin, End - Begin);
}

//===----------------------------------------------------------------------===//
// AstPtxContext
//===----------------------------------------------------------------------===//

AstPtxContext::AstPtxContext(const InstrSet &Info, AstPtxOptions Opts)
    : PImpl(std::make_unique<Impl>(Info, Opts)) {}
AstPtxContext::~AstPtxContext() = default;

Error AstPtxContext::build(const AstProgram &Prog, ArrayRef<AstVar> Inputs) {
  return PImpl->build(Prog, Inputs);
}

Expected<StringRef> AstPtxContext::compile(const AstProgram &Prog,
                                           ArrayRef<AstVar> Inputs) {
  if (Error E = PImpl->build(Prog, Inputs))
    return E;
  return PImpl->emit(Prog, Inputs);
}

ArrayRef<AstPtxContext::Node> AstPtxContext::getNodes() const {
  return PImpl->Dag.getNodes();
}
ArrayRef<uint32_t> AstPtxContext::getOperands() const {
  return PImpl->Dag.getOperands();
}
ArrayRef<uint32_t> AstPtxContext::getOutputNodes() const {
  return PImpl->OutputNodes;
}
uint32_t AstPtxContext::getNumEmittedInstrs() const { return PImpl->Emitted; }
const AstPtxOptions &AstPtxContext::getOptions() const { return PImpl->Opts; }
AstPtxOptions &AstPtxContext::getOptions() { return PImpl->Opts; }
const InstrSet &AstPtxContext::getInfo() const { return PImpl->Info; }

bool ast::isReservedAstName(StringRef Name) {
  if (!Name.consume_front("ast"))
    return false;
  if (Name.consume_front("_s"))
    return true;
  return !Name.empty() &&
         llvm::all_of(Name, [](char C) { return C >= '0' && C <= '9'; });
}

Expected<std::string> ast::compileAstPtx(const InstrSet &Info,
                                         const AstProgram &Prog,
                                         ArrayRef<AstVar> Inputs,
                                         const AstPtxOptions &Opts) {
  AstPtxContext Ctx(Info, Opts);
  Expected<StringRef> Text = Ctx.compile(Prog, Inputs);
  if (!Text)
    return Text.takeError();
  return Text->str();
}
