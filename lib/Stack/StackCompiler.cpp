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

const char *stack::getMetaOpName(uint32_t op) {
  static const char *const names[] = {"dup",       "yank_dup", "swap",
                                      "swap_with", "replace",  "drop",
                                      "clear",     "rotate",   "reverse"};
  return op < NumMetaOps ? names[op] : nullptr;
}

Error stack::checkStackPtxOptions(const StackPtxOptions &opts,
                                  function_ref<StringRef(StringRef)> spelling) {
  auto check = [&](StringRef field, uint64_t value, uint64_t min,
                   uint64_t max) -> Error {
    if (value >= min && value <= max)
      return Error::success();
    StringRef name = spelling ? spelling(field) : field;
    if (value < min)
      return makeError(name + " must be at least " + Twine(min));
    return makeError(name + " = " + Twine(value) + " is too large (at most " +
                     Twine(max) + ")");
  };
  using B = StackPtxBounds;
  if (Error e = check("stackSize", opts.stackSize, 1, B::MaxStackSize))
    return e;
  if (Error e = check("maxNodes", opts.maxNodes, 1, B::MaxNodes))
    return e;
  if (Error e = check("maxFrameDepth", opts.maxFrameDepth, 0, B::MaxFrameDepth))
    return e;
  if (Error e = check("storeSize", opts.storeSize, 0, B::MaxStoreSize))
    return e;
  return check("executionLimit", opts.executionLimit, 0, B::MaxExecutionLimit);
}

void stack::describeLimitsHit(const StackPtxStats &stats,
                              const StackPtxOptions &o,
                              function_ref<StringRef(StringRef)> flag,
                              function_ref<void(const Twine &)> report) {
  if (stats.hitExecutionLimit)
    report("execution stopped at the execution limit of " +
           Twine(o.executionLimit) + " words (" + flag("executionLimit") +
           "); the stub is what was built until then");
  if (stats.refusedCalls)
    report(Twine(stats.refusedCalls) +
           " routine call(s) beyond the frame-depth limit of " +
           Twine(o.maxFrameDepth) + " frames were skipped (" +
           flag("maxFrameDepth") + ")");
  if (stats.hitNodeLimit)
    report("execution stopped at the node limit of " + Twine(o.maxNodes) +
           " nodes (" + flag("maxNodes") +
           "); the stub is what was built until then");
  if (stats.droppedPushes)
    report(Twine(stats.droppedPushes) + " push(es) onto a full stack (" +
           Twine(o.stackSize) + " values, " + flag("stackSize") +
           ") were dropped");
  if (stats.ignoredWords) {
    std::string target;
    if (o.targetSm)
      target = ("; for sm_" + Twine(o.targetSm) +
                ", instructions and special registers that need a newer "
                "target are invalid")
                   .str();
    report(Twine(stats.ignoredWords) + " invalid word(s) were skipped (" +
           flag("strict") + " reports them as errors)" + target);
  }
}

struct StackPtxContext::Impl {
  Impl(const StackInfo &info, StackPtxOptions opts);

  llvm::Error execute(const Program &prog, llvm::ArrayRef<Register> regs,
                      llvm::ArrayRef<uint32_t> requests);

  struct InstrInfo {
    bool valid = false;
    /// 1-4 scalar args and one scalar ret, all on uniqueStack[0].
    bool simple = false;
    /// No vector args or rets.
    bool scalar = false;
    uint8_t numUnique = 0;
    uint16_t numArgElems = 0, numRetElems = 0;
    uint32_t argElemBegin = 0, retElemBegin = 0;
    uint16_t uniqueStack[4] = {0, 0, 0, 0};
    uint16_t uniqueCount[4] = {0, 0, 0, 0};
    /// `\t<ptx> ` at opText[opTextBegin]; lineMax bounds the line's length
    /// without the names of input registers.
    uint32_t opTextBegin = 0, opTextLen = 0, lineMax = 0;
  };
  /// What the traits say, and the length of the register's name.
  struct SpecialInfo {
    bool valid = false;
    uint16_t stack = 0;
    uint16_t numVecElems = 0;
    uint32_t ptxLen = 0;
  };
  struct Frame {
    const uint64_t *words;
    size_t size;
    size_t pc;
    uint32_t routine; // ~0u for the main program
  };
  struct Slot {
    uint32_t node;
    uint16_t stack;
    uint32_t gen; ///< valid if == storeGen
  };
  /// Values per stack in stackData are preceded by this many spare slots,
  /// so an operand copy may read a fixed number of values below any stack.
  static constexpr uint32_t StackGuard = 4;

  llvm::Error run(const Program &prog, llvm::ArrayRef<Register> regs);
  /// Runs the common words (valid INPUT and CONSTANT, simple PTX, dup and
  /// swap; no push dropped) from \p pc on while there is room for any of
  /// them.
  /// \returns \p stop or the first word it left to execWord.
  const uint64_t *runCommon(const uint64_t *pc, const uint64_t *stop,
                            llvm::ArrayRef<Register> regs);
  /// Executes \p w, read at \p f.pc - 1, on the member state: any word but
  /// RETURN and a call that is made.
  llvm::Error execWord(uint64_t w, const Frame &f, const Program &prog,
                       llvm::ArrayRef<Register> regs);
  llvm::Error resolveRequests(llvm::ArrayRef<Register> regs,
                              llvm::ArrayRef<uint32_t> requests);
  llvm::Error invalidWord(const Frame &f, const llvm::Twine &msg);
  llvm::StringRef emit(llvm::ArrayRef<Register> regs,
                       llvm::ArrayRef<uint32_t> requests,
                       llvm::ArrayRef<Register> zeroRegs);
  inline char *emitInstr(char *p, uint32_t n, llvm::ArrayRef<Register> regs);
  /// The rets and args of instruction \p n when some are vectors.
  char *emitVectorOperands(char *p, uint32_t n, llvm::ArrayRef<Register> regs);
  /// Writes operand \p n; room for \p after more characters remains.
  inline char *writeOperand(char *p, uint32_t n, llvm::ArrayRef<Register> regs,
                            size_t after);
  /// `%_s<stack>_` always fits a piece.
  char *writeReg(char *p, uint16_t stack, uint32_t reg) const {
    return tables.writeShortReg(p, stack, reg);
  }
  /// \returns the next register number of \p stack.
  uint32_t newReg(uint16_t stack) {
    uint32_t r = regCounts[stack]++;
    if (r == 0)
      usedStacks[numUsedStacks++] = stack;
    return r;
  }
  char *writeMov(char *p, uint16_t stack) const {
    return tables.writeMovLine(p, stack);
  }
  /// Literals in upper-case hex, as the reference prints them.
  char *writeLiteral(char *p, uint16_t stack, uint32_t bits) const {
    return expr::writePtxLiteral<true>(p, tables.getLiteralKind(stack), bits);
  }
  void growNodes(uint32_t moreNodes, uint32_t moreOps);
  bool makeRoom(uint32_t moreNodes, uint32_t moreOps);

