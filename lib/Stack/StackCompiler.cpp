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
///    its results so that element 0 of return 0 ends on top.
/// 2. Requests: each request pops, on a copy of the stack heights, the next
///    value of its register's stack.
/// 3. Emission: requests are visited last to first, depth first; an
///    instruction whose operands are not yet emitted is re-pushed under them
///    so operand 0 is emitted first. Results get per-stack register numbers
///    in emission order; special registers are read with a `mov` just before
///    their first use. The declarations are written last and put in front.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackCompiler.h"

#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/Twine.h"

#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

const char *stack::getMetaOpName(uint32_t op) {
  static const char *const names[] = {"dup",       "yank_dup", "swap",
                                      "swap_with", "replace",  "drop",
                                      "clear",     "rotate",   "reverse"};
  return op < NumMetaOps ? names[op] : nullptr;
}

StackPtxContext::StackPtxContext(const StackInfo &info, StackPtxOptions opts)
    : info(info), opts(opts) {
  // Derive per-instruction element layouts; an entry with a bad index stays
  // invalid and its words are ignored, so a broken table cannot crash us.
  auto argOk = [&](uint16_t a) {
    return a < info.numArgTypes && info.argTypes[a].stackIdx < info.numStacks &&
           info.argTypes[a].numVecElems <= 64;
  };
  instrInfo.resize(info.numInstrs);
  for (uint32_t i = 0; i != info.numInstrs; ++i) {
    const PtxInstrDesc &d = info.instrs[i];
    InstrInfo &ii = instrInfo[i];
    if (d.numArgs > 4 || d.numRets < 1 || d.numRets > 2)
      continue;
    bool ok = true;
    for (unsigned a = 0; a != d.numArgs; ++a)
      ok &= argOk(d.args[a]);
    for (unsigned r = 0; r != d.numRets; ++r)
      ok &= argOk(d.rets[r]);
    if (!ok)
      continue;
    ii.argElemBegin = elemStacks.size();
    for (unsigned a = 0; a != d.numArgs; ++a) {
      const ArgTypeInfo &t = info.argTypes[d.args[a]];
      unsigned n = t.numVecElems ? t.numVecElems : 1;
      for (unsigned e = 0; e != n; ++e)
        elemStacks.push_back(t.stackIdx);
      ii.numArgElems += n;
      unsigned u = 0;
      while (u != ii.numUnique && ii.uniqueStack[u] != t.stackIdx)
        ++u;
      if (u == ii.numUnique) {
        ii.uniqueStack[u] = t.stackIdx;
        ++ii.numUnique;
      }
      ii.uniqueCount[u] += n;
    }
    ii.retElemBegin = elemStacks.size();
    for (unsigned r = 0; r != d.numRets; ++r) {
      const ArgTypeInfo &t = info.argTypes[d.rets[r]];
      unsigned n = t.numVecElems ? t.numVecElems : 1;
      for (unsigned e = 0; e != n; ++e)
        elemStacks.push_back(t.stackIdx);
      ii.numRetElems += n;
    }
    ii.valid = true;
    ii.simple = ii.numUnique == 1 && d.numRets == 1 &&
                ii.numArgElems == d.numArgs && ii.numRetElems == 1 &&
                elemStacks[ii.retElemBegin] == ii.uniqueStack[0];
  }
  specialInfo.resize(info.numSpecials);
  for (uint32_t i = 0; i != info.numSpecials; ++i) {
    uint16_t a = info.specials[i].argType;
    if (!argOk(a) || info.argTypes[a].numVecElems > 4)
      continue;
    specialInfo[i] = {true, info.argTypes[a].stackIdx,
                      info.argTypes[a].numVecElems};
  }
  litKinds.resize(info.numStacks);
  prefixLens.resize(info.numStacks);
  movOps.reserve(info.numStacks);
  for (uint32_t s = 0; s != info.numStacks; ++s) {
    StringRef p = info.literalPrefixes[s];
    prefixLens[s] = p.size();
    inlineLits.push_back(info.inlineLiterals ? info.inlineLiterals[s] : 1);
    movOps.push_back(p == "u8" || p == "s8" ? ("cvt." + p + "." + p).str()
                                            : ("mov." + p).str());
    Piece mp = {}, rp = {};
    std::string mov = "\t" + movOps.back() + " ";
    std::string reg = ("%_s" + Twine(s) + "_").str();
    mp.len = std::min<size_t>(mov.size(), 16);
    std::memcpy(mp.text, mov.data(), mp.len);
    rp.len = std::min<size_t>(reg.size(), 16);
    std::memcpy(rp.text, reg.data(), rp.len);
    // Long prefixes do not fit a piece; len 0xff marks "use the string".
    if (mov.size() > 16)
      mp.len = 0xff;
    movPieces.push_back(mp);
    regPieces.push_back(rp);
    litKinds[s] = p == "f32"   ? LitKind::F32
                  : p == "u32" ? LitKind::U32
                  : p == "f64" ? LitKind::F64
                               : LitKind::Hex;
  }
  heights.resize(info.numStacks);
  regCounts.resize(info.numStacks);
  for (uint32_t i = 0; i != info.numInstrs; ++i)
    instrPtxLens.push_back(
        uint16_t(std::min<size_t>(std::strlen(info.instrPtx[i]), 0xffff)));
}

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

