//===- PruneUnusedGlobals.cpp - Remove unreferenced globals ---------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A mark-and-sweep over the module-scope symbols (see
/// mmptx/Transforms/PruneUnusedGlobals.h for what is kept):
///  1. Split the module scope into groups: one per function (header to the
///     end of its body, or a prototype), one per variable declaration, one
///     per `.alias`. Every other module-scope statement (header directives,
///     `.file`, `.section` and its data, texture references, anything this
///     pass does not know) is a root that is never removed.
///  2. Mark: the roots' names, then the names of each newly kept group,
///     found by lexing its statements: every identifier that names a
///     module-scope symbol keeps every group that declares it (a prototype
///     and its definition, an `.extern` and its definition). Names in root
///     statements outside functions (debug sections) may also name labels
///     inside functions: they keep those functions.
///  3. Sweep: remove the unmarked groups, whole lines where a group has its
///     lines to itself, with the `// .globl`/`// .weak` comment the compiler
///     writes before a function, and with one of two blank lines that a
///     removal would leave adjacent.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Transforms/PruneUnusedGlobals.h"
#include "mmptx/IR/Instruction.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Parser/Lexer.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Parser/StatementParser.h"
#include "mmptx/Printer/Printer.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {

/// A unit of removal: statements First..Last of the module.
struct Group {
  uint32_t First;
  uint32_t Last;
  enum KindTy : uint8_t { Variable, Function, Alias } Kind;
  bool Kept = false;
  /// Declared with a linkage that exports it (or an entry).
  bool Exported = false;
  /// The names it declares (an alias: the alias's name).
  SmallVector<StringRef, 1> Names;
};

class Pruner {
public:
  Pruner(Module &M, const PruneOptions &Opts,
         const std::function<void(const SMDiagnostic &)> &OnWarning)
      : M(M), Opts(Opts), OnWarning(OnWarning) {}
  Expected<PruneStats> run();

private:
  Error collect();
  Error addDirective(uint32_t I);
  void addFunction(const Function &F);
  void keep(unsigned G);
  /// Keeps every group that a name of statements First..Last refers to;
  /// \p FromOutside: the statements are outside every function, so names of
  /// labels inside functions count too.
  void scan(uint32_t First, uint32_t Last, bool FromOutside);
  void sweep(PruneStats &Stats);

  Module &M;
  const PruneOptions &Opts;
  const std::function<void(const SMDiagnostic &)> &OnWarning;
  std::vector<Group> Groups;
  /// Module-scope name → the groups that declare it.
  StringMap<SmallVector<unsigned, 1>> Symbols;
  /// Label inside a function → that function's groups.
  StringMap<SmallVector<unsigned, 1>> Labels;
  /// Statement ranges outside every group, scanned as roots.
  std::vector<std::pair<uint32_t, uint32_t>> RootRanges;
  std::vector<unsigned> Worklist;
  /// Some symbol is named `%...`, which lexes as a register.
  bool AnyPercentSymbol = false;
};

} // namespace

/// \returns true if \p Word is a linkage directive that makes a symbol
/// visible outside the module.
static bool isExportingLinkage(StringRef Word) {
  return Word == ".visible" || Word == ".extern" || Word == ".weak" ||
         Word == ".common";
}

/// The directive tokens at the start of \p Text, up to \p Max of them.
static SmallVector<StringRef, 4> leadingDirectives(StringRef Text,
                                                   unsigned Max) {
  SmallVector<StringRef, 4> Words;
  Lexer L(Text);
  for (Token T = L.next(); T.is(Token::Directive) && Words.size() < Max;
       T = L.next())
    Words.push_back(T.Text);
  return Words;
}

Error Pruner::collect() {
  ArrayRef<Function> Funcs = M.functions();
  size_t NextFunc = 0;
  for (uint32_t I = 0, N = M.size(); I < N; ++I) {
    const Statement &S = M.getStatement(I);
    if (S.Kind == StmtKind::Comment)
      continue;
    if (S.Kind == StmtKind::FunctionHeader && S.Depth == 0) {
      while (NextFunc < Funcs.size() && Funcs[NextFunc].Header < I)
        ++NextFunc;
      if (NextFunc < Funcs.size() && Funcs[NextFunc].Header == I) {
        const Function &F = Funcs[NextFunc];
        addFunction(F);
        if (F.isDefinition())
          I = F.BodyEnd;
        continue;
      }
    }
    if (S.Kind == StmtKind::Directive && S.Depth == 0) {
      if (Error E = addDirective(I))
        return E;
      continue;
    }
    // Section bodies, stray `;`, anything else: roots.
    RootRanges.push_back({I, I});
  }
  return Error::success();
}