  const StackInfo &info;
  StackPtxOptions opts;
  StackPtxStats stats;
  /// opts.targetSm at construction, which the tables below reflect.
  const uint32_t targetSm;
  const expr::InstrSetTraits traits;
  const expr::PtxStackTables tables;

  // Derived from the tables once.
  std::vector<InstrInfo> instrInfo;
  /// Per instruction, `stack << 16 | numArgElems` if simple, else 0: the
  /// fast path's table.
  std::vector<uint32_t> simpleInstrs;
  uint32_t numInstrs = 0;
  /// traits.getElemStacks().
  const uint16_t *elemStacks;
  std::vector<SpecialInfo> specialInfo;
  /// The opcode texts, padded so that 32 bytes can be read at any start.
  std::vector<char> opText;
  /// Room for the longest possible declarations, which are written last
  /// in front of the body.
  size_t headerRoom = 0;
  /// The longest mov line of any stack, and one more.
  size_t movMax = 0;

  // Per compile; cleared, never shrunk. nodes/operands are storage of which
  // the first numNodes/numOperands are used.
  uint32_t allocatedStackSize = 0;
  uint32_t numNodes = 0, numOperands = 0;
  size_t nodeCap = 0, operandCap = 0; ///< sizes of nodes/operands
  uint32_t nodeLimit = 0;             ///< min(nodeCap, maxNodes)
  uint32_t storeGen = 0;
  uint32_t metaHeight = 0;
  std::vector<StackNode> nodes;
  std::vector<uint32_t> operands;
  std::vector<uint32_t> stackData;
  std::vector<uint32_t> heights;
  std::vector<uint32_t> metaStack;
  std::vector<Slot> store;
  std::vector<Frame> frames;
  std::vector<uint32_t> requestNodes;
  /// Per request, a register holding a copy of its input operand taken
  /// before any request writes (None if no copy is needed).
  std::vector<uint32_t> requestCopies;
  std::vector<uint32_t> visit;
  std::vector<uint32_t> regCounts;
  /// The stacks with registers, in the order of their first.
  std::vector<uint16_t> usedStacks;
  uint32_t numUsedStacks = 0;
  expr::TextBuf out;
};

StackPtxContext::Impl::Impl(const StackInfo &info, StackPtxOptions opts)
    : info(info), opts(opts), targetSm(opts.targetSm),
      traits(info, opts.targetSm), tables(info, "\t", [](unsigned s) {
        return "%_s" + std::to_string(s) + "_";
      }) {
  // An instruction or special register the traits find malformed or too new
  // for the target stays invalid and its words are ignored, so a broken
  // table cannot crash us and the target costs nothing per word.
  assert(tables.allRegPrefixesFit() && "writeReg copies one piece");
  elemStacks = traits.getElemStacks().data();
  instrInfo.resize(info.numInstrs);
  // `\t<ptx> ` per instruction, and padding for the fixed-size copy.
  size_t textSize = 32;
  for (uint32_t i = 0; i != info.numInstrs; ++i) {
    instrInfo[i].opTextBegin = textSize - 32;
    instrInfo[i].opTextLen = std::strlen(info.instrPtx[i]) + 2;
    textSize += instrInfo[i].opTextLen;
  }
  opText.resize(textSize);
  for (uint32_t i = 0; i != info.numInstrs; ++i) {
    char *t = &opText[instrInfo[i].opTextBegin];
    size_t len = instrInfo[i].opTextLen - 2;
    t[0] = '\t';
    std::memcpy(t + 1, info.instrPtx[i], len);
    t[len + 1] = ' ';
  }
  for (uint32_t i = 0; i != info.numInstrs; ++i) {
    const PtxInstrDesc &d = info.instrs[i];
    const expr::InstrTraits &t = traits.getInstr(i);
    InstrInfo &ii = instrInfo[i];
    if (!t.isUsable())
      continue;
    ii.argElemBegin = t.argElemBegin;
    ii.numArgElems = t.numArgElems;
    ii.retElemBegin = t.retElemBegin;
    ii.numRetElems = t.numRetElems;
    // The distinct stacks of the operands and how many values each gives.
    for (unsigned e = 0; e != t.numArgElems; ++e) {
      uint16_t st = elemStacks[t.argElemBegin + e];
      unsigned u = 0;
      while (u != ii.numUnique && ii.uniqueStack[u] != st)
        ++u;
      if (u == ii.numUnique) {
        ii.uniqueStack[u] = st;
        ++ii.numUnique;
      }
      ++ii.uniqueCount[u];
    }
    ii.valid = true;
    ii.scalar = !t.hasVectorArgs && !t.hasVectorRets;
    ii.simple = ii.scalar && ii.numUnique == 1 && d.numRets == 1 &&
                elemStacks[ii.retElemBegin] == ii.uniqueStack[0];
    // Per element: ", " or "|", and a register or literal of at most 19
    // characters written with a 16-byte copy; "\n\t\t{" and "}" per vector;
    // 32 for the opcode copy, ";\n" and the final fixed-size copy.
    ii.lineMax = ii.opTextLen + 34 * (ii.numArgElems + ii.numRetElems) +
                 5 * (d.numArgs + d.numRets) + 64;
  }
  specialInfo.resize(info.numSpecials);
  for (uint32_t i = 0; i != info.numSpecials; ++i) {
    const expr::SpecialTraits &t = traits.getSpecials()[i];
    if (t.isUsable())
      specialInfo[i] = {true, t.stack, t.numVecElems,
                        uint32_t(std::strlen(info.specialPtx[i]))};
  }
  headerRoom = 3;
  for (uint32_t s = 0; s != info.numStacks; ++s)
    headerRoom += tables.getDeclHead(s).size() + 10 + 3;
  movMax = tables.getMaxMovLine() + 1;
  heights.resize(info.numStacks);
  regCounts.resize(info.numStacks);
  usedStacks.resize(info.numStacks);
  numInstrs = info.numInstrs;
  simpleInstrs.reserve(numInstrs);
  for (const InstrInfo &ii : instrInfo)
    simpleInstrs.push_back(
        ii.simple ? uint32_t(ii.uniqueStack[0]) << 16 | ii.numArgElems : 0);
}

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

