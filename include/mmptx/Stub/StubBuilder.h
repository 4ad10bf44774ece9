//===- StubBuilder.h - The stub of an inject from a program -----*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where an inject's variables meet a program: a Stack PTX or AST PTX
/// program typed against the variables of one inject and compiled into that
/// inject's stub. Every tool and API builds stubs here: the `--stub-gen` pass
/// of mmptx-opt, the C API (`mmptx_stub_build`), Python
/// (`module["f"].stub(program)`) and the examples.
///
///  1. The program may use every variable of the inject without declaring
///     it, by name (`acc`) or by stable register (`_x1`), with its type's
///     stack and its kind. Stack PTX `.include` files are searched in the
///     program's directory, then in StubOptions::IncludeDirs.
///  2. Every register of the program must be a variable of the inject, on
///     the stack of the variable's inject type (user inject types included)
///     and of a compatible kind: an `in` register reads an in or mod
///     variable, an `out` register writes an out or mod variable. Reading a
///     register that has no value (an out variable, or one declared `out`)
///     is an error. Errors are located in the program.
///  3. Stack PTX: the requests are the program's `.requests`, or, without
///     that section, the registers it declares out or mod, in declaration
///     order. AST PTX: one expression per variable written. Every out
///     variable nothing writes gets the zero of its type (never an
///     uninitialised register); a mod variable nothing writes keeps its
///     value.
///  4. Compiled for StubOptions::TargetSm, else the module's `.target`
///     (sm_90a counts as 90; none: any target).
///
/// A StackBinding keeps the result of steps 1-3 for one Stack PTX program so
/// that any number of word sequences (mutations of it) compile against the
/// same variables without typing them again: the loop of a search.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STUB_STUBBUILDER_H
#define MMPTX_STUB_STUBBUILDER_H

#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackText.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mmptx {
namespace stub {

/// The two program languages.
enum class ProgramKind {
  Stack, ///< Stack PTX text (`.stack`)
  Ast,   ///< AST PTX text (`.ast`)
};

/// \returns the language of a program file: `.ast` is AST PTX, anything
/// else Stack PTX.
ProgramKind getProgramKindOfFile(llvm::StringRef Path);
/// \returns "Stack PTX" or "AST PTX".
llvm::StringRef getProgramKindName(ProgramKind Kind);

/// A program in text form.
struct Program {
  ProgramKind Kind = ProgramKind::Stack;
  llvm::StringRef Text;
  /// The name diagnostics give it (a file name, `<stack>`).
  llvm::StringRef Name = "<program>";
};

/// How stubs are built: the options of both compilers. The defaults are the
/// compilers' own; registerStubCLOptions() (StubCLOptions.h) gives every
/// tool the same flags for them.
struct StubOptions {
  /// Stack PTX compiler options; Stack.TargetSm is ignored (see TargetSm).
  stack::StackPtxOptions Stack;
  /// AST PTX compiler options; Ast.TargetSm is ignored (see TargetSm).
  ast::AstPtxOptions Ast;
  /// Directories searched for a Stack PTX program's `.include` files, after
  /// the including file's directory.
  std::vector<std::string> IncludeDirs;
  /// Compile for sm_N: instructions and special registers that need a newer
  /// target are invalid words. 0: the module's `.target`.
  uint32_t TargetSm = 0;
};

/// \returns N of the first `sm_N` of the `.target` directive of \p M
/// (`.target sm_90a, debug` gives 90), or 0 if there is none.
uint32_t getModuleTargetSm(const ptx::Module &M);
/// \returns the same for PTX text \p Ptx (an inject module's template).
uint32_t getPtxTargetSm(llvm::StringRef Ptx);

/// A Stack PTX program's registers bound to the variables of one inject.
class StackBinding {
public:
  /// Types the registers and requests of \p Prog (parsed from buffer
  /// \p BufferId of \p Sm, which diagnostics point into) against \p Inj.
  /// The binding refers to the register names of \p Im, which must outlive
  /// it.
  static llvm::Expected<StackBinding>
  create(const InjectModule &Im, const Inject &Inj,
         const stack::StackProgram &Prog, const llvm::SourceMgr &Sm,
         unsigned BufferId, const stack::StackInfo &Info);