void Pruner::addFunction(const Function &F) {
  Group G;
  G.First = F.Header;
  G.Last = F.isDefinition() ? F.BodyEnd : F.Header;
  G.Kind = Group::Function;
  G.Names.push_back(F.Name);
  G.Exported = F.IsEntry;
  for (StringRef W : leadingDirectives(M.getText(M.getStatement(F.Header)), 8))
    G.Exported |= isExportingLinkage(W);
  bool HasSite = false;
  unsigned Index = Groups.size();
  for (uint32_t I = G.First + 1; I < G.Last; ++I) {
    const Statement &S = M.getStatement(I);
    if (S.Kind == StmtKind::Comment) {
      HasSite |= (S.Flags & SF_KeywordComment) != 0;
    } else if (S.Kind == StmtKind::Label) {
      StringRef Name = M.getText(S).drop_back().rtrim();
      auto &L = Labels[Name];
      if (L.empty() || L.back() != Index)
        L.push_back(Index);
    }
  }
  // Entries and inject sites are roots in every mode.
  bool Root = F.IsEntry || HasSite || (G.Exported && !Opts.EntriesOnly);
  Symbols[F.Name].push_back(Index);
  AnyPercentSymbol |= F.Name.startswith("%");
  Groups.push_back(std::move(G));
  if (Root)
    Worklist.push_back(Index);
}

Error Pruner::addDirective(uint32_t I) {
  const Statement &S = M.getStatement(I);
  StringRef Text = M.getText(S);
  SmallVector<StringRef, 4> Words = leadingDirectives(Text, 4);
  if (Words.empty()) {
    RootRanges.push_back({I, I});
    return Error::success();
  }
  if (Words[0] == ".alias") {
    // `.alias name, target;`: removed with `name`, keeps `target`.
    Lexer L(Text);
    L.next();
    Token Name = L.next();
    if (Name.is(Token::Identifier)) {
      Group G;
      G.First = G.Last = I;
      G.Kind = Group::Alias;
      G.Names.push_back(Name.Text);
      Symbols[Name.Text].push_back(Groups.size());
      Groups.push_back(std::move(G));
      return Error::success();
    }
    RootRanges.push_back({I, I});
    return Error::success();
  }
  bool Exported = false;
  StringRef Space;
  for (StringRef W : Words) {
    if (isExportingLinkage(W)) {
      Exported = true;
      continue;
    }
    Space = W;
    break;
  }
  if (Space != ".global" && Space != ".const" && Space != ".shared") {
    RootRanges.push_back({I, I});
    return Error::success();
  }
  Declaration D;
  if (Error E = parseDeclaration(M, S, D))
    return E;
  // Texture, sampler and surface references are looked up by name by the
  // driver, whatever their linkage: roots.
  for (StringRef Q : D.Qualifiers)
    if (Q == ".texref" || Q == ".samplerref" || Q == ".surfref") {
      RootRanges.push_back({I, I});
      return Error::success();
    }
  if (D.Type == ".texref" || D.Type == ".samplerref" || D.Type == ".surfref" ||
      D.Names.empty()) {
    RootRanges.push_back({I, I});
    return Error::success();
  }
  Group G;
  G.First = G.Last = I;
  G.Kind = Group::Variable;
  G.Exported = Exported;
  unsigned Index = Groups.size();
  for (const DeclaredName &N : D.Names) {
    G.Names.push_back(N.Name);
    Symbols[N.Name].push_back(Index);
    AnyPercentSymbol |= N.Name.startswith("%");
  }
  Groups.push_back(std::move(G));
  if (Exported && !Opts.EntriesOnly)
    Worklist.push_back(Index);
  return Error::success();
}

void Pruner::keep(unsigned G) {
  if (Groups[G].Kept)
    return;
  Groups[G].Kept = true;
  Worklist.push_back(G);
  // Every declaration of the same name goes with it.
  for (StringRef Name : Groups[G].Names)
    for (unsigned Other : Symbols.find(Name)->second)
      keep(Other);
}