bool StackPtxContext::Impl::makeRoom(uint32_t moreNodes, uint32_t moreOps) {
  if (uint64_t(numNodes) + moreNodes > opts.maxNodes)
    return false;
  growNodes(moreNodes, moreOps);
  return true;
}

void StackPtxContext::Impl::growNodes(uint32_t moreNodes, uint32_t moreOps) {
  if (numNodes + moreNodes > nodes.size())
    nodes.resize(std::max<size_t>(2 * nodes.size() + 64, numNodes + moreNodes));
  if (numOperands + moreOps > operands.size())
    operands.resize(
        std::max<size_t>(2 * operands.size() + 64, numOperands + moreOps));
  nodeCap = nodes.size();
  operandCap = operands.size();
  nodeLimit = uint32_t(std::min<size_t>(nodeCap, opts.maxNodes));
}

Error StackPtxContext::Impl::invalidWord(const Frame &f, const Twine &msg) {
  // f.pc is the index of the word after the invalid one.
  std::string where = f.routine == ~0u ? std::string("the main program")
                                       : ("routine " + Twine(f.routine)).str();
  return makeError("word " + Twine(f.pc - 1) + " of " + where + ": " + msg);
}

/// Writes a node with two 8-byte stores (field by field takes five, and
/// building it in a temporary first costs a store-forwarding stall).
static inline void setNode(StackNode &n, StackNode::Kind kind, uint16_t stack,
                           uint32_t payload, uint32_t aux, uint32_t reg) {
  static_assert(sizeof(StackNode) == 16 && offsetof(StackNode, stack) == 2 &&
                    offsetof(StackNode, payload) == 4 &&
                    offsetof(StackNode, aux) == 8 &&
                    offsetof(StackNode, reg) == 12,
                "StackNode layout");
  uint64_t lo =
      uint64_t(kind) | uint64_t(stack) << 16 | uint64_t(payload) << 32;
  uint64_t hi = uint64_t(aux) | uint64_t(reg) << 32;
  char *p = reinterpret_cast<char *>(&n);
  std::memcpy(p, &lo, 8);
  std::memcpy(p + 8, &hi, 8);
}

