//===- Module.h - Lossless PTX module ---------------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The PTX IR. A Module is the source text plus a flat, ordered list of
/// Statements that cover every non-blank byte of it; the bytes between two
/// statements (blanks, newlines) are kept implicitly as gaps. Printing an
/// unchanged module therefore reproduces its input byte for byte, whatever the
/// comments, whitespace or line endings.
///
/// Structure (scopes, functions, sections) is found by the fast structural
/// pass; operands are parsed on demand (see mmptx/IR/Instruction.h) so that
/// passes which only need structure never pay for them.
///
/// Edits are byte-range replacements recorded on the module and applied by
/// the printer, so untouched text is never re-serialised.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_IR_MODULE_H
#define MMPTX_IR_MODULE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace mmptx {
namespace ptx {

/// What the structural pass recognised a statement as.
enum class StmtKind : uint8_t {
  /// `// ...` up to (not including) the newline, or `/* ... */`.
  Comment,
  /// A directive statement other than a function header: `.version 9.0`,
  /// `.reg .f32 %f<5>;`, `.global .b8 a[2] = {1, 2};`, `.loc 1 2 3`, ...
  Directive,
  /// `.entry`/`.func` header with its linkage, parameters and performance
  /// directives, up to but excluding the body's `{` (or including the `;`
  /// of a prototype).
  FunctionHeader,
  /// `{`
  ScopeBegin,
  /// `}`
  ScopeEnd,
  /// `name:`
  Label,
  /// `[@[!]pred] opcode[.mod]* operands ;`
  Instruction,
  /// A lone `;` (e.g. after a multi-line prototype).
  Empty,
};

/// Returns a printable name for \p K ("instruction", "label", ...).
llvm::StringRef getStmtKindName(StmtKind K);

/// Statement flags set by the structural pass.
enum StmtFlags : uint8_t {
  SF_None = 0,
  /// A `// begin inline asm` comment.
  SF_BeginInlineAsm = 1 << 0,
  /// A `// end inline asm` comment.
  SF_EndInlineAsm = 1 << 1,
  /// Inside a begin/end inline asm region.
  SF_InInlineAsm = 1 << 2,
  /// A comment that contains the keyword of the structural parser (see
  /// mmptx/Parser/Parser.h); the layer that asked for it gives it a meaning.
  SF_KeywordComment = 1 << 3,
};

/// One statement: a byte range of the module's buffer and its kind. Twelve
/// bytes, so that the structural pass stays memory-bound.
struct Statement {
  uint32_t Begin;
  uint32_t End;
  StmtKind Kind;
  uint8_t Flags;
  /// Brace depth the statement is at (0 = module scope); a `{` and its `}`
  /// carry the depth outside them.
  uint16_t Depth;
  /// ScopeBegin: index of the matching ScopeEnd and vice versa.
  /// FunctionHeader: index of the body's ScopeBegin, or NoIndex.
  uint32_t Link;

  static constexpr uint32_t NoIndex = ~uint32_t(0);
  uint32_t size() const { return End - Begin; }
};

/// A `.entry` or `.func`: its header statement and, for definitions, its
/// body scope.
struct Function {
  /// Index of the FunctionHeader statement.
  uint32_t Header;
  /// Index of the body's ScopeBegin / ScopeEnd, or Statement::NoIndex for a
  /// prototype.
  uint32_t BodyBegin = Statement::NoIndex;
  uint32_t BodyEnd = Statement::NoIndex;
  llvm::StringRef Name;
  bool IsEntry = false;

  bool isDefinition() const { return BodyBegin != Statement::NoIndex; }
};

/// A byte-range replacement applied by the printer.
struct Edit {
  uint32_t Begin;
  uint32_t End;
  std::string Text;
};

/// A parsed PTX module. Holds a reference to the SourceMgr that owns the
/// text (for diagnostics), or owns one itself when built from a string.
class Module {
public:
  Module(const llvm::SourceMgr &SM, unsigned BufferID);
  /// A module over \p Text, named \p BufferName in diagnostics (both must
  /// outlive it), whose SourceMgr is built the first time something asks
  /// for it: a caller that only needs one for errors pays nothing when
  /// there is none. That first request is not thread-safe.
  Module(llvm::StringRef Text, llvm::StringRef BufferName);
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  const llvm::SourceMgr &getSourceMgr() const {
    return SM ? *SM : makeSourceMgr();
  }
  unsigned getBufferID() const {
    getSourceMgr();
    return BufferID;
  }
  /// The whole source text.
  llvm::StringRef getBuffer() const { return Buffer; }
  llvm::StringRef getBufferIdentifier() const;

