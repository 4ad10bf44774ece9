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
///     errors instead. With StackPtxOptions::targetSm, so are instructions
///     and special registers that need a newer target;
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

#include "mmptx/Inject/InjectFormat.h"
#include "mmptx/Stack/StackInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace mmptx {
namespace stack {

/// How a register is used by the stub: the kinds of an inject site's
/// variables. In: read by the program (INPUT); Out: written by a request,
/// zero if the request cannot be satisfied; Mod: read and written, unchanged
/// if the request cannot be satisfied.
using RegKind = InjectArgKind;

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
  /// The `sm_XX` the stub is for (80 for sm_80), or 0 for no restriction.
  /// A PTX or SPECIAL word whose instruction or register has a higher
  /// minimum (StackInfo::instrMinSm, specialMinSm) is invalid, like an
  /// out-of-range index. Read when a context is built: the context bakes it
  /// into its tables, so changing it in getOptions() later has no effect.
  uint32_t targetSm = 0;
};

/// The largest value each size option of StackPtxOptions may take (and the
/// smallest, where 0 is not allowed). Every API checks a request against
/// these before allocating anything for it, so an oversize request is an
/// error, never an allocation failure.
struct StackPtxBounds {
  static constexpr uint32_t MaxStackSize = 1u << 20;
  static constexpr uint32_t MaxNodes = 1u << 24;
  static constexpr uint32_t MaxFrameDepth = 1u << 20;
  static constexpr uint32_t MaxStoreSize = 1u << 20;
  static constexpr uint64_t MaxExecutionLimit = uint64_t(1) << 32;
};

/// \returns an error naming the first option of \p opts outside
/// StackPtxBounds (a stack size or node limit of 0 included), with \p
/// spelling(field) as the option's name in the message; the default
/// spelling is the field's name in StackPtxOptions.
llvm::Error checkStackPtxOptions(
    const StackPtxOptions &opts,
    llvm::function_ref<llvm::StringRef(llvm::StringRef)> spelling = nullptr);

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