Error StackPtxContext::Impl::execWord(uint64_t w, const Frame &f,
                                      const Program &prog,
                                      ArrayRef<Register> regs) {
  const uint32_t S = opts.stackSize;
  const uint32_t numStacks = info.numStacks;
  uint32_t *sd = stackData.data() + StackGuard;
  uint32_t *hts = heights.data();
  uint16_t aux = getWordAux(w);
  uint32_t payload = getWordPayload(w);
  auto push = [&](uint16_t st, uint32_t node) {
    uint32_t h = hts[st];
    if (h == S) {
      ++stats.droppedPushes;
      return;
    }
    sd[size_t(st) * S + h] = node;
    hts[st] = h + 1;
  };
  // \returns false at the node limit; else there is room for k more nodes
  // and m more operands.
  auto room = [&](uint32_t k, uint32_t m) {
    if (numNodes + k <= nodeLimit && numOperands + m <= operandCap)
      return true;
    if (makeRoom(k, m))
      return true;
    stats.hitNodeLimit = true;
    return false;
  };
  // An invalid word is skipped, or in strict mode named in the error.
  auto bad = [&](const Twine &msg) -> Error {
    if (!opts.strict) {
      ++stats.ignoredWords;
      return Error::success();
    }
    return invalidWord(f, msg);
  };

  switch (getWordType(w)) {
  case WordType::Input: {
    if (payload >= regs.size())
      return bad("input register index " + Twine(payload) + " out of range (" +
                 Twine(regs.size()) + " registers)");
    uint16_t s = regs[payload].stackIdx;
    if (s >= numStacks)
      return bad("input register '" + regs[payload].name +
                 "' has stack index " + Twine(s) + " out of range");
    if (room(1, 0)) {
      setNode(nodes[numNodes], StackNode::Input, s, payload, 0, None);
      push(s, numNodes++);
    }
    return Error::success();
  }

  case WordType::Constant:
    if (aux >= numStacks)
      return bad("constant stack index " + Twine(aux) + " out of range (" +
                 Twine(numStacks) + " stacks)");
    if (room(1, 0)) {
      setNode(nodes[numNodes], StackNode::Constant, aux, payload, 0, None);
      push(aux, numNodes++);
    }
    return Error::success();

  case WordType::Special: {
    if (payload >= specialInfo.size() || !specialInfo[payload].valid) {
      if (uint32_t sm = traits.specialTooNewFor(payload))
        return bad("special register '%" + Twine(info.specialPtx[payload]) +
                   "' needs sm_" + Twine(sm) + ", the target is sm_" +
                   Twine(targetSm));
      return bad("special register index " + Twine(payload) +
                 " out of range (" + Twine(info.numSpecials) +
                 " special registers)");
    }
    const SpecialInfo &si = specialInfo[payload];
    unsigned n = si.numVecElems ? si.numVecElems : 1;
    if (!room(n, 0))
      return Error::success();
    for (unsigned e = 0; e != n; ++e) {
      setNode(nodes[numNodes], StackNode::Special, si.stack, payload,
              si.numVecElems ? e : None, None);
      push(si.stack, numNodes++);
    }
    return Error::success();
  }

  case WordType::Ptx: {
    if (payload >= instrInfo.size() || !instrInfo[payload].valid) {
      if (uint32_t sm = traits.instrTooNewFor(payload))
        return bad("PTX instruction '" + Twine(info.instrPtx[payload]) +
                   "' needs sm_" + Twine(sm) + ", the target is sm_" +
                   Twine(targetSm));
      return bad("PTX instruction index " + Twine(payload) + " out of range (" +
                 Twine(info.numInstrs) + " instructions)");
    }
    const InstrInfo &ii = instrInfo[payload];
    bool enough = true;
    for (unsigned u = 0; u != ii.numUnique; ++u)
      enough &= hts[ii.uniqueStack[u]] >= ii.uniqueCount[u];
    if (!enough) {
      ++stats.noOpWords;
      return Error::success();
    }
    if (!room(1 + ii.numRetElems, ii.numArgElems))
      return Error::success();
    uint32_t instrNode = numNodes;
    setNode(nodes[instrNode], StackNode::Instr, 0, payload, numOperands, 0);
    const uint16_t *argStacks = &elemStacks[ii.argElemBegin];
    for (unsigned e = 0, ne = ii.numArgElems; e != ne; ++e) {
      uint16_t st = argStacks[e];
      operands[numOperands + e] = sd[size_t(st) * S + --hts[st]];
    }
    numOperands += ii.numArgElems;
    const uint16_t *retStacks = &elemStacks[ii.retElemBegin];
    unsigned nr = ii.numRetElems;
    for (unsigned e = 0; e != nr; ++e)
      setNode(nodes[instrNode + 1 + e], StackNode::Result, retStacks[e], e,
              instrNode, None);
    numNodes = instrNode + 1 + nr;
    for (unsigned e = nr; e-- != 0;)
      push(retStacks[e], instrNode + 1 + e);
    return Error::success();
  }

  case WordType::MetaConstant:
    if (metaHeight == S)
      ++stats.droppedPushes;
    else
      metaStack[metaHeight++] = payload;
    return Error::success();

  case WordType::Meta: {
    if (aux >= numStacks || payload >= NumMetaOps)
      return bad(aux >= numStacks
                     ? "meta stack index " + Twine(aux) + " out of range (" +
                           Twine(numStacks) + " stacks)"
                     : "meta opcode " + Twine(payload) + " out of range");
    uint32_t *base = sd + size_t(aux) * S;
    uint32_t &sp = hts[aux];
    MetaOp op = MetaOp(payload);
    // Depth-taking ops consume the meta constant even when they no-op.
    bool takesDepth = op == MetaOp::YankDup || op == MetaOp::SwapWith ||
                      op == MetaOp::Replace || op == MetaOp::Drop;
    uint32_t d = 0;
    if (takesDepth) {
      if (metaHeight == 0) {
        ++stats.noOpWords;
        return Error::success();
      }
      d = metaStack[--metaHeight];
    }
    bool done = true;
    switch (op) {
    case MetaOp::Dup:
      if (sp == 0 || sp == S)
        done = false;
      else
        base[sp] = base[sp - 1], ++sp;
      break;
    case MetaOp::YankDup:
      if (sp <= d || sp == S)
        done = false;
      else
        base[sp] = base[sp - 1 - d], ++sp;
      break;
    case MetaOp::Swap:
      if (sp < 2)
        done = false;
      else
        std::swap(base[sp - 1], base[sp - 2]);
      break;
    case MetaOp::SwapWith:
      if (sp <= d || sp == S)
        done = false;
      else
        std::swap(base[sp - 1], base[sp - 1 - d]);
      break;
    case MetaOp::Replace:
      if (sp <= d || sp == S)
        done = false;
      else
        base[sp - 1 - d] = base[sp - 1], --sp;
      break;
    case MetaOp::Drop:
      if (sp <= d)
        done = false;
      else
        sp -= d;
      break;
    case MetaOp::Clear:
      sp = 0;
      break;
    case MetaOp::Rotate:
      if (sp < 3) {
        done = false;
      } else {
        uint32_t c = base[sp - 1];
        base[sp - 1] = base[sp - 2];
        base[sp - 2] = base[sp - 3];
        base[sp - 3] = c;
      }
      break;
    case MetaOp::Reverse:
      std::reverse(base, base + sp);
      break;
    }
    if (!done)
      ++stats.noOpWords;
    return Error::success();
  }

  case WordType::Store:
    if (aux >= numStacks || payload >= opts.storeSize)
      return bad(aux >= numStacks
                     ? "store stack index " + Twine(aux) + " out of range (" +
                           Twine(numStacks) + " stacks)"
                     : "store slot " + Twine(payload) + " out of range (" +
                           Twine(opts.storeSize) + " slots)");
    if (hts[aux] == 0) {
      ++stats.noOpWords;
      return Error::success();
    }
    store[payload] = {sd[size_t(aux) * S + --hts[aux]], aux, storeGen};
    return Error::success();

  case WordType::Load: {
    if (payload >= opts.storeSize)
      return bad("load slot " + Twine(payload) + " out of range (" +
                 Twine(opts.storeSize) + " slots)");
    const Slot &slot = store[payload];
    if (slot.gen != storeGen)
      ++stats.noOpWords;
    else
      push(slot.stack, slot.node);
    return Error::success();
  }

  case WordType::Routine:
    // run() makes the calls that are allowed.
    if (payload >= prog.routines.size())
      return bad("routine index " + Twine(payload) + " out of range (" +
                 Twine(prog.routines.size()) + " routines)");
    ++stats.refusedCalls;
    return Error::success();

  case WordType::Return:
    llvm_unreachable("run() handles RETURN");

  case WordType::None:
  case WordType::ReservedRegister:
  case WordType::ReservedAstIdx:
  default:
    return bad("unknown word type " + Twine(getWordTypeBits(w)));
  }
}

