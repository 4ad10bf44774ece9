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
///     StackPtxStats::IgnoredWords); StackPtxOptions::strict reports them as
///     errors instead. With StackPtxOptions::TargetSm, so are instructions
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
  llvm::StringRef Name;
  uint16_t StackIdx = 0;
  RegKind Kind = RegKind::In;
};

/// The words of a program: the main program and the routines it may call
/// (ROUTINE i runs routines[i]). Each ends at RETURN or at its last word.
struct Program {
  llvm::ArrayRef<uint64_t> Main;
  llvm::ArrayRef<llvm::ArrayRef<uint64_t>> Routines;
};

/// Limits and switches. All limits are counted, never silent: see
/// StackPtxStats.
struct StackPtxOptions {
  /// Report invalid words and request indices as errors instead of
  /// ignoring them.
  bool Strict = false;
  /// Give unsatisfied Out/In requests the zero of their type.
  bool ZeroUnsatisfied = true;
  /// Values per stack (and on the meta stack); a push onto a full stack is
  /// dropped.
  uint32_t StackSize = 128;
  /// DAG nodes; reaching it stops execution like the execution limit.
  uint32_t MaxNodes = 1u << 16;
  /// Frames including the main program: N permits N-1 nested routine levels
  /// (0 behaves like 1); a deeper call is a no-op.
  uint32_t MaxFrameDepth = 8;
  /// Store slots.
  uint32_t StoreSize = 32;
  /// Executed words (including RETURN and calls); reaching it stops
  /// execution and compiles what has been built.
  uint64_t ExecutionLimit = 1u << 20;
  /// The `sm_XX` the stub is for (80 for sm_80), or 0 for no restriction.
  /// A PTX or SPECIAL word whose instruction or register has a higher
  /// minimum (StackInfo::InstrMinSm, SpecialMinSm) is invalid, like an
  /// out-of-range index. Read when a context is built: the context bakes it
  /// into its tables, so changing it in getOptions() later has no effect.
  uint32_t TargetSm = 0;
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

/// \returns an error naming the first option of \p Opts outside
/// StackPtxBounds (a stack size or node limit of 0 included), with \p
/// Spelling(field) as the option's name in the message; the default
/// spelling is the field's name in StackPtxOptions.
llvm::Error checkStackPtxOptions(
    const StackPtxOptions &Opts,
    llvm::function_ref<llvm::StringRef(llvm::StringRef)> Spelling = nullptr);

/// What one compile did, including every limit it hit.
struct StackPtxStats {
  uint64_t ExecutedWords = 0;
  uint32_t NumNodes = 0;
  uint32_t EmittedInstrs = 0;
  uint32_t IgnoredWords = 0;  ///< invalid words skipped (non-strict)
  uint32_t NoOpWords = 0;     ///< valid words that had no effect
  uint32_t DroppedPushes = 0; ///< pushes onto a full stack / meta stack
  uint32_t RefusedCalls = 0;  ///< calls beyond MaxFrameDepth
  uint32_t UnsatisfiedRequests = 0;
  uint32_t ZeroedRequests = 0;
  bool HitExecutionLimit = false;
  bool HitNodeLimit = false;
};

/// Calls \p Report with one message per limit the compile described by
/// \p Stats hit (execution limit, frame depth, node limit, full stacks,
/// skipped invalid words), naming the option that sets it as \p Flag(field)
/// spells it: the stub of a truncated run is valid PTX but likely not what
/// the author meant, so the tools warn about each.
void describeLimitsHit(
    const StackPtxStats &Stats, const StackPtxOptions &Opts,
    llvm::function_ref<llvm::StringRef(llvm::StringRef)> Flag,
    llvm::function_ref<void(const llvm::Twine &)> Report);

/// A node of the DAG built by execution (exposed for the interpreter).
struct StackNode {
  enum NodeKind : uint8_t { Input, Constant, Special, Instr, Result };
  NodeKind Kind;
  uint16_t Stack;   ///< stack the value lives on (Instr: unused)
  uint32_t Payload; ///< register / literal bits / special / instr / ret elem
  uint32_t Aux;     ///< Special: vector element or ~0; Instr: first operand
                    ///< in getOperands(); Result: its Instr node
  uint32_t Reg;     ///< emitted register number, or ~0 (Instr: 0 until
                    ///< emitted, then its 1-based position in the stub)
};

/// Compiles Stack PTX programs against one instruction set. Reuse one
/// context per thread: after warm-up, compile() does not allocate.
class StackPtxContext {
public:
  explicit StackPtxContext(const StackInfo &Info,
                           StackPtxOptions Opts = StackPtxOptions());
  ~StackPtxContext();
  StackPtxContext(StackPtxContext &&);
  StackPtxContext &operator=(StackPtxContext &&);

  /// Compiles \p Prog. Requests are indices into \p Regs, in order.
  /// \p ZeroRegs, which the program cannot read, are set to the zero of
  /// their stack after the requests (out variables no request writes).
  /// \returns the stub text, valid until the next call, or (strict mode
  /// only) an error naming the first invalid word.
  llvm::Expected<llvm::StringRef>
  compile(const Program &Prog, llvm::ArrayRef<Register> Regs,
          llvm::ArrayRef<uint32_t> Requests,
          llvm::ArrayRef<Register> ZeroRegs = {});

  /// Runs \p Prog and resolves the requests without emitting text (the
  /// interpreter's entry point); see getNodes() and getRequestNodes().
  llvm::Error execute(const Program &Prog, llvm::ArrayRef<Register> Regs,
                      llvm::ArrayRef<uint32_t> Requests);

  const StackPtxStats &getStats() const;
  const StackPtxOptions &getOptions() const;
  /// Every option but TargetSm may change between compiles.
  StackPtxOptions &getOptions();
  const StackInfo &getInfo() const;
  /// The TargetSm the context was built with.
  uint32_t getTargetSm() const;

  /// The DAG of the last execute()/compile().
  llvm::ArrayRef<StackNode> getNodes() const;
  llvm::ArrayRef<uint32_t> getOperands() const;
  /// Per request, its node or ~0u when unsatisfied.
  llvm::ArrayRef<uint32_t> getRequestNodes() const;
  /// Flattened operand/result element stacks of instruction \p Instr.
  unsigned getNumArgElems(uint32_t Instr) const;
  uint16_t getRetElemStack(uint32_t Instr, unsigned Elem) const;

  static constexpr uint32_t None = ~0u;

private:
  struct Impl;
  std::unique_ptr<Impl> PImpl;
};

/// \returns whether \p Name may name a register: a PTX identifier,
/// `[A-Za-z_$][A-Za-z0-9_$]*`.
bool isRegisterName(llvm::StringRef Name);

/// \returns whether \p Name is spelled like the compiler's temporaries,
/// `_s<stack>_<n>`: a register so named would be shadowed by the stub's own
/// declarations. The text parser and the C API reject such names.
bool isReservedRegisterName(llvm::StringRef Name);

/// Convenience for one-off compiles:
/// compiles \p Prog with the given registers and requests, reusing one
/// context per thread, table and target. \returns the stub text or, in
/// strict mode, an error.
llvm::Expected<std::string>
compileStackPtx(const StackInfo &Info, const Program &Prog,
                llvm::ArrayRef<Register> Regs,
                llvm::ArrayRef<uint32_t> Requests,
                const StackPtxOptions &Opts = StackPtxOptions());

} // namespace stack
} // namespace mmptx

#endif // MMPTX_STACK_STACKCOMPILER_H
