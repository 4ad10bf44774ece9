//===- StackCompiler.h - Stack PTX to PTX stub compiler ---------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Compiles a Stack PTX program (8-byte words, see StackInfo.h) into a PTX
/// stub: a `{ ... }` block of register declarations and instructions that
/// reads the input registers and writes the requested output registers.
///
/// Semantics follow the reference Stack PTX (spec §2): the top of stack is
/// the first PTX operand; missing operands make an instruction a no-op;
/// meta ops, store/load, routines, frame depth and execution limits;
/// requests pop their stack (first request gets the top); only what the
/// requests reach is emitted, each node once. Improvements:
///   - total mutation safety: any word sequence compiles to valid PTX. Out
///     of range indices and unknown word types are no-ops (counted in
///     StackPtxStats::ignoredWords); StackPtxOptions::strict reports them as
///     errors instead;
///   - an out request that cannot be satisfied gets the zero of its type
///     (RegKind::Mod registers are left unchanged);
///   - one compile call, and a reusable context that does not allocate once
///     it has seen programs of the same size;
///   - every limit is an option, and hitting one is counted in the stats;
///   - values of 8-bit stacks (u8, s8) are copied with `cvt.u8.u8` since
///     PTX has no 8-bit `mov` (the reference prints an invalid `mov.u8`).
///
/// Output (exact, as the reference 1.1 prints it):
/// \code
///   \t{\n
///   \t.reg .<prefix> %_s<stack>_<<count>>;\n     one per used stack
///   \t<ptx> <rets>, <args>;\n                     one per emitted node
///   \tmov.<prefix> %<name>, <operand>;\n          one per request
///   \t}
/// \endcode
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STACK_STACKCOMPILER_H
#define MMPTX_STACK_STACKCOMPILER_H

#include "mmptx/Stack/StackInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace mmptx {
namespace stack {

/// How a register is used by the stub.
enum class RegKind : uint8_t {
  In,  ///< read by the program (INPUT)
  Out, ///< written by a request; zero if the request cannot be satisfied
  Mod, ///< read and written; unchanged if the request cannot be satisfied
};

/// A register of the enclosing PTX the stub reads or writes. \c name is bare
/// (printed as `%name`).
struct Register {
  llvm::StringRef name;
  uint16_t stackIdx = 0;
  RegKind kind = RegKind::In;
};

/// The words of a program: the main program and the routines it may call
/// (ROUTINE i runs routines[i]). Each ends at RETURN or at its last word.
struct Program {
  llvm::ArrayRef<uint64_t> main;
  llvm::ArrayRef<llvm::ArrayRef<uint64_t>> routines;
};

/// Limits and switches. All limits are counted, never silent: see
/// StackPtxStats.
struct StackPtxOptions {
  /// Report invalid words and request indices as errors instead of
  /// ignoring them.
  bool strict = false;
  /// Give unsatisfied Out/In requests the zero of their type.
  bool zeroUnsatisfied = true;
  /// Values per stack (and on the meta stack); a push onto a full stack is
  /// dropped.
  uint32_t stackSize = 128;
  /// DAG nodes; reaching it stops execution like the execution limit.
  uint32_t maxNodes = 1u << 16;
  /// Frames including the main program: N permits N-1 nested routine levels
  /// (0 behaves like 1); a deeper call is a no-op.
  uint32_t maxFrameDepth = 8;
  /// Store slots.
  uint32_t storeSize = 32;
  /// Executed words (including RETURN and calls); reaching it stops
  /// execution and compiles what has been built.
  uint64_t executionLimit = 1u << 20;
};

/// What one compile did, including every limit it hit.
struct StackPtxStats {
  uint64_t executedWords = 0;
  uint32_t numNodes = 0;
  uint32_t emittedInstrs = 0;
  uint32_t ignoredWords = 0;  ///< invalid words skipped (non-strict)
  uint32_t noOpWords = 0;     ///< valid words that had no effect
  uint32_t droppedPushes = 0; ///< pushes onto a full stack / meta stack
  uint32_t refusedCalls = 0;  ///< calls beyond maxFrameDepth
  uint32_t unsatisfiedRequests = 0;
  uint32_t zeroedRequests = 0;
  bool hitExecutionLimit = false;
  bool hitNodeLimit = false;
};

/// A node of the DAG built by execution (exposed for the interpreter).
struct StackNode {
  enum Kind : uint8_t { Input, Constant, Special, Instr, Result };
  Kind kind;
  uint16_t stack;   ///< stack the value lives on (Instr: unused)
  uint32_t payload; ///< register / literal bits / special / instr / ret elem
  uint32_t aux;     ///< Special: vector element or ~0; Instr: first operand
                    ///< in getOperands(); Result: its Instr node
  uint32_t reg;     ///< emitted register number, or ~0 (Instr: emitted flag)
};

namespace detail {
/// A growable text buffer whose appends inline to a compare and a copy
/// (std::string::append is an out-of-line call per piece).
class TextBuf {
public:
  void clear() { len = 0; }
  size_t size() const { return len; }
  const char *data() const { return buf.get(); }
  void push_back(char c) {
    reserve(1);
    buf[len++] = c;
  }
  void append(const char *s, size_t n) {
    if (!n)
      return;
    reserve(n);
    std::memcpy(buf.get() + len, s, n);
    len += n;
  }
  void append(const char *s) { append(s, std::strlen(s)); }
  void append(const std::string &s) { append(s.data(), s.size()); }
  void append(const TextBuf &t) { append(t.data(), t.size()); }
  /// Appends the first \p n (<= 16) characters of the 16-byte array \p s
  /// with one fixed-size copy.
  void append16(const char *s, size_t n) {
    reserve(16);
    std::memcpy(buf.get() + len, s, 16);
    len += n;
  }
  /// Appends \p v in decimal.
  void appendUInt(uint32_t v) {
    reserve(10);
    char *p = buf.get() + len;
    if (v < 10) {
      p[0] = char('0' + v);
      len += 1;
      return;
    }
    if (v < 100) {
      p[0] = char('0' + v / 10);
      p[1] = char('0' + v % 10);
      len += 2;
      return;
    }
    char tmp[10];
    char *t = tmp + sizeof(tmp);
    do {
      *--t = char('0' + v % 10);
      v /= 10;
    } while (v);
    size_t n = tmp + sizeof(tmp) - t;
    std::memcpy(p, t, n);
    len += n;
  }
  /// Writes a NUL after the text (not counted in size()).
  void terminate() {
    reserve(1);
    buf[len] = '\0';
  }
  /// Makes room for \p n more characters.
  void reserve(size_t n) {
    if (len + n > cap)
      grow(len + n);
  }
  char *end() { return buf.get() + len; }
  void advance(size_t n) { len += n; }

private:
  void grow(size_t need) {
    size_t newCap = std::max<size_t>(need, 2 * cap + 256);
    std::unique_ptr<char[]> nb(new char[newCap]);
    if (len)
      std::memcpy(nb.get(), buf.get(), len);
    buf = std::move(nb);
    cap = newCap;
  }
  std::unique_ptr<char[]> buf;
  size_t len = 0, cap = 0;
};
} // namespace detail

/// Compiles Stack PTX programs against one instruction set. Reuse one
/// context per thread: after warm-up, compile() does not allocate.
class StackPtxContext {
public:
  explicit StackPtxContext(const StackInfo &info,
                           StackPtxOptions opts = StackPtxOptions());