const uint64_t *StackPtxContext::Impl::runCommon(const uint64_t *pc,
                                                 const uint64_t *stop,
                                                 ArrayRef<Register> regs) {
  // Make room for the next words at once: stopping where the room runs out
  // costs a slow word and a call per doubling.
  size_t words = std::min<size_t>(stop - pc, 4096);
  if ((numNodes + 2 * words > nodeLimit ||
       numOperands + 4 * words > operandCap) &&
      numNodes < opts.maxNodes)
    growNodes(uint32_t(std::min<size_t>(2 * words, opts.maxNodes - numNodes)),
              uint32_t(4 * words));
  // The state lives in locals: a store through the node or stack arrays
  // could alias the members and would force reloads.
  const uint32_t S = opts.stackSize;
  uint32_t *sd = stackData.data() + StackGuard;
  uint32_t *hts = heights.data();
  StackNode *nd = nodes.data();
  uint32_t *ops = operands.data();
  uint32_t nn = numNodes;
  size_t no = numOperands;
  // Each word here takes at most two nodes and four operands: stop early
  // enough that no word needs to check for room.
  size_t budget = std::min<size_t>((nodeLimit - nn) / 2, (operandCap - no) / 4);
  if (size_t(stop - pc) > budget)
    stop = pc + budget;
  for (; pc != stop; ++pc) {
    uint64_t w = *pc;
    uint32_t payload = getWordPayload(w);
    // By frequency in typical programs: PTX, INPUT, CONSTANT, then meta.
    WordType type = getWordType(w);
    if (type == WordType::Ptx) {
      // The common shape: 1-4 scalars on one stack in, one scalar out.
      if (payload >= numInstrs || !simpleInstrs[payload])
        goto other;
      uint32_t st = simpleInstrs[payload] >> 16;
      uint32_t na = simpleInstrs[payload] & 0xffff;
      uint32_t *base = sd + size_t(st) * S;
      uint32_t h = hts[st];
      if (h < na) {
        ++stats.noOpWords;
        continue;
      }
      // Copy four values whatever na is, without branches: operands has
      // room, and the reads below stack 0 land in the guard slots.
      const uint32_t *top = base + h;
      uint32_t v0 = top[-1], v1 = top[-2], v2 = top[-3], v3 = top[-4];
      uint32_t *o = ops + no;
      o[0] = v0;
      o[1] = v1;
      o[2] = v2;
      o[3] = v3;
      StackNode *np = nd + nn;
      setNode(np[0], StackNode::Instr, 0, payload, uint32_t(no), 0);
      // The Result's aux and reg as two 4-byte stores: one 8-byte store
      // needs a 64-bit immediate in a register, which this loop lacks.
      uint64_t resLo = uint64_t(StackNode::Result) | uint64_t(st) << 16;
      std::memcpy(&np[1], &resLo, 8);
      np[1].aux = nn;
      np[1].reg = None;
      // Popping na >= 1 values leaves room for the result.
      h -= na;
      base[h] = nn + 1;
      hts[st] = h + 1;
      no += na;
      nn += 2;
      continue;
    }
    if (type == WordType::Input) {
      if (payload >= regs.size())
        goto other;
      uint16_t s = regs[payload].stackIdx;
      if (s >= info.numStacks)
        goto other;
      uint32_t h = hts[s];
      if (h == S)
        goto other;
      setNode(nd[nn], StackNode::Input, s, payload, 0, None);
      sd[size_t(s) * S + h] = nn++;
      hts[s] = h + 1;
      continue;
    }
    if (type == WordType::Constant) {
      uint16_t s = getWordAux(w);
      if (s >= info.numStacks)
        goto other;
      uint32_t h = hts[s];
      if (h == S)
        goto other;
      setNode(nd[nn], StackNode::Constant, s, payload, 0, None);
      sd[size_t(s) * S + h] = nn++;
      hts[s] = h + 1;
      continue;
    }
    if (type == WordType::Meta) {
      // dup and swap, which take no depth from the meta stack.
      uint16_t s = getWordAux(w);
      if (s >= info.numStacks)
        goto other;
      uint32_t *base = sd + size_t(s) * S;
      uint32_t h = hts[s];
      if (payload == uint32_t(MetaOp::Dup)) {
        if (h == 0 || h == S) {
          ++stats.noOpWords;
          continue;
        }
        base[h] = base[h - 1];
        hts[s] = h + 1;
        continue;
      }
      if (payload == uint32_t(MetaOp::Swap)) {
        if (h < 2) {
          ++stats.noOpWords;
          continue;
        }
        std::swap(base[h - 1], base[h - 2]);
        continue;
      }
      goto other;
    }
    goto other;
  }
other:
  numNodes = nn;
  numOperands = uint32_t(no);
  return pc;
}

Error StackPtxContext::Impl::run(const Program &prog, ArrayRef<Register> regs) {
  stats = StackPtxStats();
  // Options may change between compiles; nothing is sized before this.
  using B = StackPtxBounds;
  if (LLVM_UNLIKELY(opts.stackSize - 1 >= B::MaxStackSize ||
                    opts.maxNodes - 1 >= B::MaxNodes ||
                    opts.maxFrameDepth > B::MaxFrameDepth ||
                    opts.storeSize > B::MaxStoreSize ||
                    opts.executionLimit > B::MaxExecutionLimit))
    return checkStackPtxOptions(opts);
  numNodes = 0;
  numOperands = 0;
  // Options may change between compiles.
  nodeLimit = uint32_t(std::min<size_t>(nodeCap, opts.maxNodes));
  if (allocatedStackSize != opts.stackSize) {
    stackData.assign(StackGuard + size_t(info.numStacks) * opts.stackSize, 0);
    metaStack.assign(opts.stackSize, 0);
    allocatedStackSize = opts.stackSize;
  }
  std::fill(heights.begin(), heights.end(), 0);
  metaHeight = 0;
  // Slots are valid only if stamped with this compile's generation, so
  // nothing is cleared per compile.
  if (store.size() != opts.storeSize)
    store.assign(opts.storeSize, Slot{0, 0, 0});
  if (++storeGen == 0) {
    for (Slot &sl : store)
      sl.gen = 0;
    storeGen = 1;
  }
  frames.clear();
  uint32_t maxDepth = opts.maxFrameDepth ? opts.maxFrameDepth : 1;
  // Frames grow with the calls actually made, not with the limit.
  frames.reserve(std::min<uint32_t>(maxDepth, 64));
  uint64_t executed = 0;
  // The current frame lives in locals; `frames` holds its callers.
  Frame f = {prog.main.data(), prog.main.size(), 0, ~0u};
  const uint64_t *pc = f.words, *end = f.words + f.size;
  // Words are counted per segment: `stop` is the end of the frame or where
  // the execution limit runs out, whichever comes first, so the loop tests
  // one pointer per word.
  const uint64_t *segStart = pc, *stop = end;
  auto setStop = [&] {
    segStart = pc;
    uint64_t rem = opts.executionLimit - executed;
    stop = uint64_t(end - pc) <= rem ? end : pc + rem;
  };
  setStop();

  // runCommon runs the common words; the rest, frames and limits are here.
  for (;;) {
    pc = runCommon(pc, stop, regs);
    if (pc != stop) {
      uint64_t w = *pc++;
      uint32_t payload = getWordPayload(w);
      if (getWordType(w) == WordType::Return) {
        executed += pc - segStart;
        segStart = pc;
        goto popFrame;
      }
      if (getWordType(w) == WordType::Routine &&
          payload < prog.routines.size() && frames.size() + 1 < maxDepth) {
        ArrayRef<uint64_t> r = prog.routines[payload];
        executed += pc - segStart;
        f.pc = pc - f.words;
        frames.push_back(f);
        f = {r.data(), r.size(), 0, payload};
        pc = f.words;
        end = f.words + f.size;
        setStop();
        continue;
      }
      f.pc = pc - f.words;
      if (Error e = execWord(w, f, prog, regs))
        return e;
      if (stats.hitNodeLimit)
        break;
      continue;
    }
    executed += pc - segStart;
    segStart = pc;
    if (pc != end) {
      stats.hitExecutionLimit = true;
      break;
    }
    // A routine that ends at its last word returns there: that counts as
    // one executed word, like the reference's RETURN word.
    if (!frames.empty()) {
      if (executed >= opts.executionLimit) {
        stats.hitExecutionLimit = true;
        break;
      }
      ++executed;
    }
  popFrame:
    if (frames.empty())
      break;
    f = frames.back();
    frames.pop_back();
    pc = f.words + f.pc;
    end = f.words + f.size;
    setStop();
  }
  executed += pc - segStart;
  stats.executedWords = executed;
  stats.numNodes = numNodes;
  return Error::success();
}