void Pruner::scan(uint32_t First, uint32_t Last, bool FromOutside) {
  for (uint32_t I = First; I <= Last; ++I) {
    const Statement &S = M.getStatement(I);
    if (S.Kind == StmtKind::Comment || S.Kind == StmtKind::ScopeBegin ||
        S.Kind == StmtKind::ScopeEnd || S.Kind == StmtKind::Empty)
      continue;
    StringRef Text = M.getText(S);
    Lexer L(Text);
    const char *Pos = L.getPos();
    for (Token T = L.next(); !T.is(Token::Eof); T = L.next()) {
      if (L.getPos() == Pos)
        break; // No progress: nothing more to read.
      Pos = L.getPos();
      if (!T.is(Token::Identifier) &&
          !(AnyPercentSymbol && T.is(Token::Register)))
        continue;
      auto It = Symbols.find(T.Text);
      if (It != Symbols.end())
        for (unsigned G : It->second)
          keep(G);
      if (!FromOutside)
        continue;
      auto LIt = Labels.find(T.Text);
      if (LIt != Labels.end())
        for (unsigned G : LIt->second)
          keep(G);
    }
  }
}

/// \returns true if [\p B, \p E) of \p Buf holds only blanks and newlines.
static bool isBlank(StringRef Buf, uint32_t B, uint32_t E) {
  for (uint32_t I = B; I < E; ++I)
    if (!isSpace(Buf[I]))
      return false;
  return true;
}

/// \returns the start of the line that holds offset \p Off.
static uint32_t lineStart(StringRef Buf, uint32_t Off) {
  while (Off > 0 && Buf[Off - 1] != '\n')
    --Off;
  return Off;
}

/// \returns the offset after the newline that ends the line holding
/// \p Off (the end of the buffer on the last line).
static uint32_t nextLine(StringRef Buf, uint32_t Off) {
  while (Off < Buf.size() && Buf[Off] != '\n')
    ++Off;
  return Off < Buf.size() ? Off + 1 : Off;
}

/// \returns true if comment \p Text is the `// .globl NAME` or
/// `// .weak NAME` line that the compiler writes before function \p Name.
static bool isLinkageComment(StringRef Text, StringRef Name) {
  if (!Text.consume_front("//"))
    return false;
  Text = Text.ltrim(" \t");
  if (!Text.consume_front(".globl") && !Text.consume_front(".weak"))
    return false;
  return Text.trim(" \t\r") == Name;
}

void Pruner::sweep(PruneStats &Stats) {
  StringRef Buf = M.getBuffer();
  struct Range {
    uint32_t Begin, End;
    /// It covers whole lines.
    bool Lines;
  };
  std::vector<Range> Ranges;
  StringSet<> Variables, Functions;
  for (const Group &G : Groups) {
    if (G.Kept)
      continue;
    for (StringRef Name : G.Names)
      (G.Kind == Group::Function ? Functions : Variables).insert(Name);
    uint32_t First = G.First;
    if (G.Kind == Group::Function && First > 0) {
      const Statement &C = M.getStatement(First - 1);
      if (C.Kind == StmtKind::Comment && C.Depth == 0 &&
          isLinkageComment(M.getText(C), G.Names.front()))
        --First;
    }
    uint32_t B = M.getStatement(First).Begin;
    uint32_t E = M.getStatement(G.Last).End;
    // Whole lines when the group has its lines to itself, else the
    // statements and the blanks before them.
    uint32_t LS = lineStart(Buf, B), LE = nextLine(Buf, E);
    bool Lines = isBlank(Buf, LS, B) && isBlank(Buf, E, LE);
    if (Lines) {
      B = LS;
      E = LE;
    } else {
      while (B > LS && (Buf[B - 1] == ' ' || Buf[B - 1] == '\t'))
        --B;
    }
    // Two removals of whole lines with only blank lines between: one.
    if (Lines && !Ranges.empty() && Ranges.back().Lines &&
        isBlank(Buf, Ranges.back().End, B)) {
      Ranges.back().End = E;
      continue;
    }
    Ranges.push_back({B, E, Lines});
  }
  for (Range &R : Ranges) {
    // A removal between two blank lines would leave them adjacent: the one
    // after it goes too.
    if (R.Lines && R.Begin > 0 && R.End < Buf.size() &&
        isBlank(Buf, lineStart(Buf, R.Begin - 1), R.Begin)) {
      uint32_t After = nextLine(Buf, R.End);
      if (isBlank(Buf, R.End, After))
        R.End = After;
    }
    Stats.Bytes += R.End - R.Begin;
    M.replaceRange(R.Begin, R.End, "");
  }
  Stats.Variables = Variables.size();
  Stats.Functions = Functions.size();
}