  /// Compiles \p prog. Requests are indices into \p regs, in order.
  /// \returns the stub text, valid until the next call, or (strict mode
  /// only) an error naming the first invalid word.
  llvm::Expected<llvm::StringRef> compile(const Program &prog,
                                          llvm::ArrayRef<Register> regs,
                                          llvm::ArrayRef<uint32_t> requests);

  /// Runs \p prog and resolves the requests without emitting text (the
  /// interpreter's entry point); see getNodes() and getRequestNodes().
  llvm::Error execute(const Program &prog, llvm::ArrayRef<Register> regs,
                      llvm::ArrayRef<uint32_t> requests);

  const StackPtxStats &getStats() const { return stats; }
  const StackPtxOptions &getOptions() const { return opts; }
  StackPtxOptions &getOptions() { return opts; }
  const StackInfo &getInfo() const { return info; }

  /// The DAG of the last execute()/compile().
  llvm::ArrayRef<StackNode> getNodes() const {
    return llvm::ArrayRef<StackNode>(nodes.data(), numNodes);
  }
  llvm::ArrayRef<uint32_t> getOperands() const {
    return llvm::ArrayRef<uint32_t>(operands.data(), numOperands);
  }
  /// Per request, its node or ~0u when unsatisfied.
  llvm::ArrayRef<uint32_t> getRequestNodes() const { return requestNodes; }
  /// Flattened operand/result element stacks of instruction \p instr.
  unsigned getNumArgElems(uint32_t instr) const {
    return instrInfo[instr].numArgElems;
  }
  uint16_t getRetElemStack(uint32_t instr, unsigned elem) const {
    return elemStacks[instrInfo[instr].retElemBegin + elem];
  }

  static constexpr uint32_t None = ~0u;

private:
  struct InstrInfo {
    bool valid = false;
    /// 1-4 scalar args and one scalar ret, all on uniqueStack[0].
    bool simple = false;
    uint8_t numUnique = 0;
    uint16_t numArgElems = 0, numRetElems = 0;
    uint32_t argElemBegin = 0, retElemBegin = 0;
    uint16_t uniqueStack[4] = {0, 0, 0, 0};
    uint16_t uniqueCount[4] = {0, 0, 0, 0};
  };
  struct SpecialInfo {
    bool valid = false;
    uint16_t stack = 0;
    uint16_t numVecElems = 0;
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
  enum class LitKind : uint8_t { F32, U32, F64, Hex };