  /// The stable register of each register of the program, in order: word
  /// `input(N)` reads getRegisters()[N].
  llvm::ArrayRef<stack::Register> getRegisters() const { return Regs; }
  llvm::ArrayRef<uint32_t> getRequests() const { return Requests; }
  /// The out variables no request writes: the stub zeroes them.
  llvm::ArrayRef<stack::Register> getZeroedRegisters() const {
    return ZeroRegs;
  }
  /// \returns the stub of \p Words (the program's own, or a mutation of
  /// them) compiled by \p Ctx; the text lives in \p Ctx until its next
  /// compile.
  llvm::Expected<llvm::StringRef> compile(stack::StackPtxContext &Ctx,
                                          stack::Program Words) const;

private:
  StackBinding() = default;
  std::vector<stack::Register> Regs;
  std::vector<uint32_t> Requests;
  std::vector<stack::Register> ZeroRegs;
};

/// Builds the stubs of one module's injects, keeping one compiler context
/// per language and the program buffers that diagnostics point into.
class StubBuilder {
public:
  explicit StubBuilder(StubOptions Opts = StubOptions(),
                       const stack::StackInfo *Info = nullptr);
  ~StubBuilder();

  /// Checks the options (StackPtxBounds and the like), naming each as
  /// \p Spelling(field) spells it (the field's name by default).
  llvm::Error checkOptions(llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                               Spelling = nullptr) const;

  /// \returns the stub of \p Inj of \p Im built from \p P. \p TargetSm (0:
  /// StubOptions::TargetSm, else the module's) is the target it is for.
  llvm::Expected<std::string> build(const InjectModule &Im, const Inject &Inj,
                                    const Program &P, uint32_t TargetSm = 0);
  /// As build(), reading the program from \p Path (its kind from its
  /// extension, see getProgramKindOfFile()).
  llvm::Expected<std::string> buildFromFile(const InjectModule &Im,
                                            const Inject &Inj,
                                            llvm::StringRef Path,
                                            uint32_t TargetSm = 0);

  /// Receives a warning for every limit a Stack PTX compile hit (the stub
  /// of a truncated run is valid PTX but likely not what the author meant),
  /// located at the program.
  using WarningHandler = std::function<void(const llvm::SMDiagnostic &)>;
  /// Sends the warnings to \p Handler, naming each option as
  /// \p Spelling(field) spells it (the field's name by default).
  void setWarningHandler(
      WarningHandler Handler,
      std::function<llvm::StringRef(llvm::StringRef)> Spelling = nullptr);

  const StubOptions &getOptions() const { return Opts; }

private:
  llvm::Expected<std::string> buildBuffer(const InjectModule &Im,
                                          const Inject &Inj, unsigned BufferId,
                                          ProgramKind Kind, uint32_t TargetSm);
  llvm::Expected<std::string> buildStack(const InjectModule &Im,
                                         const Inject &Inj, unsigned BufferId,
                                         uint32_t TargetSm);
  llvm::Expected<std::string> buildAst(const InjectModule &Im,
                                       const Inject &Inj, unsigned BufferId,
                                       uint32_t TargetSm);

  StubOptions Opts;
  const stack::StackInfo &Info;
  std::unique_ptr<stack::StackPtxContext> StackCtx;
  std::unique_ptr<ast::AstPtxContext> AstCtx;
  llvm::SourceMgr ProgramSm;
  WarningHandler OnWarning;
  std::function<llvm::StringRef(llvm::StringRef)> Spelling;
};

/// Builds the stub of \p Inj of \p Im from \p P with \p Opts: a one-off
/// StubBuilder. Use a StubBuilder (or a StackBinding) to build many.
llvm::Expected<std::string> buildStub(const InjectModule &Im, const Inject &Inj,
                                      const Program &P,
                                      const StubOptions &Opts = StubOptions());

} // namespace stub
} // namespace mmptx

#endif // MMPTX_STUB_STUBBUILDER_H