  llvm::ArrayRef<Statement> statements() const { return Stmts; }
  const Statement &getStatement(uint32_t I) const { return Stmts[I]; }
  size_t size() const { return Stmts.size(); }

  /// \returns the text of \p S (no leading or trailing blanks).
  llvm::StringRef getText(const Statement &S) const {
    return Buffer.substr(S.Begin, S.End - S.Begin);
  }
  /// \returns the blanks and newlines between statement \p I and the one
  /// before it (or the start of the buffer).
  llvm::StringRef getLeadingGap(uint32_t I) const;
  llvm::SMLoc getLoc(const Statement &S) const { return getLoc(S.Begin); }
  llvm::SMLoc getLoc(uint32_t Offset) const {
    return llvm::SMLoc::getFromPointer(Buffer.data() + Offset);
  }
  /// \returns the byte offset of \p P, a pointer into the buffer.
  uint32_t getOffset(const char *P) const {
    return static_cast<uint32_t>(P - Buffer.data());
  }
  /// \returns the 1-based line of \p S (computed on demand).
  unsigned getLine(const Statement &S) const;

  /// Functions and prototypes in source order.
  llvm::ArrayRef<Function> functions() const { return Functions; }
  /// \returns the function named \p Name, or nullptr.
  const Function *lookupFunction(llvm::StringRef Name) const;
  /// Indices of the header directives (.version, .target, .address_size).
  llvm::ArrayRef<uint32_t> headerDirectives() const { return Header; }

  /// Edits, kept sorted by offset and non-overlapping.
  llvm::ArrayRef<Edit> edits() const { return Edits; }
  bool isModified() const { return !Edits.empty(); }
  /// Replaces bytes [Begin, End) of the buffer with \p Text when printing.
  /// Ranges must not overlap earlier edits (asserted).
  void replaceRange(uint32_t Begin, uint32_t End, std::string Text);
  /// Replaces statements First..Last (inclusive) with \p Text.
  void replaceStatements(uint32_t First, uint32_t Last, std::string Text) {
    replaceRange(Stmts[First].Begin, Stmts[Last].End, std::move(Text));
  }
  /// Inserts \p Text at byte \p Offset.
  void insertText(uint32_t Offset, std::string Text) {
    replaceRange(Offset, Offset, std::move(Text));
  }

private:
  /// Builds the SourceMgr of a module made with Module(Text, BufferName).
  const llvm::SourceMgr &makeSourceMgr() const;

  mutable const llvm::SourceMgr *SM;
  mutable std::unique_ptr<llvm::SourceMgr> OwnedSM;
  mutable unsigned BufferID;
  llvm::StringRef Buffer;
  /// The name of a module whose SourceMgr is not built yet.
  llvm::StringRef LazyName;
  std::vector<Statement> Stmts;
  /// Most modules hold one kernel: no allocation for it.
  llvm::SmallVector<Function, 1> Functions;
  /// At most one of each, in a module that is valid: no allocation.
  llvm::SmallVector<uint32_t, 3> Header;
  std::vector<Edit> Edits;

public:
  /// For the parser: mutable access while building.
  std::vector<Statement> &getStatementsForBuild() { return Stmts; }
  llvm::SmallVectorImpl<Function> &getFunctionsForBuild() { return Functions; }
  llvm::SmallVectorImpl<uint32_t> &getHeaderForBuild() { return Header; }
  /// Makes the module own \p Owned (the SourceMgr it refers to).
  void adoptSourceMgr(std::unique_ptr<llvm::SourceMgr> Owned);
};

} // namespace ptx
} // namespace mmptx

#endif // MMPTX_IR_MODULE_H
