//===- AstText.h - S-expression text form of AST PTX ------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A text form of AST PTX programs that converts both ways with the words.
/// Example:
/// \code
///   ; comments run from ';' to the end of the line
///   (in x F32) (in y F32) (out z F32) (out w U32)
///   (define (sq a) (mul.ftz.f32 a a))
///   (= z (add.ftz.f32 (sq x) (mul.ftz.f32 y 1.0)))
///   (= w (cvt.rzi.u32.f32 x))
/// \endcode
///
/// Grammar (forms in any order; routines may be called before they are
/// defined):
/// \code
///   file   ::= form*
///   form   ::= '(' ('in' | 'out' | 'mod') NAME STACK ')'   a variable
///            | '(' 'define' '(' NAME PARAM* ')' expr ')'  a routine
///            | '(' '=' NAME expr ')'     the expression of out/mod NAME
///            | expr                      the expression of the program's
///                                        one out variable (or, with none,
///                                        its one mod variable)
///   expr   ::= NAME                      a variable (Input) or, inside a
///                                        routine, a parameter (RoutineArg)
///            | LITERAL (':' STACK)?      a constant (Constant)
///            | '%' SPECIAL               `%tid.x`, `%laneid` (Special)
///            | '(' INSTR expr* ')'       an instruction of the tables by its
///                                        name; vector operands are written
///                                        element by element (Ptx)
///            | '(' ROUTINE expr* ')'     a routine call (Routine)
/// \endcode
/// Operands are in PTX order: `(sub.ftz.f32 a b)` is `a - b`. A literal's
/// stack is the operand's (`(add.u32 x 1)` is a U32 1), the output's at the
/// top of an expression, F32 (stack 0) elsewhere, or given as `2:U32`.
/// Literals: see mmptx/Expr/Literal.h (`1.5`, `-2e3`, `0f3f800000`, `7`,
/// `0x10`, `true`). A variable declared `out` has no value to read. Stacks
/// are the table's stack names, in any case.
///
/// Errors are located in the text; so are compile errors, through
/// locateAstError(), at the word's token.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_AST_ASTTEXT_H
#define MMPTX_AST_ASTTEXT_H

#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Expr/InstrSet.h"
#include "mmptx/Inject/InjectFormat.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"

#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace mmptx {
namespace ast {

/// A variable of a program. Input word i reads variable i.
struct AstVarDecl {
  std::string Name;
  uint16_t StackIdx = 0;
  InjectArgKind Kind = InjectArgKind::In;
  llvm::SMLoc Loc;       ///< declaration, or first use if predeclared
  llvm::SMLoc FirstRead; ///< invalid if never read
  /// For a predeclared variable, the variable of the site it names:
  /// several names (`acc`, `_x1`) may name one.
  uint32_t SiteVarIdx = ~0u;
};

/// Words of a routine or an expression, with the token of each word.
struct AstWords {
  std::vector<uint64_t> Words;
  std::vector<llvm::SMLoc> Locs;
  llvm::SMLoc Loc;
};

struct AstRoutineDecl {
  std::string Name;
  std::vector<std::string> Params;
  AstWords Body;
};

struct AstOutputDecl {
  uint32_t Var = 0; ///< index into AstModule::Vars
  AstWords Expr;
};

/// An owning AST PTX program as parsed from text (or built from words).
struct AstModule {
  std::vector<AstVarDecl> Vars;
  std::vector<AstRoutineDecl> Routines;
  std::vector<AstOutputDecl> Outputs;

  /// The variables as Input words read them.
  std::vector<AstVar> getInputs() const;
  /// A view for the compiler; valid while this object is unchanged.
  AstProgram getProgram() const;

private:
  mutable std::vector<AstOutput> OutputRefs;
  mutable std::vector<llvm::ArrayRef<uint64_t>> RoutineRefs;
};

/// Parses buffer \p BufferId of \p Sm. \returns the module or a located
/// DiagnosticError. A name in \p Predeclared that the text does not declare
/// is declared by its first use (as in mmptx/Stack/StackText.h).
llvm::Expected<AstModule>
parseAstModule(const llvm::SourceMgr &Sm, unsigned BufferId,
               const expr::InstrSet &Info,
               llvm::ArrayRef<AstVarDecl> Predeclared = {});

/// Parses \p Text (named \p BufferName in diagnostics).
llvm::Expected<AstModule> parseAstModule(llvm::StringRef Text,
                                         const expr::InstrSet &Info,
                                         llvm::StringRef BufferName = "<ast>");

/// Prints \p M in canonical text form, from its words. \returns an error if
/// some expression's words do not form a tree.
llvm::Error printAstModule(llvm::raw_ostream &Os, const AstModule &M,
                           const expr::InstrSet &Info);

/// Prints \p M as a word file: its variables and routine headers as
/// comment lines, then each routine's and expression's words in hex, one a
/// line:
/// \code
///   // in x F32
///   // out z F32
///   // routine sq a (4 words)
///   0x0000000000000006
///   ...
///   // output z (3 words)
///   0x0000000000000001
/// \endcode
void printAstWords(llvm::raw_ostream &Os, const AstModule &M,
                   const expr::InstrSet &Info);

/// Renumbers the PTX words of \p M between instruction indices of \p Info
/// and indices into \p Map (AstPtxOptions::InstrMap, e.g. the reference's
/// catalogue, getReferenceAstInstrMap): into the map's numbering if
/// \p ToMap, else out of it. \returns an error, located at the word when
/// \p Sm is given, for an instruction the map lacks or a mapped index
/// beyond it; \p M is then unchanged.
llvm::Error renumberAstInstrs(AstModule &M, llvm::ArrayRef<uint32_t> Map,
                              bool ToMap, const expr::InstrSet &Info,
                              const llvm::SourceMgr *Sm = nullptr);

/// Reads a word file (printAstWords) from buffer \p BufferId of \p Sm: any
/// words, which the compiler then checks. \returns the module or a located
/// DiagnosticError.
llvm::Expected<AstModule> parseAstWords(const llvm::SourceMgr &Sm,
                                        unsigned BufferId,
                                        const expr::InstrSet &Info);

/// Turns an AstError of compiling \p M into a DiagnosticError located at
/// the token of the failing word; other errors pass through.
llvm::Error locateAstError(llvm::Error E, const llvm::SourceMgr &Sm,
                           const AstModule &M);

} // namespace ast
} // namespace mmptx

#endif // MMPTX_AST_ASTTEXT_H
