//===- AstPtx.h - AST PTX: expression trees to PTX stubs --------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// AST PTX compiles expressions that a system already holds as trees into a
/// PTX stub. An expression is a postorder sequence of 8-byte words ending
/// at RETURN; it has no stack tricks and no no-ops: every malformed program
/// is an error (AstResult) with a message naming the word.
///
/// Word layout (a `uint64_t`; in memory, little-endian, the packed struct
/// `{u16 type, u16 aux, u32 payload}` of the reference's AST PTX 0.1):
///
/// | type | name        | aux                   | payload                   |
/// |------|-------------|-----------------------|---------------------------|
/// | 0    | None        | -                     | - (an error)              |
/// | 1    | Input       | 0                     | input variable index      |
/// | 2    | Constant    | stack (0 = F32)       | 32-bit literal bits       |
/// | 3    | Ptx         | number of operands    | instruction index         |
/// | 4    | Routine     | number of arguments   | routine index             |
/// | 5    | Return      | 0                     | 0                         |
/// | 6    | RoutineArg  | 0                     | argument index            |
/// | 7    | Register    | -                     | - (internal: an error)    |
/// | 8    | Special     | vector element        | special register index    |
///
/// Semantics (spec §3): values live on a stack; Input, Constant, Special and
/// RoutineArg push one; Ptx pops its operands (the first pushed is the first
/// PTX operand) and pushes its result; Routine pops its arguments and runs
/// the routine's words, whose RoutineArg(i) pushes argument i; Return ends
/// an expression or a routine, whose frame must then hold exactly one value
/// more than at its start.
///
/// The instruction set is a StackInfo (td/StackInstrs.td or a user's own):
/// Ptx's payload is an instruction index (or, with AstPtxOptions::InstrMap,
/// an index into that map), Constant's aux a stack, Special's payload a
/// special register. Every operand is type-checked against the instruction's
/// arg types; an expression's value against its output's stack. Only
/// instructions with one scalar result can be tree nodes.
///
/// Improvements on the reference: any stack type; several outputs, one
/// expression each, compiled together; equal sub-expressions are computed
/// once (hash-consing), and arguments a routine never reads are not
/// computed; every limit is an option.
///
/// Output (exact, as the reference prints it for f32 programs; no tabs):
/// \code
///   {\n
///   .reg .<prefix> %ast<<n>>;\n          stack 0; other stacks s use
///                                         %ast_s<s>_<k>; only if used
///   <ptx> %ast<k>, <operand>, ...;\n      one per computed node
///   mov.<prefix> %<output>, <operand>;\n  one per output, in order
///   }
/// \endcode
/// f32 literals print as `0f3f800000` (lower-case hex), see Literal.h.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_AST_ASTPTX_H
#define MMPTX_AST_ASTPTX_H

#include "mmptx/Expr/InstrSet.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstring>
#include <memory>
#include <string>