Expected<PruneStats> Pruner::run() {
  if (Error E = collect())
    return E;
  for (const std::string &Name : Opts.Keep) {
    auto It = Symbols.find(Name);
    if (It == Symbols.end()) {
      if (OnWarning)
        OnWarning(M.getSourceMgr().GetMessage(
            M.getLoc(0u), SourceMgr::DK_Warning,
            "prune-unused-globals: keep=" + Name +
                ": the module declares no such variable or function"));
      continue;
    }
    for (unsigned G : It->second)
      Worklist.push_back(G);
  }
  // The roots queued so far are not marked yet.
  std::vector<unsigned> Roots;
  Roots.swap(Worklist);
  for (unsigned G : Roots)
    keep(G);
  for (auto [First, Last] : RootRanges)
    scan(First, Last, /*FromOutside=*/true);
  while (!Worklist.empty()) {
    unsigned G = Worklist.back();
    Worklist.pop_back();
    scan(Groups[G].First, Groups[G].Last, /*FromOutside=*/false);
  }
  PruneStats Stats;
  sweep(Stats);
  return Stats;
}

Expected<PruneOptions> mmptx::parsePruneOptions(ArrayRef<std::string> Values) {
  PruneOptions Opts;
  for (StringRef Value : Values) {
    SmallVector<StringRef, 4> Items;
    Value.split(Items, ',', -1, /*KeepEmpty=*/false);
    for (StringRef Item : Items) {
      Item = Item.trim();
      if (Item == "entries-only") {
        Opts.EntriesOnly = true;
      } else if (Item.consume_front("keep=")) {
        if (Item.empty())
          return makeError("--prune-unused-globals: keep= needs a name");
        Opts.Keep.push_back(Item.str());
      } else {
        return makeError("--prune-unused-globals: unknown option '" + Item +
                         "' (expected entries-only or keep=NAME)");
      }
    }
  }
  return Opts;
}

Expected<PruneStats> mmptx::pruneUnusedGlobals(
    Module &M, const PruneOptions &Opts,
    const std::function<void(const SMDiagnostic &)> &OnWarning) {
  return Pruner(M, Opts, OnWarning).run();
}

Expected<std::string> mmptx::prunePTX(StringRef Ptx, const PruneOptions &Opts,
                                      PruneStats *Stats, StringRef Name) {
  auto M = parsePTXString(Ptx, Name, /*Verify=*/false);
  if (!M)
    return M.takeError();
  auto S = pruneUnusedGlobals(**M, Opts);
  if (!S)
    return S.takeError();
  if (Stats)
    *Stats = *S;
  if (!(*M)->isModified())
    return Ptx.str();
  return printModuleToString(**M);
}

namespace {
class PruneUnusedGlobalsPass : public Pass {
public:
  explicit PruneUnusedGlobalsPass(PruneOptions Opts) : Opts(std::move(Opts)) {}
  StringRef getArgument() const override { return "prune-unused-globals"; }
  Error run(Module &M) override {
    auto S = pruneUnusedGlobals(M, Opts, getContext().OnWarning);
    return S ? Error::success() : S.takeError();
  }

private:
  PruneOptions Opts;
};
} // namespace

std::unique_ptr<Pass> mmptx::createPruneUnusedGlobalsPass(PruneOptions Opts) {
  return std::make_unique<PruneUnusedGlobalsPass>(std::move(Opts));
}

Expected<std::unique_ptr<Pass>>
mmptx::createPruneUnusedGlobalsPassFromValues(ArrayRef<std::string> Values) {
  auto Opts = parsePruneOptions(Values);
  if (!Opts)
    return Opts.takeError();
  return createPruneUnusedGlobalsPass(std::move(*Opts));
}