bool StackPtxContext::makeRoom(uint32_t moreNodes, uint32_t moreOps) {
  if (uint64_t(numNodes) + moreNodes > opts.maxNodes)
    return false;
  growNodes(moreNodes, moreOps);
  return true;
}

void StackPtxContext::growNodes(uint32_t moreNodes, uint32_t moreOps) {
  if (numNodes + moreNodes > nodes.size())
    nodes.resize(std::max<size_t>(2 * nodes.size() + 64, numNodes + moreNodes));
  if (numOperands + moreOps > operands.size())
    operands.resize(
        std::max<size_t>(2 * operands.size() + 64, numOperands + moreOps));
  nodeCap = nodes.size();
  operandCap = operands.size();
  nodeLimit = uint32_t(std::min<size_t>(nodeCap, opts.maxNodes));
}

Error StackPtxContext::invalidWord(const Frame &f, const Twine &msg) {
  // f.pc is the index of the word after the invalid one.
  if (!opts.strict) {
    ++stats.ignoredWords;
    return Error::success();
  }
  std::string where = f.routine == ~0u ? std::string("the main program")
                                       : ("routine " + Twine(f.routine)).str();
  return makeError("word " + Twine(f.pc - 1) + " of " + where + ": " + msg);
}

Error StackPtxContext::run(const Program &prog, ArrayRef<Register> regs) {
  stats = StackPtxStats();
  numNodes = 0;
  numOperands = 0;
  // Options may change between compiles.
  nodeLimit = uint32_t(std::min<size_t>(nodeCap, opts.maxNodes));
  if (allocatedStackSize != opts.stackSize) {
    stackData.assign(size_t(info.numStacks) * opts.stackSize, 0);
    metaStack.assign(opts.stackSize, 0);
    allocatedStackSize = opts.stackSize;
  }
  std::fill(heights.begin(), heights.end(), 0);
  uint32_t metaHeight = 0;
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
  frames.reserve(maxDepth);
  const uint32_t S = opts.stackSize;
  const uint32_t numStacks = info.numStacks;
  const uint64_t limit = opts.executionLimit;
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
    uint64_t rem = limit - executed;
    stop = uint64_t(end - pc) <= rem ? end : pc + rem;
  };
  setStop();

  uint32_t *__restrict sd = stackData.data();
  uint32_t *__restrict hts = heights.data();
  auto pushL = [&](uint16_t st, uint32_t node) {
    uint32_t h = hts[st];
    if (h == S) {
      ++stats.droppedPushes;
      return;
    }
    sd[size_t(st) * S + h] = node;
    hts[st] = h + 1;
  };
  auto popL = [&](uint16_t st) { return sd[size_t(st) * S + --hts[st]]; };
  // Invalid words: the error names the word just read.
  auto bad = [&](const Twine &msg) {
    f.pc = pc - f.words;
    return invalidWord(f, msg);
  };

  for (;;) {
    if (pc == stop) {
      executed += pc - segStart;
      segStart = pc;
      if (pc != end) {
        stats.hitExecutionLimit = true;
        break;
      }
    popFrame:
      if (frames.empty())
        break;
      f = frames.back();
      frames.pop_back();
      pc = f.words + f.pc;
      end = f.words + f.size;
      setStop();
      continue;
    }
    uint64_t w = *pc++;
    uint16_t aux = getWordAux(w);
    uint32_t payload = getWordPayload(w);
    switch (getWordType(w)) {
    case WordType::Return:
      executed += pc - segStart;
      segStart = pc;
      goto popFrame;

    case WordType::Input: {
      if (payload >= regs.size()) {
        if (Error e =
                bad("input register index " + Twine(payload) +
                    " out of range (" + Twine(regs.size()) + " registers)"))
          return e;
        continue;
      }
      uint16_t s = regs[payload].stackIdx;
      if (s >= numStacks) {
        if (Error e = bad("input register '" + regs[payload].name +
                          "' has stack index " + Twine(s) + " out of range"))
          return e;
        continue;
      }
      if (!roomFor(1, 0)) {
        stats.hitNodeLimit = true;
        goto done;
      }
      addNode(StackNode::Input, s, payload, 0, None);
      pushL(s, numNodes - 1);
      continue;
    }

    case WordType::Constant: {
      if (aux >= numStacks) {
        if (Error e = bad("constant stack index " + Twine(aux) +
                          " out of range (" + Twine(numStacks) + " stacks)"))
          return e;
        continue;
      }
      if (!roomFor(1, 0)) {
        stats.hitNodeLimit = true;
        goto done;
      }
      addNode(StackNode::Constant, aux, payload, 0, None);
      pushL(aux, numNodes - 1);
      continue;
    }

    case WordType::Special: {
      if (payload >= specialInfo.size() || !specialInfo[payload].valid) {
        if (Error e = bad("special register index " + Twine(payload) +
                          " out of range (" + Twine(info.numSpecials) +
                          " special registers)"))
          return e;
        continue;
      }
      const SpecialInfo &si = specialInfo[payload];
      unsigned n = si.numVecElems ? si.numVecElems : 1;
      if (!roomFor(n, 0)) {
        stats.hitNodeLimit = true;
        goto done;
      }
      for (unsigned e = 0; e != n; ++e) {
        addNode(StackNode::Special, si.stack, payload,
                si.numVecElems ? e : None, None);
        pushL(si.stack, numNodes - 1);
      }
      continue;
    }

    case WordType::Ptx: {
      if (payload >= instrInfo.size() || !instrInfo[payload].valid) {
        if (Error e = bad("PTX instruction index " + Twine(payload) +
                          " out of range (" + Twine(info.numInstrs) +
                          " instructions)"))
          return e;
        continue;
      }
      const InstrInfo &ii = instrInfo[payload];
      if (ii.simple) {
        // The common shape: scalars on one stack in, one scalar out.
        uint16_t st = ii.uniqueStack[0];
        uint32_t na = ii.numArgElems;
        uint32_t h = hts[st];
        if (h < na) {
          ++stats.noOpWords;
          continue;
        }
        if (!roomFor(2, na)) {
          stats.hitNodeLimit = true;
          goto done;
        }
        uint32_t *__restrict base = sd + size_t(st) * S;
        uint32_t *__restrict ops = operands.data() + numOperands;
        for (uint32_t e = 0; e != na; ++e)
          ops[e] = base[h - 1 - e];
        h -= na;
        StackNode *__restrict nd = nodes.data() + numNodes;
        nd[0].kind = StackNode::Instr;
        nd[0].stack = 0;
        nd[0].payload = payload;
        nd[0].aux = numOperands;
        nd[0].reg = 0;
        nd[1].kind = StackNode::Result;
        nd[1].stack = st;
        nd[1].payload = 0;
        nd[1].aux = numNodes;
        nd[1].reg = None;
        numOperands += na;
        if (h == S) { // only when na == 0 on a full stack
          ++stats.droppedPushes;
        } else {
          base[h++] = numNodes + 1;
        }
        hts[st] = h;
        numNodes += 2;
        continue;
      }
      bool enough = true;
      for (unsigned u = 0; u != ii.numUnique; ++u)
        enough &= hts[ii.uniqueStack[u]] >= ii.uniqueCount[u];
      if (!enough) {
        ++stats.noOpWords;
        continue;
      }
      if (!roomFor(1 + ii.numRetElems, ii.numArgElems)) {
        stats.hitNodeLimit = true;
        goto done;
      }
      // Hot path: work on locals so stores through the arrays do not force
      // reloads of the members.
      StackNode *__restrict nd = nodes.data();
      uint32_t *__restrict ops = operands.data() + numOperands;
      uint32_t instrNode = numNodes;
      StackNode &in = nd[instrNode];
      in.kind = StackNode::Instr;
      in.stack = 0;
      in.payload = payload;
      in.aux = numOperands;
      in.reg = 0;
      const uint16_t *argStacks = &elemStacks[ii.argElemBegin];
      for (unsigned e = 0, ne = ii.numArgElems; e != ne; ++e) {
        uint16_t st = argStacks[e];
        ops[e] = sd[size_t(st) * S + --hts[st]];
      }
      numOperands += ii.numArgElems;
      const uint16_t *retStacks = &elemStacks[ii.retElemBegin];
      unsigned nr = ii.numRetElems;
      for (unsigned e = 0; e != nr; ++e) {
        StackNode &r = nd[instrNode + 1 + e];
        r.kind = StackNode::Result;
        r.stack = retStacks[e];
        r.payload = e;
        r.aux = instrNode;
        r.reg = None;
      }
      numNodes = instrNode + 1 + nr;
      for (unsigned e = nr; e-- != 0;) {
        uint16_t st = retStacks[e];
        uint32_t h = hts[st];
        if (h == S) {
          ++stats.droppedPushes;
          continue;
        }
        sd[size_t(st) * S + h] = instrNode + 1 + e;
        hts[st] = h + 1;
      }
      continue;
    }

    case WordType::MetaConstant:
      if (metaHeight == S) {
        ++stats.droppedPushes;
        continue;
      }
      metaStack[metaHeight++] = payload;
      continue;

    case WordType::Meta: {
      if (aux >= numStacks || payload >= NumMetaOps) {
        if (Error e =
                bad(aux >= numStacks
                        ? "meta stack index " + Twine(aux) + " out of range (" +
                              Twine(numStacks) + " stacks)"
                        : "meta opcode " + Twine(payload) + " out of range"))
          return e;
        continue;
      }
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
          continue;
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
      continue;
    }

    case WordType::Store: {
      if (aux >= numStacks || payload >= opts.storeSize) {
        if (Error e =
                bad(aux >= numStacks
                        ? "store stack index " + Twine(aux) +
                              " out of range (" + Twine(numStacks) + " stacks)"
                        : "store slot " + Twine(payload) + " out of range (" +
                              Twine(opts.storeSize) + " slots)"))
          return e;
        continue;
      }
      if (hts[aux] == 0) {
        ++stats.noOpWords;
        continue;
      }
      store[payload] = {popL(aux), aux, storeGen};
      continue;
    }

    case WordType::Load: {
      if (payload >= opts.storeSize) {
        if (Error e = bad("load slot " + Twine(payload) + " out of range (" +
                          Twine(opts.storeSize) + " slots)"))
          return e;
        continue;
      }
      const Slot &slot = store[payload];
      if (slot.gen != storeGen) {
        ++stats.noOpWords;
        continue;
      }
      pushL(slot.stack, slot.node);
      continue;
    }

    case WordType::Routine: {
      if (payload >= prog.routines.size()) {
        if (Error e =
                bad("routine index " + Twine(payload) + " out of range (" +
                    Twine(prog.routines.size()) + " routines)"))
          return e;
        continue;
      }
      if (frames.size() + 1 >= maxDepth) {
        ++stats.refusedCalls;
        continue;
      }
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

    case WordType::None:
    case WordType::ReservedRegister:
    case WordType::ReservedAstIdx:
    default:
      if (Error e = bad("unknown word type " + Twine(getWordTypeBits(w))))
        return e;
      continue;
    }
  }
done:
  executed += pc - segStart;
  stats.executedWords = executed;
  stats.numNodes = numNodes;
  return Error::success();
}