namespace mmptx {
namespace ast {

/// The kind of an AST word (bits 0..15).
enum class AstWordType : uint16_t {
  None = 0,
  Input = 1,
  Constant = 2,
  Ptx = 3,
  Routine = 4,
  Return = 5,
  RoutineArg = 6,
  Register = 7,
  Special = 8,
};

constexpr uint64_t makeAstWord(AstWordType Type, uint16_t Aux,
                               uint32_t Payload) {
  return uint64_t(uint16_t(Type)) | (uint64_t(Aux) << 16) |
         (uint64_t(Payload) << 32);
}
constexpr AstWordType getAstWordType(uint64_t W) {
  return AstWordType(uint16_t(W));
}
constexpr uint16_t getAstWordAux(uint64_t W) { return uint16_t(W >> 16); }
constexpr uint32_t getAstWordPayload(uint64_t W) { return uint32_t(W >> 32); }

constexpr uint64_t encodeInput(uint32_t Idx) {
  return makeAstWord(AstWordType::Input, 0, Idx);
}
/// A constant of stack \p Stack (its payload, see mmptx/Expr/Literal.h).
constexpr uint64_t encodeConstantBits(uint16_t Stack, uint32_t Bits) {
  return makeAstWord(AstWordType::Constant, Stack, Bits);
}
/// An f32 constant on stack 0, as the reference encodes it.
inline uint64_t encodeConstant(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return encodeConstantBits(0, B);
}
constexpr uint64_t encodePtx(uint32_t Instr, uint16_t NumArgs) {
  return makeAstWord(AstWordType::Ptx, NumArgs, Instr);
}
constexpr uint64_t encodeRoutine(uint32_t Routine, uint16_t NumArgs) {
  return makeAstWord(AstWordType::Routine, NumArgs, Routine);
}
constexpr uint64_t encodeRoutineArg(uint32_t Idx) {
  return makeAstWord(AstWordType::RoutineArg, 0, Idx);
}
constexpr uint64_t encodeReturn() {
  return makeAstWord(AstWordType::Return, 0, 0);
}
constexpr uint64_t encodeSpecial(uint32_t Special, uint16_t Elem = 0) {
  return makeAstWord(AstWordType::Special, Elem, Special);
}

/// Result codes; 0-13 are the reference's (spec §3), the rest are ours.
enum class AstResult : uint32_t {
  Success = 0,
  Internal = 1,
  InsufficientBuffer = 2,
  InvalidValue = 3,
  BadInstructionMaybeForgotReturn = 4,
  InputIdxOutOfBounds = 5,
  PtxInstructionIdxOutOfBounds = 6,
  StackOverflow = 7,
  StackUnderflow = 8,
  TooManyArgs = 9,
  UnsupportedInstruction = 10,
  RoutineIdxOutOfBounds = 11,
  RoutineArgIdxOutOfBounds = 12,
  RoutineDepthExceeded = 13,
  TypeMismatch = 14,
  SpecialRegisterIdxOutOfBounds = 15,
  StackIdxOutOfBounds = 16,
  LimitExceeded = 17,
};
constexpr uint32_t NumAstResults = 18;

/// \returns `AST_PTX_SUCCESS`, `AST_PTX_ERROR_STACK_UNDERFLOW`, ..., or
/// `AST_PTX_ERROR_INVALID_RESULT_ENUM`.
const char *getAstResultName(uint32_t Result);

/// Where in a program an error is: expression \c expr (or routine
/// \c routine when that is not ~0u), word \c word.
struct AstWordPos {
  uint32_t Expr = ~0u;
  uint32_t Routine = ~0u;
  uint32_t Word = ~0u;
};

/// The error of a failed compile: a result code, the word, and a message.
class AstError : public llvm::ErrorInfo<AstError> {
public:
  static char ID;
  AstError(AstResult Result, AstWordPos Pos, std::string Msg)
      : Result(Result), Pos(Pos), Msg(std::move(Msg)) {}
  AstResult getResult() const { return Result; }
  const AstWordPos &getPos() const { return Pos; }
  const std::string &getMessage() const { return Msg; }
  void log(llvm::raw_ostream &Os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  AstResult Result;
  AstWordPos Pos;
  std::string Msg;
};

/// \returns the code of \p E: Success for no error, the AstError's code, or
/// Internal for any other error. Consumes \p E.
AstResult takeAstResult(llvm::Error E, std::string *Message = nullptr);

/// A variable of the enclosing PTX: bare \c name (printed `%name`) holding
/// a value of stack \c stackIdx.
struct AstVar {
  llvm::StringRef Name;
  uint16_t StackIdx = 0;
};

/// One output: the variable it writes and its expression's words (ending at
/// RETURN).
struct AstOutput {
  AstVar Var;
  llvm::ArrayRef<uint64_t> Words;
};

/// The words of a program: one expression per output and the routines they
/// call (Routine i runs routines[i], ending at RETURN).
struct AstProgram {
  llvm::ArrayRef<AstOutput> Outputs;
  llvm::ArrayRef<llvm::ArrayRef<uint64_t>> Routines;
};

/// Limits and switches. Defaults are the reference's limits; every one may
/// be raised to any value, and memory grows only with the program.
struct AstPtxOptions {
  /// Values on the stack at once (reference: 256).
  uint32_t MaxStackDepth = 256;
  /// Nested routine calls (reference: 8).
  uint32_t MaxRoutineDepth = 8;
  /// Words of an expression or routine before its RETURN (reference:
  /// 65536).
  uint32_t MaxWords = 65536;
  /// Operands of an instruction word and arguments of a routine call
  /// (reference: 4). Instructions whose arity is higher are usable anyway.
  uint32_t MaxArgs = 4;
  /// Words executed in all, counting each routine call's words again:
  /// bounds the work of deeply nested calls.
  uint64_t MaxExecutedWords = 1ull << 24;
  /// Compute equal sub-expressions once.
  bool ShareSubexpressions = true;
  /// The sm_XX the stub is for, or 0: instructions and special registers
  /// that need a newer target are UnsupportedInstruction.
  uint32_t TargetSm = 0;
  /// If not empty, Ptx word payload i names instruction InstrMap[i] of the
  /// tables (the reference's AST catalogue is getReferenceAstInstrMap()).
  llvm::ArrayRef<uint32_t> InstrMap;
};

/// \returns the instruction indices, in \p Info, of the reference's AST PTX
/// catalogue (spec §3: 0 copysign.f32, 1 add.ftz.f32, ... 17
/// tanh.approx.f32), for AstPtxOptions::InstrMap; empty if \p Info lacks
/// one of them.
std::vector<uint32_t> getReferenceAstInstrMap(const expr::InstrSet &Info);

/// Compiles AST PTX programs against one instruction set. Reuse one context
/// per thread: after warm-up, compile() does not allocate.
class AstPtxContext {
public:
  explicit AstPtxContext(const expr::InstrSet &Info,
                         AstPtxOptions Opts = AstPtxOptions());
  ~AstPtxContext();
  AstPtxContext(const AstPtxContext &) = delete;
  AstPtxContext &operator=(const AstPtxContext &) = delete;