  llvm::Error run(const Program &prog, llvm::ArrayRef<Register> regs);
  llvm::Error resolveRequests(llvm::ArrayRef<Register> regs,
                              llvm::ArrayRef<uint32_t> requests);
  llvm::Error invalidWord(const Frame &f, const llvm::Twine &msg);
  void emit(llvm::ArrayRef<Register> regs, llvm::ArrayRef<uint32_t> requests);
  void emitInstr(uint32_t n);
  void writeOperand(detail::TextBuf &os, uint32_t n);
  void writeReg(detail::TextBuf &os, uint16_t stack, uint32_t reg);
  void writeMov(detail::TextBuf &os, uint16_t stack);
  void writeLiteral(detail::TextBuf &os, uint16_t stack, uint32_t bits);

  /// Appends a node, writing its fields in place (building it in a
  /// temporary first costs a store-forwarding stall per node).
  void addNode(StackNode::Kind kind, uint16_t stack, uint32_t payload,
               uint32_t aux, uint32_t reg) {
    StackNode &n = nodes[numNodes++];
    n.kind = kind;
    n.stack = stack;
    n.payload = payload;
    n.aux = aux;
    n.reg = reg;
  }
  /// Makes room for \p nodes more nodes and \p ops more operands.
  void reserveNodes(uint32_t moreNodes, uint32_t moreOps) {
    if (__builtin_expect(numNodes + moreNodes > nodeCap ||
                             numOperands + moreOps > operandCap,
                         0))
      growNodes(moreNodes, moreOps);
  }
  void growNodes(uint32_t moreNodes, uint32_t moreOps);
  /// \returns false if \p moreNodes more nodes would pass maxNodes; else
  /// makes room for them and \p moreOps operands.
  bool roomFor(uint32_t moreNodes, uint32_t moreOps) {
    if (__builtin_expect(numNodes + moreNodes <= nodeLimit &&
                             numOperands + moreOps <= operandCap,
                         1))
      return true;
    return makeRoom(moreNodes, moreOps);
  }
  bool makeRoom(uint32_t moreNodes, uint32_t moreOps);
  bool push(uint16_t stack, uint32_t node) {
    uint32_t &h = heights[stack];
    if (h == opts.stackSize) {
      ++stats.droppedPushes;
      return false;
    }
    stackData[size_t(stack) * opts.stackSize + h++] = node;
    return true;
  }
  uint32_t pop(uint16_t stack) {
    return stackData[size_t(stack) * opts.stackSize + --heights[stack]];
  }
  uint32_t *stackBase(uint16_t stack) {
    return &stackData[size_t(stack) * opts.stackSize];
  }

  const StackInfo &info;
  StackPtxOptions opts;
  StackPtxStats stats;

  // Derived from the tables once.
  std::vector<InstrInfo> instrInfo;
  std::vector<uint16_t> elemStacks;
  std::vector<SpecialInfo> specialInfo;
  std::vector<LitKind> litKinds;
  std::vector<uint8_t> inlineLits;
  std::vector<uint16_t> prefixLens;
  std::vector<std::string> movOps; ///< `mov.f32`; `cvt.u8.u8` for 8 bits
  /// Fixed-size pieces for append16: "\tmov.f32 " and "%_s3_" per stack.
  struct Piece {
    char text[16];
    uint8_t len;
  };
  std::vector<Piece> movPieces, regPieces;
  std::vector<uint16_t> instrPtxLens;

  // Per compile; cleared, never shrunk. nodes/operands are storage of which
  // the first numNodes/numOperands are used.
  uint32_t allocatedStackSize = 0;
  uint32_t numNodes = 0, numOperands = 0;
  size_t nodeCap = 0, operandCap = 0; ///< sizes of nodes/operands
  uint32_t nodeLimit = 0;             ///< min(nodeCap, maxNodes)
  uint32_t storeGen = 0;
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
  llvm::ArrayRef<Register> curRegs;
  detail::TextBuf body;
  detail::TextBuf out;
};

/// Convenience for one-off compiles (the stub-gen pass's entry point):
/// compiles \p prog with the given registers and requests, reusing one
/// context per thread and table. \returns the stub text or, in strict mode,
/// an error.
llvm::Expected<std::string>
compileStackPtx(const StackInfo &info, const Program &prog,
                llvm::ArrayRef<Register> regs,
                llvm::ArrayRef<uint32_t> requests,
                const StackPtxOptions &opts = StackPtxOptions());

} // namespace stack
} // namespace mmptx

#endif // MMPTX_STACK_STACKCOMPILER_H