Error StackPtxContext::resolveRequests(ArrayRef<Register> regs,
                                       ArrayRef<uint32_t> requests) {
  requestNodes.clear();
  // Pops on a copy of the heights: regCounts doubles as that copy here.
  for (uint32_t s = 0; s != info.numStacks; ++s)
    regCounts[s] = heights[s];
  for (uint32_t i = 0, e = requests.size(); i != e; ++i) {
    uint32_t r = requests[i];
    if (r >= regs.size() || regs[r].stackIdx >= info.numStacks) {
      if (opts.strict)
        return makeError(r >= regs.size()
                             ? "request " + Twine(i) + ": register index " +
                                   Twine(r) + " out of range (" +
                                   Twine(regs.size()) + " registers)"
                             : "request " + Twine(i) + ": register '" +
                                   regs[r].name + "' has stack index " +
                                   Twine(regs[r].stackIdx) + " out of range");
      requestNodes.push_back(None);
      ++stats.unsatisfiedRequests;
      continue;
    }
    uint32_t &h = regCounts[regs[r].stackIdx];
    if (h == 0) {
      requestNodes.push_back(None);
      ++stats.unsatisfiedRequests;
      continue;
    }
    requestNodes.push_back(stackBase(regs[r].stackIdx)[--h]);
  }
  return Error::success();
}