Error StackPtxContext::Impl::resolveRequests(ArrayRef<Register> regs,
                                             ArrayRef<uint32_t> requests) {
  requestNodes.resize(requests.size());
  // The k-th request for a stack gets its k-th value from the top. regCounts,
  // zero outside emit(), counts the values taken so far.
  uint32_t *taken = regCounts.data();
  const uint32_t *sd = stackData.data() + StackGuard;
  const uint32_t S = opts.stackSize;
  auto valid = [&](uint32_t r) {
    return r < regs.size() && regs[r].stackIdx < info.numStacks;
  };
  uint32_t unsatisfied = 0, i = 0, e = requests.size();
  for (; i != e; ++i) {
    uint32_t r = requests[i];
    uint32_t node = None;
    if (!valid(r)) {
      if (opts.strict)
        break;
    } else {
      uint16_t st = regs[r].stackIdx;
      uint32_t k = taken[st]++;
      if (k < heights[st])
        node = sd[size_t(st) * S + heights[st] - 1 - k];
    }
    unsatisfied += node == None;
    requestNodes[i] = node;
  }
  for (uint32_t k = 0; k != i; ++k)
    if (valid(requests[k]))
      taken[regs[requests[k]].stackIdx] = 0;
  stats.unsatisfiedRequests = unsatisfied;
  if (i == e)
    return Error::success();
  uint32_t r = requests[i];
  return makeError(r >= regs.size()
                       ? "request " + Twine(i) + ": register index " +
                             Twine(r) + " out of range (" + Twine(regs.size()) +
                             " registers)"
                       : "request " + Twine(i) + ": register '" + regs[r].name +
                             "' has stack index " + Twine(regs[r].stackIdx) +
                             " out of range");
}