  /// Compiles \p Prog; Input i reads \p Inputs[i]. \returns the stub text,
  /// valid until the next call, or an AstError.
  llvm::Expected<llvm::StringRef> compile(const AstProgram &Prog,
                                          llvm::ArrayRef<AstVar> Inputs);

  /// Builds the expression DAG of \p Prog without emitting text (the
  /// interpreter's entry point).
  llvm::Error build(const AstProgram &Prog, llvm::ArrayRef<AstVar> Inputs);

  /// A node of the DAG built by the last build()/compile(). Operands have
  /// lower indices than their users.
  struct Node {
    AstWordType Kind; ///< Input, Constant, Special or Ptx
    uint16_t Stack;   ///< the stack of its value
    uint32_t Payload; ///< input / literal bits / special / instruction
    uint32_t Aux;     ///< Special: element; Ptx: first operand index
    uint32_t NumOps;  ///< Ptx: number of operands
  };
  llvm::ArrayRef<Node> getNodes() const;
  /// Operand node indices of Ptx nodes (Node::Aux, Node::NumOps).
  llvm::ArrayRef<uint32_t> getOperands() const;
  /// Per output, its value's node.
  llvm::ArrayRef<uint32_t> getOutputNodes() const;
  /// Nodes the last compile emitted instructions for.
  uint32_t getNumEmittedInstrs() const;

  const AstPtxOptions &getOptions() const;
  /// Every option but TargetSm and InstrMap may change between compiles.
  AstPtxOptions &getOptions();
  const expr::InstrSet &getInfo() const;

private:
  struct Impl;
  std::unique_ptr<Impl> PImpl;
};

/// \returns whether \p Name is spelled like the stub's temporaries
/// (`ast<n>`, `ast_s<stack>_<n>`), which would shadow a variable so named.
bool isReservedAstName(llvm::StringRef Name);

/// Convenience for one-off compiles.
llvm::Expected<std::string>
compileAstPtx(const expr::InstrSet &Info, const AstProgram &Prog,
              llvm::ArrayRef<AstVar> Inputs,
              const AstPtxOptions &Opts = AstPtxOptions());

} // namespace ast
} // namespace mmptx

#endif // MMPTX_AST_ASTPTX_H
