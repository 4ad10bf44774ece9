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

#include <vector>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ast;
using stack::StackInfo;

char AstError::ID = 0;

static const char *const resultNames[NumAstResults] = {
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

const char *ast::getAstResultName(uint32_t result) {
  return result < NumAstResults ? resultNames[result]
                                : "AST_PTX_ERROR_INVALID_RESULT_ENUM";
}

void AstError::log(raw_ostream &os) const {
  if (pos.routine != ~0u)
    os << "routine " << pos.routine << ", word " << pos.word << ": ";
  else if (pos.expr != ~0u)
    os << "expression " << pos.expr << ", word " << pos.word << ": ";
  os << msg << " (" << getAstResultName(uint32_t(result)) << ")";
}

AstResult ast::takeAstResult(Error e, std::string *message) {
  AstResult r = AstResult::Success;
  handleAllErrors(
      std::move(e),
      [&](const AstError &ae) {
        r = ae.getResult();
        if (message)
          *message = toString(make_error<AstError>(ae));
      },
      [&](const ErrorInfoBase &other) {
        r = AstResult::Internal;
        if (message)
          *message = other.message();
      });
  return r;
}

std::vector<uint32_t> ast::getReferenceAstInstrMap(const StackInfo &info) {
  static const char *const names[] = {
      "copysign.f32",         "add.ftz.f32",        "sub.ftz.f32",
      "mul.ftz.f32",          "fma.rn.ftz.f32",     "div.approx.ftz.f32",
      "abs.ftz.f32",          "neg.ftz.f32",        "min.ftz.f32",
      "max.ftz.f32",          "rcp.approx.ftz.f32", "sqrt.approx.ftz.f32",
      "rsqrt.approx.ftz.f32", "sin.approx.ftz.f32", "cos.approx.ftz.f32",
      "lg2.approx.ftz.f32",   "ex2.approx.ftz.f32", "tanh.approx.f32"};
  std::vector<uint32_t> map;
  for (const char *n : names) {
    int i = info.findInstr(n);
    if (i < 0)
      return {};
    map.push_back(uint32_t(i));
  }
  return map;
}

//===----------------------------------------------------------------------===//
// Context state
//===----------------------------------------------------------------------===//

namespace {
/// What the compiler needs of an instruction, derived from its traits.
struct InstrInfo {
  enum : uint8_t { Ok, BadTables, MultiResult, TooNew } status = BadTables;
  uint16_t retStack = 0;
  uint16_t numArgElems = 0;
  uint32_t argElemBegin = 0; ///< into Impl::argElemStacks
  bool hasVectorArgs = false;
};
struct Frame {
  const uint64_t *words;
  size_t size;
  size_t pc;
  uint32_t routine; ///< ~0u for an expression
  uint32_t argBase, numArgs, entryHeight;
};
} // namespace

struct AstPtxContext::Impl {
  using Piece = expr::TextPiece;
  Impl(const StackInfo &info, AstPtxOptions o);

  Error build(const AstProgram &prog, ArrayRef<AstVar> inputs);
  Error run(uint32_t expr, const AstOutput &out, const AstProgram &prog,
            ArrayRef<AstVar> inputs);
  StringRef emit(const AstProgram &prog, ArrayRef<AstVar> inputs);

  char *ensure(char *p, size_t n) { return out.ensure(p, n); }
  char *writeReg(char *p, uint16_t stack, uint32_t reg) const {
    return tables.writeReg(p, stack, reg);
  }
  inline char *writeOperand(char *p, uint32_t n, ArrayRef<AstVar> inputs);

  /// The tables the emitter reads, as local raw pointers: a char store
  /// through the output cursor may alias any member, which would make the
  /// compiler reload each of them after every store.
  struct Writer {
    const Node *nodes;
    const uint32_t *regOf;
    const expr::PtxStackTables &tables;
    const expr::LiteralKind *litKinds;
    const AstVar *inputs;
    Writer(const Impl &im, ArrayRef<AstVar> in)
        : nodes(im.dag.getNodes().data()), regOf(im.regOf.data()),
          tables(im.tables), litKinds(im.tables.getLiteralKinds()),
          inputs(in.data()) {}
    char *reg(char *p, uint16_t stack, uint32_t r) const {
      return tables.writeReg(p, stack, r);
    }
    char *operand(char *p, uint32_t n) const {
      const Node &nd = nodes[n];
      if (nd.kind == AstWordType::Input) {
        *p = '%';
        return expr::writeName(p + 1, inputs[nd.payload].name);
      }
      uint32_t r = regOf[n];
      if (r == ~0u)
        return expr::writePtxLiteral<false>(p, litKinds[nd.stack], nd.payload);
      return reg(p, nd.stack, r);
    }
  };

  const StackInfo &info;
  AstPtxOptions opts;
  const expr::InstrSetTraits traits;
  /// Lower-case literals, `%ast<N>` for stack 0 and `%ast_s<S>_<N>` for
  /// the others, no indent: the reference's AST PTX text.
  const expr::PtxStackTables tables;
  std::vector<InstrInfo> instrInfo;
  /// Per PTX word payload (through opts.instrMap when set): instructions
  /// with 1-4 scalar operands and one scalar result the target has, the
  /// common case run() checks without the general path.
  struct FastInstr {
    uint32_t instr;
    uint16_t retStack;
    uint16_t numArgs; ///< 0: not fast
    uint16_t argStacks[4];
  };
  std::vector<FastInstr> fastInstrs;
  /// traits.getElemStacks().
  const uint16_t *argElemStacks;
  /// `<opcode> ` of each instruction at opText[opBegin[i]], followed by 32
  /// bytes of padding so that 32 bytes may be copied from any start.
  std::vector<char> opText;
  std::vector<uint32_t> opBegin, opLen;

  // Per compile; cleared, never shrunk.
  expr::ExprDag<Node, AstWordType::Ptx> dag;
  std::vector<uint32_t> inputNode, inputGen;
  std::vector<uint32_t> vals;
  std::vector<uint32_t> args;
  std::vector<Frame> frames;
  std::vector<uint32_t> outputNodes;
  std::vector<uint32_t> regOf; ///< per node: register or ~0u; live marks
  std::vector<uint32_t> regCounts;
  std::vector<uint32_t> outputCopies;
  uint64_t executed = 0;
  uint32_t emitted = 0;
  /// Whether a routine was called: only then may nodes be dead (arguments
  /// a routine does not read).
  bool sawCall = false;
  /// Room before the body for the declarations, written last.
  size_t headerRoom = 0;
  std::string header;
  /// The longest input name of the compile being emitted.
  size_t maxNameLen = 0;
  expr::TextBuf out;
};

AstPtxContext::Impl::Impl(const StackInfo &info, AstPtxOptions o)
    : info(info), opts(o), traits(info, o.targetSm),
      tables(info, "", [](unsigned s) {
        return s == 0 ? std::string("%ast")
                      : "%ast_s" + std::to_string(s) + "_";
      }) {
  argElemStacks = traits.getElemStacks().data();
  instrInfo.resize(info.numInstrs);
  for (uint32_t i = 0; i != info.numInstrs; ++i) {
    const expr::InstrTraits &t = traits.getInstr(i);
    InstrInfo &ii = instrInfo[i];
    if (!t.wellFormed)
      continue;
    ii.argElemBegin = t.argElemBegin;
    ii.numArgElems = t.numArgElems;
    ii.hasVectorArgs = t.hasVectorArgs;
    ii.retStack = traits.getRetElemStacks(i)[0];
    if (info.instrs[i].numRets != 1 || t.hasVectorRets)
      ii.status = InstrInfo::MultiResult;
    else if (t.tooNew)
      ii.status = InstrInfo::TooNew;
    else
      ii.status = InstrInfo::Ok;
  }
  for (uint32_t s = 0; s != info.numStacks; ++s)
    headerRoom += tables.getDeclHead(s).size() + 16;
  regCounts.resize(info.numStacks);
  headerRoom += 2;
  auto fastOf = [&](uint32_t i) {
    FastInstr fi = {i, 0, 0, {0, 0, 0, 0}};
    if (i >= info.numInstrs)
      return fi;
    const InstrInfo &ii = instrInfo[i];
    if (ii.status != InstrInfo::Ok || ii.hasVectorArgs || ii.numArgElems == 0 ||
        ii.numArgElems > 4 || ii.numArgElems > opts.maxArgs)
      return fi;
    fi.retStack = ii.retStack;
    fi.numArgs = ii.numArgElems;
    for (unsigned a = 0; a != ii.numArgElems; ++a)
      fi.argStacks[a] = argElemStacks[ii.argElemBegin + a];
    return fi;
  };
  if (opts.instrMap.empty())
    for (uint32_t i = 0; i != info.numInstrs; ++i)
      fastInstrs.push_back(fastOf(i));
  else
    for (uint32_t i : opts.instrMap)
      fastInstrs.push_back(fastOf(i));
  for (uint32_t i = 0; i != info.numInstrs; ++i) {
    StringRef op = info.instrPtx[i] ? info.instrPtx[i] : "";
    opBegin.push_back(uint32_t(opText.size()));
    opLen.push_back(uint32_t(op.size() + 1));
    opText.insert(opText.end(), op.begin(), op.end());
    opText.push_back(' ');
  }
  opText.resize(opText.size() + 32, '\0');
}

//===----------------------------------------------------------------------===//
// Build
//===----------------------------------------------------------------------===//

Error AstPtxContext::Impl::build(const AstProgram &prog,
                                 ArrayRef<AstVar> inputs) {
  outputNodes.clear();
  sawCall = false;
  executed = 0;
  if (dag.clear()) // generations wrapped: forget every stamp
    std::fill(inputGen.begin(), inputGen.end(), 0);
  if (inputGen.size() < inputs.size()) {
    inputGen.resize(inputs.size(), 0);
    inputNode.resize(inputs.size());
  }
  for (uint32_t o = 0, e = uint32_t(prog.outputs.size()); o != e; ++o) {
    const AstOutput &out = prog.outputs[o];
    if (out.var.stackIdx >= info.numStacks)
      return make_error<AstError>(
          AstResult::StackIdxOutOfBounds, AstWordPos{o, ~0u, ~0u},
          ("output '" + out.var.name + "' has stack index " +
           Twine(out.var.stackIdx) + ", out of range")
              .str());
    if (Error err = run(o, out, prog, inputs))
      return err;
  }
  return Error::success();
}

Error AstPtxContext::Impl::run(uint32_t expr, const AstOutput &out,
                               const AstProgram &prog,
                               ArrayRef<AstVar> inputs) {
  args.clear();
  frames.clear();
  frames.push_back({out.words.data(), out.words.size(), 0, ~0u, 0, 0, 0});
  const uint32_t maxDepth = opts.maxStackDepth;
  Frame *f = &frames.back();
  // The current frame's cursor and end, and the executed-word budget, in
  // locals; Frame::pc is written back only around calls.
  const size_t maxWords = opts.maxWords;
  const uint64_t *wp = f->words;
  const uint64_t *wend = f->words + std::min(f->size, maxWords);
  const uint64_t maxExecuted = opts.maxExecutedWords;
  uint64_t exec = executed;
  auto fail = [&](AstResult r, const Twine &msg) {
    executed = exec;
    return make_error<AstError>(
        r, AstWordPos{expr, f->routine, uint32_t(wp - f->words - 1)},
        msg.str());
  };
  auto stackName = [&](uint16_t s) { return StringRef(info.stackNames[s]); };
  // The value stack: vs[0, sp), grown on demand up to maxDepth.
  if (vals.size() < 64)
    vals.resize(64);
  uint32_t *vs = vals.data();
  uint32_t sp = 0;
  size_t cap = vals.size();
  auto push = [&](uint32_t n) -> bool {
    if (__builtin_expect(sp >= cap, 0)) {
      if (sp >= maxDepth)
        return false;
      vals.resize(std::min<size_t>(size_t(maxDepth), cap * 2));
      vs = vals.data();
      cap = vals.size();
    }
    if (__builtin_expect(sp >= maxDepth, 0))
      return false;
    vs[sp++] = n;
    return true;
  };
  const FastInstr *fast = fastInstrs.data();
  const uint32_t numFast = uint32_t(fastInstrs.size());
  auto overflow = [&] {
    return fail(AstResult::StackOverflow,
                "more than " + Twine(maxDepth) +
                    " values on the stack (maxStackDepth)");
  };
  for (;;) {
    if (__builtin_expect(wp == wend, 0)) {
      // Located just past the last word (no pointer arithmetic: an empty
      // program's words may be null).
      executed = exec;
      return make_error<AstError>(
          AstResult::BadInstructionMaybeForgotReturn,
          AstWordPos{expr, f->routine, uint32_t(wend - f->words)},
          ((f->routine == ~0u ? Twine("expression") : Twine("routine")) +
           " has no RETURN within " +
           Twine(std::min<uint64_t>(f->size, maxWords)) + " words")
              .str());
    }
    uint64_t w = *wp++;
    if (__builtin_expect(++exec > maxExecuted, 0))
      return fail(AstResult::LimitExceeded,
                  "more than " + Twine(opts.maxExecutedWords) +
                      " words executed (maxExecutedWords)");
    uint16_t aux = getAstWordAux(w);
    uint32_t payload = getAstWordPayload(w);
    uint32_t height = sp - f->entryHeight;
    if (getAstWordType(w) == AstWordType::Ptx && payload < numFast) {
      const FastInstr &fi = fast[payload];
      if (fi.numArgs == aux && height >= aux) {
        const uint32_t *ops = vs + sp - aux;
        bool typed = true;
        for (unsigned i = 0; i != aux; ++i)
          typed &= dag[ops[i]].stack == fi.argStacks[i];
        if (typed) {
          uint32_t n = dag.addInstr(fi.instr, fi.retStack, ops, aux,
                                    opts.shareSubexpressions);
          sp -= aux;
          vs[sp++] = n;
          continue;
        }
      }
      // Anything else gets the full checks and their errors.
    }
    switch (getAstWordType(w)) {
    case AstWordType::Input: {
      if (payload >= inputs.size())
        return fail(AstResult::InputIdxOutOfBounds,
                    "input " + Twine(payload) + " out of range (" +
                        Twine(inputs.size()) + " inputs)");
      uint16_t s = inputs[payload].stackIdx;
      if (s >= info.numStacks)
        return fail(AstResult::StackIdxOutOfBounds,
                    "input '" + inputs[payload].name + "' has stack index " +
                        Twine(s) + ", out of range");
      uint32_t n;
      if (inputGen[payload] == dag.getGeneration()) {
        n = inputNode[payload];
      } else {
        n = dag.addLeaf(AstWordType::Input, s, payload, 0);
        inputGen[payload] = dag.getGeneration();
        inputNode[payload] = n;
      }
      if (!push(n))
        return overflow();
      break;
    }
    case AstWordType::Constant:
      if (aux >= info.numStacks)
        return fail(AstResult::StackIdxOutOfBounds,
                    "constant on stack " + Twine(aux) + ", out of range (" +
                        Twine(info.numStacks) + " stacks)");
      if (!push(dag.addLeaf(AstWordType::Constant, aux, payload, 0)))
        return overflow();
      break;
    case AstWordType::Special: {
      if (payload >= info.numSpecials ||
          !traits.getSpecials()[payload].wellFormed)
        return fail(AstResult::SpecialRegisterIdxOutOfBounds,
                    "special register " + Twine(payload) + " out of range (" +
                        Twine(info.numSpecials) + ")");
      const expr::SpecialTraits &t = traits.getSpecials()[payload];
      if (aux >= std::max<unsigned>(t.numVecElems, 1))
        return fail(AstResult::InvalidValue,
                    "special register '" + Twine(info.specialNames[payload]) +
                        "' has no element " + Twine(aux));
      if (uint32_t sm = traits.specialTooNewFor(payload))
        return fail(AstResult::UnsupportedInstruction,
                    "special register '" + Twine(info.specialNames[payload]) +
                        "' needs sm_" + Twine(sm) + "; the target is sm_" +
                        Twine(opts.targetSm));
      if (!push(dag.addLeaf(AstWordType::Special, t.stack, payload,
                            t.numVecElems ? aux : ~0u)))
        return overflow();
      break;
    }
    case AstWordType::Ptx: {
      uint32_t instr = payload;
      bool known = true;
      if (!opts.instrMap.empty())
        known = payload < opts.instrMap.size() &&
                (instr = opts.instrMap[payload]) < info.numInstrs;
      else
        known = instr < info.numInstrs;
      const InstrInfo *ii = known ? &instrInfo[instr] : nullptr;
      if (aux > opts.maxArgs && !(ii && aux == ii->numArgElems))
        return fail(AstResult::TooManyArgs,
                    "instruction word with " + Twine(aux) +
                        " operands, more than " + Twine(opts.maxArgs) +
                        " (maxArgs)");
      if (!ii || ii->status == InstrInfo::BadTables)
        return fail(AstResult::PtxInstructionIdxOutOfBounds,
                    "instruction " + Twine(payload) + " out of range (" +
                        Twine(opts.instrMap.empty() ? info.numInstrs
                                                    : opts.instrMap.size()) +
                        " instructions)");
      auto name = [&] { return StringRef(info.instrNames[instr]); };
      if (ii->status == InstrInfo::MultiResult)
        return fail(AstResult::UnsupportedInstruction,
                    "'" + name() +
                        "' has more than one result value; an expression "
                        "node has one");
      if (ii->status == InstrInfo::TooNew)
        return fail(AstResult::UnsupportedInstruction,
                    "'" + name() + "' needs sm_" +
                        Twine(info.instrMinSm[instr]) + "; the target is sm_" +
                        Twine(opts.targetSm));
      if (aux != ii->numArgElems)
        return fail(AstResult::InvalidValue,
                    "'" + name() + "' takes " + Twine(ii->numArgElems) +
                        " operands, the word says " + Twine(aux));
      if (height < aux)
        return fail(AstResult::StackUnderflow,
                    "'" + name() + "' needs " + Twine(aux) + " operands, " +
                        Twine(height) + " on the stack");
      const uint32_t *ops = vs + sp - aux;
      const uint16_t *want = argElemStacks + ii->argElemBegin;
      for (unsigned i = 0; i != aux; ++i)
        if (dag[ops[i]].stack != want[i])
          return fail(AstResult::TypeMismatch,
                      "operand " + Twine(i) + " of '" + name() + "' is " +
                          stackName(dag[ops[i]].stack) + ", expected " +
                          stackName(want[i]));
      uint32_t n =
          dag.addInstr(instr, ii->retStack, ops, aux, opts.shareSubexpressions);
      sp -= aux;
      vs[sp++] = n; // where its operands were: room is certain
      break;
    }
    case AstWordType::Routine: {
      if (aux > opts.maxArgs)
        return fail(AstResult::TooManyArgs, "routine call with " + Twine(aux) +
                                                " arguments, more than " +
                                                Twine(opts.maxArgs) +
                                                " (maxArgs)");
      if (payload >= prog.routines.size())
        return fail(AstResult::RoutineIdxOutOfBounds,
                    "routine " + Twine(payload) + " out of range (" +
                        Twine(prog.routines.size()) + " routines)");
      if (frames.size() > opts.maxRoutineDepth)
        return fail(AstResult::RoutineDepthExceeded,
                    "routine calls nested more than " +
                        Twine(opts.maxRoutineDepth) +
                        " deep (maxRoutineDepth)");
      if (height < aux)
        return fail(AstResult::StackUnderflow,
                    "routine " + Twine(payload) + " needs " + Twine(aux) +
                        " arguments, " + Twine(height) + " on the stack");
      uint32_t argBase = uint32_t(args.size());
      args.insert(args.end(), vs + sp - aux, vs + sp);
      sp -= aux;
      ArrayRef<uint64_t> body = prog.routines[payload];
      sawCall = true;
      f->pc = size_t(wp - f->words);
      frames.push_back(
          {body.data(), body.size(), 0, payload, argBase, aux, sp});
      f = &frames.back();
      wp = f->words;
      wend = f->words + std::min(f->size, maxWords);
      break;
    }
    case AstWordType::RoutineArg:
      if (f->routine == ~0u)
        return fail(AstResult::RoutineArgIdxOutOfBounds,
                    "routine argument " + Twine(payload) +
                        " outside a routine");
      if (payload >= f->numArgs)
        return fail(AstResult::RoutineArgIdxOutOfBounds,
                    "routine argument " + Twine(payload) + " out of range (" +
                        Twine(f->numArgs) + " arguments)");
      if (!push(args[f->argBase + payload]))
        return overflow();
      break;
    case AstWordType::Return: {
      if (height != 1)
        return fail(
            AstResult::InvalidValue,
            (f->routine == ~0u ? Twine("expression") : Twine("routine")) +
                " returns with " + Twine(height) +
                " values on its stack, not 1");
      if (f->routine != ~0u) {
        args.resize(f->argBase);
        frames.pop_back();
        f = &frames.back();
        wp = f->words + f->pc;
        wend = f->words + std::min(f->size, maxWords);
        break;
      }
      uint32_t n = vs[sp - 1];
      if (dag[n].stack != out.var.stackIdx)
        return fail(AstResult::TypeMismatch,
                    "the value is " + stackName(dag[n].stack) + "; output '" +
                        out.var.name + "' is " + stackName(out.var.stackIdx));
      outputNodes.push_back(n);
      executed = exec;
      return Error::success();
    }
    default:
      return fail(AstResult::BadInstructionMaybeForgotReturn,
                  "word type " + Twine(uint16_t(w)) +
                      " is not an AST PTX word");
    }
  }
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

inline char *AstPtxContext::Impl::writeOperand(char *p, uint32_t n,
                                               ArrayRef<AstVar> inputs) {
  return Writer{*this, inputs}.operand(p, n);
}

static constexpr uint32_t Dead = ~0u, LiveNoReg = ~0u - 1;

StringRef AstPtxContext::Impl::emit(const AstProgram &prog,
                                    ArrayRef<AstVar> inputs) {
  maxNameLen = 0;
  for (const AstVar &v : inputs)
    maxNameLen = std::max(maxNameLen, v.name.size());
  // Liveness (only a routine call can leave nodes dead); registers are
  // numbered in node order as the lines are written.
  uint32_t numNodes = dag.size();
  if (regOf.size() < numNodes)
    regOf.resize(numNodes);
  if (sawCall)
    dag.markLive(outputNodes, regOf.data(), Dead, LiveNoReg);
  std::fill(regCounts.begin(), regCounts.end(), 0);
  emitted = 0;

  // The body goes after room for the declarations, which are written last.
  out.clear();
  char *p = out.ensure(out.begin(), headerRoom + 256) + headerRoom;
  // Tables in locals: the char stores below may alias any member.
  const uint8_t *inl = tables.getInlineLiterals();
  const Node *nodeP = dag.getNodes().data();
  uint32_t *regP = regOf.data();
  uint32_t *counts = regCounts.data();
  const uint32_t *opLenP = opLen.data(), *opBeginP = opBegin.data();
  const char *opTextP = opText.data();
  const InstrInfo *infoP = instrInfo.data();
  const uint32_t *operandP = dag.getOperands().data();
  const bool call = sawCall;
  const size_t operandRoom = maxNameLen + 40;
  const Writer w(*this, inputs);
  for (uint32_t n = 0; n != numNodes; ++n) {
    if (call && regP[n] == Dead)
      continue;
    const Node &nd = nodeP[n];
    if (nd.kind == AstWordType::Input ||
        (nd.kind == AstWordType::Constant && inl[nd.stack])) {
      regP[n] = ~0u;
      continue;
    }
    uint32_t r = regP[n] = counts[nd.stack]++;
    if (nd.kind == AstWordType::Ptx) {
      uint32_t len = opLenP[nd.payload];
      const char *op = opTextP + opBeginP[nd.payload];
      // Room for the whole line: every operand is at most a literal, a
      // register or an input name.
      p = ensure(p, len + 64 + size_t(nd.numOps) * operandRoom);
      if (len <= 32)
        std::memcpy(p, op, 32);
      else
        std::memcpy(p, op, len);
      p += len;
      p = w.reg(p, nd.stack, r);
      if (!infoP[nd.payload].hasVectorArgs) {
        const uint32_t *ops = operandP + nd.aux;
        for (uint32_t i = 0, e = nd.numOps; i != e; ++i) {
          std::memcpy(p, ", ", 2);
          p = w.operand(p + 2, ops[i]);
        }
      } else {
        const stack::PtxInstrDesc &d = info.instrs[nd.payload];
        uint32_t e = 0;
        for (unsigned a = 0; a != d.numArgs; ++a) {
          unsigned v = info.argTypes[d.args[a]].numVecElems;
          p = ensure(p, 64);
          std::memcpy(p, ", ", 2);
          p += 2;
          if (!v) {
            p = writeOperand(p, operandP[nd.aux + e++], inputs);
            continue;
          }
          *p++ = '{';
          for (unsigned k = 0; k != v; ++k) {
            p = ensure(p, 64);
            if (k) {
              std::memcpy(p, ", ", 2);
              p += 2;
            }
            p = writeOperand(p, operandP[nd.aux + e++], inputs);
          }
          *p++ = '}';
        }
      }
      ++emitted;
    } else {
      // A special register or a literal that cannot be an operand.
      const std::string &mov = tables.getMovLine(nd.stack);
      p = ensure(p, mov.size() + 96);
      std::memcpy(p, mov.data(), mov.size());
      p = writeReg(p + mov.size(), nd.stack, r);
      std::memcpy(p, ", ", 2);
      p += 2;
      if (nd.kind == AstWordType::Constant) {
        p = expr::writePtxLiteral<false>(p, tables.getLiteralKind(nd.stack),
                                         nd.payload);
      } else {
        StringRef sp = info.specialPtx[nd.payload];
        p = ensure(p, sp.size() + 16);
        *p++ = '%';
        std::memcpy(p, sp.data(), sp.size());
        p += sp.size();
        if (nd.aux != ~0u) {
          p[0] = '.';
          p[1] = "xyzw"[nd.aux & 3];
          p += 2;
        }
      }
    }
    std::memcpy(p, ";\n", 2);
    p += 2;
  }
  // An output that copies an input variable which an earlier output
  // overwrites reads a copy taken before the movs.
  uint32_t numOut = uint32_t(outputNodes.size());
  outputCopies.assign(numOut, ~0u);
  for (uint32_t o = 1; o < numOut; ++o) {
    const Node &nd = dag[outputNodes[o]];
    if (nd.kind != AstWordType::Input)
      continue;
    StringRef name = inputs[nd.payload].name;
    for (uint32_t j = 0; j != o; ++j)
      if (prog.outputs[j].var.name == name) {
        outputCopies[o] = regCounts[nd.stack]++;
        break;
      }
  }
  for (uint32_t o = 0; o != numOut; ++o) {
    if (outputCopies[o] == ~0u)
      continue;
    uint32_t n = outputNodes[o];
    const std::string &mov = tables.getMovLine(dag[n].stack);
    p = ensure(p, mov.size() + maxNameLen + 64);
    std::memcpy(p, mov.data(), mov.size());
    p = writeReg(p + mov.size(), dag[n].stack, outputCopies[o]);
    std::memcpy(p, ", ", 2);
    p = writeOperand(p + 2, n, inputs);
    std::memcpy(p, ";\n", 2);
    p += 2;
  }
  for (uint32_t o = 0; o != numOut; ++o) {
    const AstVar &v = prog.outputs[o].var;
    uint32_t n = outputNodes[o];
    const std::string &mov = tables.getMovLine(v.stackIdx);
    p = ensure(p, mov.size() + v.name.size() + maxNameLen + 64);
    std::memcpy(p, mov.data(), mov.size());
    p += mov.size();
    *p++ = '%';
    std::memcpy(p, v.name.data(), v.name.size());
    p += v.name.size();
    std::memcpy(p, ", ", 2);
    p += 2;
    if (outputCopies[o] != ~0u)
      p = writeReg(p, dag[n].stack, outputCopies[o]);
    else
      p = writeOperand(p, n, inputs);
    std::memcpy(p, ";\n", 2);
    p += 2;
  }
  p = ensure(p, 2);
  *p++ = '}';
  size_t end = size_t(p - out.begin());
  header.assign("{\n");
  for (uint32_t s = 0; s != info.numStacks; ++s) {
    if (!regCounts[s])
      continue;
    char num[12];
    header += tables.getDeclHead(s);
    header.append(num, expr::writeUInt(num, regCounts[s]));
    header += ">;\n";
  }
  size_t begin = headerRoom - header.size();
  std::memcpy(out.begin() + begin, header.data(), header.size());
  out.setEnd(out.begin() + end);
  return StringRef(out.data() + begin, end - begin);
}

//===----------------------------------------------------------------------===//
// AstPtxContext
//===----------------------------------------------------------------------===//

AstPtxContext::AstPtxContext(const StackInfo &info, AstPtxOptions opts)
    : impl(std::make_unique<Impl>(info, opts)) {}
AstPtxContext::~AstPtxContext() = default;

Error AstPtxContext::build(const AstProgram &prog, ArrayRef<AstVar> inputs) {
  return impl->build(prog, inputs);
}

Expected<StringRef> AstPtxContext::compile(const AstProgram &prog,
                                           ArrayRef<AstVar> inputs) {
  if (Error e = impl->build(prog, inputs))
    return e;
  return impl->emit(prog, inputs);
}

ArrayRef<AstPtxContext::Node> AstPtxContext::getNodes() const {
  return impl->dag.getNodes();
}
ArrayRef<uint32_t> AstPtxContext::getOperands() const {
  return impl->dag.getOperands();
}
ArrayRef<uint32_t> AstPtxContext::getOutputNodes() const {
  return impl->outputNodes;
}
uint32_t AstPtxContext::getNumEmittedInstrs() const { return impl->emitted; }
const AstPtxOptions &AstPtxContext::getOptions() const { return impl->opts; }
AstPtxOptions &AstPtxContext::getOptions() { return impl->opts; }
const StackInfo &AstPtxContext::getInfo() const { return impl->info; }

bool ast::isReservedAstName(StringRef name) {
  if (!name.consume_front("ast"))
    return false;
  if (name.consume_front("_s"))
    return true;
  return !name.empty() &&
         llvm::all_of(name, [](char c) { return c >= '0' && c <= '9'; });
}

Expected<std::string> ast::compileAstPtx(const StackInfo &info,
                                         const AstProgram &prog,
                                         ArrayRef<AstVar> inputs,
                                         const AstPtxOptions &opts) {
  AstPtxContext ctx(info, opts);
  Expected<StringRef> text = ctx.compile(prog, inputs);
  if (!text)
    return text.takeError();
  return text->str();
}