Error StackPtxContext::Impl::execute(const Program &prog,
                                     ArrayRef<Register> regs,
                                     ArrayRef<uint32_t> requests) {
  if (Error e = run(prog, regs))
    return e;
  return resolveRequests(regs, requests);
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//
//
// Text is written through a raw cursor `p`; each line first makes room for
// its longest possible text (TextBuf::ensure), so the writers below neither
// check nor grow. Registers and pieces are written with fixed 16-byte copies,
// so room includes that overshoot.

char *StackPtxContext::Impl::writeOperand(char *p, uint32_t n,
                                          ArrayRef<Register> regs,
                                          size_t after) {
  const StackNode &nd = nodes[n];
  switch (nd.kind) {
  case StackNode::Input: {
    // Names are the only text of unbounded length.
    StringRef name = regs[nd.payload].name;
    p = out.ensure(p, 1 + name.size() + after);
    *p = '%';
    return writeName(p + 1, name);
  }
  case StackNode::Constant:
    if (nd.reg == None)
      return writeLiteral(p, nd.stack, nd.payload);
    return writeReg(p, nd.stack, nd.reg);
  case StackNode::Special:
  case StackNode::Result:
    return writeReg(p, nd.stack, nd.reg);
  case StackNode::Instr:
    break;
  }
  llvm_unreachable("an instruction node is never an operand");
}

char *StackPtxContext::Impl::emitInstr(char *p, uint32_t n,
                                       ArrayRef<Register> regs) {
  StackNode *nd = nodes.data();
  StackNode &in = nd[n];
  in.reg = 1;
  ++stats.emittedInstrs;
  const InstrInfo &ii = instrInfo[in.payload];
  p = out.ensure(p, ii.lineMax);
  const char *op = &opText[ii.opTextBegin];
  std::memcpy(p, op, 32);
  if (ii.opTextLen > 32)
    std::memcpy(p + 32, op + 32, ii.opTextLen - 32);
  p += ii.opTextLen;
  if (!ii.scalar)
    return emitVectorOperands(p, n, regs);
  for (unsigned e = 0; e != ii.numRetElems; ++e) {
    if (e)
      *p++ = '|';
    StackNode &res = nd[n + 1 + e];
    res.reg = newReg(res.stack);
    p = writeReg(p, res.stack, res.reg);
  }
  const uint32_t *ops = &operands[in.aux];
  for (unsigned e = 0; e != ii.numArgElems; ++e) {
    std::memcpy(p, ", ", 2);
    p = writeOperand(p + 2, ops[e], regs, ii.lineMax);
  }
  std::memcpy(p, ";\n", 2);
  return p + 2;
}

char *StackPtxContext::Impl::emitVectorOperands(char *p, uint32_t n,
                                                ArrayRef<Register> regs) {
  // Vector operands: `\n\t\t{e0, e1, ...}`.
  StackNode *nd = nodes.data();
  const StackNode &in = nd[n];
  const InstrInfo &ii = instrInfo[in.payload];
  const PtxInstrDesc &d = info.instrs[in.payload];
  uint32_t elem = 0;
  for (unsigned r = 0; r != d.numRets; ++r) {
    if (r)
      *p++ = '|';
    unsigned vec = info.argTypes[d.rets[r]].numVecElems;
    unsigned cnt = vec ? vec : 1;
    if (vec) {
      std::memcpy(p, "\n\t\t{", 4);
      p += 4;
    }
    for (unsigned e = 0; e != cnt; ++e, ++elem) {
      StackNode &res = nd[n + 1 + elem];
      res.reg = newReg(res.stack);
      if (e) {
        std::memcpy(p, ", ", 2);
        p += 2;
      }
      p = writeReg(p, res.stack, res.reg);
    }
    if (vec)
      *p++ = '}';
  }
  const uint32_t *ops = &operands[in.aux];
  elem = 0;
  for (unsigned a = 0; a != d.numArgs; ++a) {
    std::memcpy(p, ", ", 2);
    p += 2;
    unsigned vec = info.argTypes[d.args[a]].numVecElems;
    unsigned cnt = vec ? vec : 1;
    if (vec) {
      std::memcpy(p, "\n\t\t{", 4);
      p += 4;
    }
    for (unsigned e = 0; e != cnt; ++e, ++elem) {
      if (e) {
        std::memcpy(p, ", ", 2);
        p += 2;
      }
      p = writeOperand(p, ops[elem], regs, ii.lineMax);
    }
    if (vec)
      *p++ = '}';
  }
  std::memcpy(p, ";\n", 2);
  return p + 2;
}

StringRef StackPtxContext::Impl::emit(ArrayRef<Register> regs,
                                      ArrayRef<uint32_t> requests,
                                      ArrayRef<Register> zeroRegs) {
  // regCounts is all zero here and is put back so at the end.
  numUsedStacks = 0;
  // The declarations depend on the register counts, known last: the body
  // starts after room for them, and they are written backwards in front.
  out.clear();
  char *p = out.ensure(out.end(), headerRoom + 256) + headerRoom;

  // Every node is pushed at most once per expansion of the instruction
  // using it, and each instruction is expanded at most once.
  size_t maxVisit = requests.size() + numNodes + numOperands;
  if (visit.size() < maxVisit)
    visit.resize(maxVisit);
  uint32_t *vis = visit.data();
  size_t top = 0;
  for (uint32_t n : requestNodes)
    if (n != None)
      vis[top++] = n;
  StackNode *nd = nodes.data();
  const uint8_t *inl = tables.getInlineLiterals();
  while (top) {
    uint32_t n = vis[--top];
    StackNode &x = nd[n];
    switch (x.kind) {
    case StackNode::Input:
      continue;
    case StackNode::Special: {
      if (x.reg != None)
        continue;
      uint32_t len = specialInfo[x.payload].ptxLen;
      p = out.ensure(p, movMax + 64 + len);
      x.reg = newReg(x.stack);
      p = writeMov(p, x.stack);
      p = writeReg(p, x.stack, x.reg);
      std::memcpy(p, ", %", 3);
      std::memcpy(p + 3, info.specialPtx[x.payload], len);
      p += 3 + len;
      if (x.aux != None) {
        p[0] = '.';
        p[1] = "xyzw"[x.aux & 3];
        p += 2;
      }
      std::memcpy(p, ";\n", 2);
      p += 2;
      continue;
    }
    case StackNode::Constant:
      // Only literals that cannot be immediate operands are visited.
      if (x.reg != None || inl[x.stack])
        continue;
      p = out.ensure(p, movMax + 64);
      x.reg = newReg(x.stack);
      p = writeMov(p, x.stack);
      p = writeReg(p, x.stack, x.reg);
      std::memcpy(p, ", ", 2);
      p = writeLiteral(p + 2, x.stack, x.payload);
      std::memcpy(p, ";\n", 2);
      p += 2;
      continue;
    case StackNode::Instr:
      // Pushed back under its operands, which are all emitted now.
      if (x.reg == 0)
        p = emitInstr(p, n, regs);
      continue;
    case StackNode::Result:
      n = x.aux;
      break;
    }
    if (nd[n].reg != 0)
      continue;
    const uint32_t *ops = &operands[nd[n].aux];
    size_t mark = top;
    vis[top++] = n;
    for (unsigned e = instrInfo[nd[n].payload].numArgElems; e-- != 0;) {
      // A result gets its register when its instruction is emitted.
      const StackNode &o = nd[ops[e]];
      bool done = o.reg != None || o.kind == StackNode::Input ||
                  (o.kind == StackNode::Constant && inl[o.stack]);
      if (!done)
        vis[top++] = ops[e];
    }
    if (top != mark + 1)
      continue;
    top = mark;
    p = emitInstr(p, n, regs);
  }

  // The requests' movs are a parallel assignment: a request that reads an
  // input register which an earlier request overwrites (a mod variable
  // requested before the read) reads a copy taken before the first write.
  auto sameRegister = [&](uint32_t a, uint32_t b) {
    return a == b ||
           (a < regs.size() && b < regs.size() && regs[a].name == regs[b].name);
  };
  // An unsatisfied request is zeroed unless another request of the same
  // register gets a value (`.requests { z z }` with one value). The names
  // with a value are collected only when some request has none.
  StringSet<> valued;
  if (opts.zeroUnsatisfied &&
      llvm::is_contained(
          ArrayRef<uint32_t>(requestNodes.data(), requests.size()), None))
    for (uint32_t k = 0, e = requests.size(); k != e; ++k)
      if (requestNodes[k] != None && requests[k] < regs.size())
        valued.insert(regs[requests[k]].name);
  auto zeroes = [&](uint32_t i) {
    uint32_t r = requests[i];
    return requestNodes[i] == None && opts.zeroUnsatisfied &&
           regs[r].kind != RegKind::Mod && !valued.count(regs[r].name);
  };
  auto writes = [&](uint32_t i) {
    uint32_t r = requests[i];
    if (r >= regs.size() || regs[r].stackIdx >= info.numStacks)
      return false;
    return requestNodes[i] != None || zeroes(i);
  };
  bool anyCopies = false;
  if (requests.size() > 1)
    requestCopies.assign(requests.size(), None);
  for (uint32_t i = 1, e = requests.size(); i < e; ++i) {
    uint32_t n = requestNodes[i];
    if (n == None || !writes(i) || nd[n].kind != StackNode::Input)
      continue;
    uint32_t src = nd[n].payload;
    for (uint32_t k = 0; k != i; ++k) {
      uint32_t r = requests[k];
      if (!writes(k) || !sameRegister(r, src))
        continue;
      uint16_t st = nd[n].stack;
      requestCopies[i] = newReg(st);
      anyCopies = true;
      p = out.ensure(p, movMax + 64);
      p = writeMov(p, st);
      p = writeReg(p, st, requestCopies[i]);
      std::memcpy(p, ", ", 2);
      p = writeOperand(p + 2, n, regs, 64);
      std::memcpy(p, ";\n", 2);
      p += 2;
      break;
    }
  }

  // `mov.<type> %name, ` with room for the source operand after it.
  auto writeMovTo = [&](char *p, uint16_t s, StringRef name) {
    p = out.ensure(p, movMax + 64 + name.size());
    p = writeMov(p, s);
    *p = '%';
    p = writeName(p + 1, name);
    std::memcpy(p, ", ", 2);
    return p + 2;
  };
  uint32_t zeroed = 0;
  for (uint32_t i = 0, e = requests.size(); i != e; ++i) {
    uint32_t r = requests[i];
    uint32_t n = requestNodes[i];
    if (r >= regs.size() || regs[r].stackIdx >= info.numStacks)
      continue;
    if (n == None && !zeroes(i))
      continue;
    uint16_t s = regs[r].stackIdx;
    p = writeMovTo(p, s, regs[r].name);
    if (n == None) {
      ++zeroed;
      p = writeLiteral(p, s, 0);
    } else if (anyCopies && requestCopies[i] != None) {
      p = writeReg(p, nd[n].stack, requestCopies[i]);
    } else {
      p = writeOperand(p, n, regs, 64);
    }
    std::memcpy(p, ";\n", 2);
    p += 2;
  }
  stats.zeroedRequests = zeroed;
  for (const Register &z : zeroRegs) {
    if (z.stackIdx >= info.numStacks)
      continue;
    p = writeLiteral(writeMovTo(p, z.stackIdx, z.name), z.stackIdx, 0);
    std::memcpy(p, ";\n", 2);
    p += 2;
  }
  p = out.ensure(p, 3);
  std::memcpy(p, "\t}", 3);
  out.setEnd(p + 2);

  // Declarations in stack order; usually one or two stacks are used.
  uint16_t *used = usedStacks.data();
  if (numUsedStacks > 1)
    std::sort(used, used + numUsedStacks);
  char *q = out.begin() + headerRoom;
  for (uint32_t i = numUsedStacks; i-- != 0;) {
    uint16_t s = used[i];
    uint32_t c = regCounts[s];
    regCounts[s] = 0;
    q -= 3;
    std::memcpy(q, ">;\n", 3);
    do {
      *--q = char('0' + c % 10);
      c /= 10;
    } while (c);
    const std::string &head = tables.getDeclHead(s);
    q -= head.size();
    std::memcpy(q, head.data(), head.size());
  }
  q -= 3;
  std::memcpy(q, "\t{\n", 3);
  return StringRef(q, out.end() - q);
}

//===----------------------------------------------------------------------===//
// StackPtxContext
//===----------------------------------------------------------------------===//

StackPtxContext::StackPtxContext(const StackInfo &info, StackPtxOptions opts)
    : impl(std::make_unique<Impl>(info, opts)) {}
StackPtxContext::~StackPtxContext() = default;
StackPtxContext::StackPtxContext(StackPtxContext &&) = default;
StackPtxContext &StackPtxContext::operator=(StackPtxContext &&) = default;

Expected<StringRef> StackPtxContext::compile(const Program &prog,
                                             ArrayRef<Register> regs,
                                             ArrayRef<uint32_t> requests,
                                             ArrayRef<Register> zeroRegs) {
  Impl &im = *impl;
  assert(im.opts.targetSm == im.targetSm &&
         "the target is baked into the context's tables at construction");
  if (Error e = im.execute(prog, regs, requests))
    return e;
  return im.emit(regs, requests, zeroRegs);
}

Error StackPtxContext::execute(const Program &prog, ArrayRef<Register> regs,
                               ArrayRef<uint32_t> requests) {
  return impl->execute(prog, regs, requests);
}

const StackPtxStats &StackPtxContext::getStats() const { return impl->stats; }
const StackPtxOptions &StackPtxContext::getOptions() const {
  return impl->opts;
}
StackPtxOptions &StackPtxContext::getOptions() { return impl->opts; }
const StackInfo &StackPtxContext::getInfo() const { return impl->info; }
uint32_t StackPtxContext::getTargetSm() const { return impl->targetSm; }
ArrayRef<StackNode> StackPtxContext::getNodes() const {
  return ArrayRef<StackNode>(impl->nodes.data(), impl->numNodes);
}
ArrayRef<uint32_t> StackPtxContext::getOperands() const {
  return ArrayRef<uint32_t>(impl->operands.data(), impl->numOperands);
}
ArrayRef<uint32_t> StackPtxContext::getRequestNodes() const {
  return impl->requestNodes;
}
unsigned StackPtxContext::getNumArgElems(uint32_t instr) const {
  return impl->instrInfo[instr].numArgElems;
}
uint16_t StackPtxContext::getRetElemStack(uint32_t instr, unsigned elem) const {
  return impl->elemStacks[impl->instrInfo[instr].retElemBegin + elem];
}

bool stack::isRegisterName(StringRef s) {
  if (s.empty() || !(isAlpha(s[0]) || s[0] == '_' || s[0] == '$'))
    return false;
  return all_of(s, [](char c) { return isAlnum(c) || c == '_' || c == '$'; });
}

bool stack::isReservedRegisterName(StringRef name) {
  if (!name.consume_front("_s"))
    return false;
  auto [stackNo, n] = name.split('_');
  auto digits = [](StringRef d) {
    return !d.empty() && all_of(d, [](char c) { return isDigit(c); });
  };
  return digits(stackNo) && digits(n);
}

Expected<std::string> stack::compileStackPtx(const StackInfo &info,
                                             const Program &prog,
                                             ArrayRef<Register> regs,
                                             ArrayRef<uint32_t> requests,
                                             const StackPtxOptions &opts) {
  // One context per thread and table: building one costs microseconds.
  thread_local std::unique_ptr<StackPtxContext> ctx;
  if (!ctx || &ctx->getInfo() != &info || ctx->getTargetSm() != opts.targetSm)
    ctx = std::make_unique<StackPtxContext>(info, opts);
  ctx->getOptions() = opts;
  Expected<StringRef> text = ctx->compile(prog, regs, requests);
  if (!text)
    return text.takeError();
  return text->str();
}