Error StackPtxContext::execute(const Program &prog, ArrayRef<Register> regs,
                               ArrayRef<uint32_t> requests) {
  if (Error e = run(prog, regs))
    return e;
  return resolveRequests(regs, requests);
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

static inline void appendUInt(stack::detail::TextBuf &os, uint32_t v) {
  os.appendUInt(v);
}

static inline void appendHex(stack::detail::TextBuf &os, uint64_t v,
                             unsigned digits) {
  static const char hex[] = "0123456789ABCDEF";
  char buf[16];
  for (unsigned i = digits; i-- != 0;) {
    buf[i] = hex[v & 15];
    v >>= 4;
  }
  os.append(buf, digits);
}

void StackPtxContext::writeReg(stack::detail::TextBuf &os, uint16_t stack,
                               uint32_t reg) {
  const Piece &p = regPieces[stack];
  os.append16(p.text, p.len);
  os.appendUInt(reg);
}

void StackPtxContext::writeMov(stack::detail::TextBuf &os, uint16_t stack) {
  const Piece &p = movPieces[stack];
  if (p.len != 0xff) {
    os.append16(p.text, p.len);
    return;
  }
  os.push_back('\t');
  os.append(movOps[stack]);
  os.push_back(' ');
}

void StackPtxContext::writeLiteral(stack::detail::TextBuf &os, uint16_t stack,
                                   uint32_t bits) {
  switch (litKinds[stack]) {
  case LitKind::F32:
    os.append("0f", 2);
    appendHex(os, bits, 8);
    return;
  case LitKind::U32:
    os.append("0x", 2);
    appendHex(os, bits, 8);
    os.push_back('U');
    return;
  case LitKind::F64: {
    // 32-bit payloads on an f64 stack are f32 values, widened exactly.
    float f;
    std::memcpy(&f, &bits, 4);
    double d = f;
    uint64_t dbits;
    std::memcpy(&dbits, &d, 8);
    os.append("0d", 2);
    appendHex(os, dbits, 16);
    return;
  }
  case LitKind::Hex:
    os.append("0x", 2);
    appendHex(os, bits, 8);
    return;
  }
}

void StackPtxContext::writeOperand(stack::detail::TextBuf &os, uint32_t n) {
  ArrayRef<Register> regs = curRegs;
  const StackNode &nd = nodes[n];
  switch (nd.kind) {
  case StackNode::Input:
    os.push_back('%');
    os.append(regs[nd.payload].name.data(), regs[nd.payload].name.size());
    return;
  case StackNode::Constant:
    if (nd.reg != None)
      writeReg(os, nd.stack, nd.reg);
    else
      writeLiteral(os, nd.stack, nd.payload);
    return;
  case StackNode::Special:
  case StackNode::Result:
    writeReg(os, nd.stack, nd.reg);
    return;
  case StackNode::Instr:
    llvm_unreachable("an instruction node is never an operand");
  }
}

void StackPtxContext::emitInstr(uint32_t n) {
  StackNode &in = nodes[n];
  in.reg = 1;
  ++stats.emittedInstrs;
  const PtxInstrDesc &d = info.instrs[in.payload];
  stack::detail::TextBuf &os = body;
  os.push_back('\t');
  os.append(info.instrPtx[in.payload], instrPtxLens[in.payload]);
  os.push_back(' ');
  uint32_t elem = 0;
  for (unsigned r = 0; r != d.numRets; ++r) {
    if (r)
      os.push_back('|');
    unsigned vec = info.argTypes[d.rets[r]].numVecElems;
    unsigned cnt = vec ? vec : 1;
    if (vec)
      os.append("\n\t\t{", 4);
    for (unsigned e = 0; e != cnt; ++e, ++elem) {
      StackNode &res = nodes[n + 1 + elem];
      res.reg = regCounts[res.stack]++;
      if (e)
        os.append(", ", 2);
      writeReg(os, res.stack, res.reg);
    }
    if (vec)
      os.push_back('}');
  }
  const uint32_t *ops = &operands[in.aux];
  elem = 0;
  for (unsigned a = 0; a != d.numArgs; ++a) {
    os.append(", ", 2);
    unsigned vec = info.argTypes[d.args[a]].numVecElems;
    unsigned cnt = vec ? vec : 1;
    if (vec)
      os.append("\n\t\t{", 4);
    for (unsigned e = 0; e != cnt; ++e, ++elem) {
      if (e)
        os.append(", ", 2);
      writeOperand(os, ops[elem]);
    }
    if (vec)
      os.push_back('}');
  }
  os.append(";\n", 2);
}

void StackPtxContext::emit(ArrayRef<Register> regs,
                           ArrayRef<uint32_t> requests) {
  curRegs = regs;
  std::fill(regCounts.begin(), regCounts.end(), 0);
  body.clear();
  visit.clear();
  for (uint32_t n : requestNodes)
    if (n != None)
      visit.push_back(n);

  auto isDone = [&](uint32_t n) {
    const StackNode &nd = nodes[n];
    switch (nd.kind) {
    case StackNode::Special:
      return nd.reg != None;
    case StackNode::Constant:
      return inlineLits[nd.stack] || nd.reg != None;
    case StackNode::Result:
      return nodes[nd.aux].reg != 0;
    case StackNode::Instr:
      return nd.reg != 0;
    default:
      return true;
    }
  };

  while (!visit.empty()) {
    uint32_t n = visit.back();
    visit.pop_back();
    StackNode &nd = nodes[n];
    if (nd.kind == StackNode::Special) {
      if (nd.reg != None)
        continue;
      nd.reg = regCounts[nd.stack]++;
      writeMov(body, nd.stack);
      writeReg(body, nd.stack, nd.reg);
      body.append(", %", 3);
      body.append(info.specialPtx[nd.payload]);
      if (nd.aux != None) {
        body.push_back('.');
        body.push_back("xyzw"[nd.aux & 3]);
      }
      body.append(";\n", 2);
      continue;
    }
    if (nd.kind == StackNode::Constant) {
      // Only literals that cannot be immediate operands are visited.
      if (nd.reg != None || inlineLits[nd.stack])
        continue;
      nd.reg = regCounts[nd.stack]++;
      writeMov(body, nd.stack);
      writeReg(body, nd.stack, nd.reg);
      body.append(", ", 2);
      writeLiteral(body, nd.stack, nd.payload);
      body.append(";\n", 2);
      continue;
    }
    if (nd.kind == StackNode::Result)
      n = nd.aux;
    else if (nd.kind != StackNode::Instr)
      continue;
    if (nodes[n].reg != 0)
      continue;
    const InstrInfo &ii = instrInfo[nodes[n].payload];
    const uint32_t *ops = &operands[nodes[n].aux];
    size_t mark = visit.size();
    visit.push_back(n);
    bool pending = false;
    for (unsigned e = ii.numArgElems; e-- != 0;) {
      if (!isDone(ops[e])) {
        visit.push_back(ops[e]);
        pending = true;
      }
    }
    if (pending)
      continue;
    visit.resize(mark);
    emitInstr(n);
  }

  // The requests' movs are a parallel assignment: a request that reads an
  // input register which an earlier request overwrites (a mod variable
  // requested before the read) reads a copy taken before the first write.
  auto writes = [&](uint32_t i) {
    uint32_t r = requests[i];
    if (r >= regs.size() || regs[r].stackIdx >= info.numStacks)
      return false;
    return requestNodes[i] != None ||
           (opts.zeroUnsatisfied && regs[r].kind != RegKind::Mod);
  };
  requestCopies.assign(requests.size(), None);
  for (uint32_t i = 1, e = requests.size(); i < e; ++i) {
    uint32_t n = requestNodes[i];
    if (n == None || !writes(i) || nodes[n].kind != StackNode::Input)
      continue;
    uint32_t src = nodes[n].payload;
    for (uint32_t k = 0; k != i; ++k) {
      uint32_t r = requests[k];
      if (!writes(k) || (r != src && (src >= regs.size() ||
                                      regs[r].name != regs[src].name)))
        continue;
      uint16_t st = nodes[n].stack;
      requestCopies[i] = regCounts[st]++;
      writeMov(body, st);
      writeReg(body, st, requestCopies[i]);
      body.append(", ", 2);
      writeOperand(body, n);
      body.append(";\n", 2);
      break;
    }
  }

  out.clear();
  out.append("\t{\n", 3);
  for (uint32_t s = 0; s != info.numStacks; ++s) {
    if (!regCounts[s])
      continue;
    out.append("\t.reg .", 7);
    out.append(info.literalPrefixes[s], prefixLens[s]);
    out.append(" %_s", 4);
    appendUInt(out, s);
    out.append("_<", 2);
    appendUInt(out, regCounts[s]);
    out.append(">;\n", 3);
  }
  out.append(body);
  for (uint32_t i = 0, e = requests.size(); i != e; ++i) {
    uint32_t r = requests[i];
    uint32_t n = requestNodes[i];
    if (r >= regs.size() || regs[r].stackIdx >= info.numStacks)
      continue;
    if (n == None && (!opts.zeroUnsatisfied || regs[r].kind == RegKind::Mod))
      continue;
    uint16_t s = regs[r].stackIdx;
    writeMov(out, s);
    out.push_back('%');
    out.append(regs[r].name.data(), regs[r].name.size());
    out.append(", ", 2);
    if (n == None) {
      ++stats.zeroedRequests;
      writeLiteral(out, s, 0);
    } else if (requestCopies[i] != None) {
      writeReg(out, nodes[n].stack, requestCopies[i]);
    } else {
      writeOperand(out, n);
    }
    out.append(";\n", 2);
  }
  out.append("\t}", 2);
  out.terminate();
}

Expected<StringRef> StackPtxContext::compile(const Program &prog,
                                             ArrayRef<Register> regs,
                                             ArrayRef<uint32_t> requests) {
  if (Error e = execute(prog, regs, requests))
    return e;
  emit(regs, requests);
  return StringRef(out.data(), out.size());
}

Expected<std::string> stack::compileStackPtx(const StackInfo &info,
                                             const Program &prog,
                                             ArrayRef<Register> regs,
                                             ArrayRef<uint32_t> requests,
                                             const StackPtxOptions &opts) {
  // One context per thread and table: building one costs microseconds.
  thread_local std::unique_ptr<StackPtxContext> ctx;
  if (!ctx || &ctx->getInfo() != &info)
    ctx = std::make_unique<StackPtxContext>(info, opts);
  ctx->getOptions() = opts;
  Expected<StringRef> text = ctx->compile(prog, regs, requests);
  if (!text)
    return text.takeError();
  return text->str();
}