/// Calls \p report with one message per limit the compile described by
/// \p stats hit (execution limit, frame depth, node limit, full stacks,
/// skipped invalid words), naming the option that sets it as \p flag(field)
/// spells it: the stub of a truncated run is valid PTX but likely not what
/// the author meant, so the tools warn about each.
void describeLimitsHit(
    const StackPtxStats &stats, const StackPtxOptions &opts,
    llvm::function_ref<llvm::StringRef(llvm::StringRef)> flag,
    llvm::function_ref<void(const llvm::Twine &)> report);

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
/// A growable text buffer written through a raw cursor: a writer asks for
/// room once per line (ensure), writes through the returned pointer, and
/// commits with setEnd. Keeping the cursor in a local lets the compiler
/// keep it in a register (a char store may alias any member).
class TextBuf {
public:
  void clear() { len = 0; }
  size_t size() const { return len; }
  const char *data() const { return buf.get(); }
  char *begin() { return buf.get(); }
  char *end() { return buf.get() + len; }
  /// \returns \p p, or where it moved to, with room for \p n characters
  /// after it. \p p must lie within the buffer.
  char *ensure(char *p, size_t n) {
    if (__builtin_expect(size_t(buf.get() + cap - p) < n, 0))
      return growAt(p, n);
    return p;
  }
  /// Makes \p p, a cursor into the buffer, its end.
  void setEnd(char *p) { len = size_t(p - buf.get()); }

private:
  char *growAt(char *p, size_t n) {
    len = size_t(p - buf.get());
    size_t newCap = std::max<size_t>(len + n, 2 * cap + 256);
    std::unique_ptr<char[]> nb(new char[newCap]);
    if (len)
      std::memcpy(nb.get(), buf.get(), len);
    buf = std::move(nb);
    cap = newCap;
    return buf.get() + len;
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
  /// \p zeroRegs, which the program cannot read, are set to the zero of
  /// their stack after the requests (out variables no request writes).
  /// \returns the stub text, valid until the next call, or (strict mode
  /// only) an error naming the first invalid word.
  llvm::Expected<llvm::StringRef>
  compile(const Program &prog, llvm::ArrayRef<Register> regs,
          llvm::ArrayRef<uint32_t> requests,
          llvm::ArrayRef<Register> zeroRegs = {});

  /// Runs \p prog and resolves the requests without emitting text (the
  /// interpreter's entry point); see getNodes() and getRequestNodes().
  llvm::Error execute(const Program &prog, llvm::ArrayRef<Register> regs,
                      llvm::ArrayRef<uint32_t> requests);

  const StackPtxStats &getStats() const { return stats; }
  const StackPtxOptions &getOptions() const { return opts; }
  /// Every option but targetSm may change between compiles.
  StackPtxOptions &getOptions() { return opts; }
  const StackInfo &getInfo() const { return info; }
  /// The targetSm the context was built with.
  uint32_t getTargetSm() const { return targetSm; }

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
  enum class LitKind : uint8_t { F32, U32, F64, Hex };
  /// A fixed-size piece of text, copied whole and then cut to len.
  struct Piece {
    char text[16];
    uint8_t len;
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
  /// \returns the minimum sm of entry \p idx of \p minSm (one of \p n) if
  /// it exceeds the target, which makes the entry invalid; else 0.
  uint32_t tooNewFor(const uint16_t *minSm, uint32_t n, uint32_t idx) const {
    return targetSm && minSm && idx < n && minSm[idx] > targetSm ? minSm[idx]
                                                                 : 0;
  }
  llvm::StringRef emit(llvm::ArrayRef<Register> regs,
                       llvm::ArrayRef<uint32_t> requests,
                       llvm::ArrayRef<Register> zeroRegs);
  inline char *emitInstr(char *p, uint32_t n, llvm::ArrayRef<Register> regs);
  /// The rets and args of instruction \p n when some are vectors.
  char *emitVectorOperands(char *p, uint32_t n, llvm::ArrayRef<Register> regs);
  /// Writes operand \p n; room for \p after more characters remains.
  inline char *writeOperand(char *p, uint32_t n, llvm::ArrayRef<Register> regs,
                            size_t after);
  char *writeReg(char *p, uint16_t stack, uint32_t reg) const {
    const Piece &pc = regPieces[stack];
    std::memcpy(p, pc.text, 16);
    return writeUInt(p + pc.len, reg);
  }
  /// \returns the next register number of \p stack.
  uint32_t newReg(uint16_t stack) {
    uint32_t r = regCounts[stack]++;
    if (r == 0)
      usedStacks[numUsedStacks++] = stack;
    return r;
  }
  char *writeMov(char *p, uint16_t stack) const {
    const Piece &pc = movPieces[stack];
    if (pc.len == 0xff)
      return writeLongMov(p, stack);
    std::memcpy(p, pc.text, 16);
    return p + pc.len;
  }
  char *writeLongMov(char *p, uint16_t stack) const;
  inline char *writeLiteral(char *p, uint16_t stack, uint32_t bits) const;
  static char *writeUInt(char *p, uint32_t v);
  void growNodes(uint32_t moreNodes, uint32_t moreOps);
  bool makeRoom(uint32_t moreNodes, uint32_t moreOps);

  const StackInfo &info;
  StackPtxOptions opts;
  StackPtxStats stats;
  /// opts.targetSm at construction, which the tables below reflect.
  const uint32_t targetSm;

  // Derived from the tables once.
  std::vector<InstrInfo> instrInfo;
  /// Per instruction, `stack << 16 | numArgElems` if simple, else 0: the
  /// fast path's table.
  std::vector<uint32_t> simpleInstrs;
  uint32_t numInstrs = 0;
  std::vector<uint16_t> elemStacks;
  std::vector<SpecialInfo> specialInfo;
  std::vector<LitKind> litKinds;
  std::vector<uint8_t> inlineLits;
  std::vector<std::string> movOps; ///< `mov.f32`; `cvt.u8.u8` for 8 bits
  /// "\tmov.f32 " (len 0xff when too long: use movOps) and "%_s3_".
  std::vector<Piece> movPieces, regPieces;
  /// The opcode texts, padded so that 32 bytes can be read at any start.
  std::vector<char> opText;
  /// `\t.reg .f32 %_s0_<` per stack.
  std::vector<std::string> declHeads;
  /// Room for the longest possible declarations, which are written last
  /// in front of the body.
  size_t headerRoom = 0;
  /// The longest "<movOp> " of any stack.
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
  detail::TextBuf out;
};

/// \returns whether \p name may name a register: a PTX identifier,
/// `[A-Za-z_$][A-Za-z0-9_$]*`.
bool isRegisterName(llvm::StringRef name);

/// \returns whether \p name is spelled like the compiler's temporaries,
/// `_s<stack>_<n>`: a register so named would be shadowed by the stub's own
/// declarations. The text parser and the C API reject such names.
bool isReservedRegisterName(llvm::StringRef name);

/// Convenience for one-off compiles:
/// compiles \p prog with the given registers and requests, reusing one
/// context per thread, table and target. \returns the stub text or, in
/// strict mode, an error.
llvm::Expected<std::string>
compileStackPtx(const StackInfo &info, const Program &prog,
                llvm::ArrayRef<Register> regs,
                llvm::ArrayRef<uint32_t> requests,
                const StackPtxOptions &opts = StackPtxOptions());

} // namespace stack
} // namespace mmptx

#endif // MMPTX_STACK_STACKCOMPILER_H
