//===- StubGen.cpp - Generate stubs from Stack PTX programs ---------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--stub-gen NAME=PROGRAM` compiles a Stack PTX program (text format) into
/// a stub typed against inject NAME and renders it at every site of NAME.
///
///  1. Find the injects (InjectModule); every site must be normalised, so
///     that its variables live in stable registers `%_x<i>`.
///  2. Parse the program with the inject's variables predeclared: one the
///     program uses by name (or stable register name) without declaring it
///     in `.registers` is declared with its type's stack and its kind.
///     `.include` files are searched in the program's directory, then in
///     the spec's include directories (--stack-include-dir).
///  3. Check every register: it must be a variable of the inject, on the
///     stack of the variable's type token and of a compatible kind (an `in`
///     register reads an in or mod variable, an `out` register writes an out
///     or mod variable). A register declared `out` (every out variable is)
///     has no value to read, so reading it is an error. Violations are
///     located in the program.
///  4. Requests are the program's `.requests`, or, without that section,
///     the registers it declares `out` or `mod`, in declaration order. Every
///     out variable of the inject that no request writes gets the zero of
///     its type (never an uninitialised register); a mod variable nothing
///     writes keeps its value.
///  5. Compile (strict mode and limits from the command line, checked
///     against StackPtxBounds first) for the module's target, the first
///     `sm_XX` of its `.target` directive (sm_90a counts as 90; none, any
///     target) unless the options name one, and warn, located at the
///     program, about every limit execution hit: the stub of a truncated
///     run is valid PTX but likely not what the author meant.
///  6. Replace each site's marker block with the stub.
///
//===----------------------------------------------------------------------===//

#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackText.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

namespace {
class StubGenPass : public Pass {
public:
  StubGenPass(std::vector<StubGenSpec> specs,
              const stack::StackPtxOptions &opts)
      : specs(std::move(specs)), compilerOptions(opts) {}
  StringRef getArgument() const override { return "stub-gen"; }
  StringRef getDescription() const override {
    return "compile Stack PTX programs into stubs at the sites of injects";
  }
  Error run(Module &m) override;

private:
  Expected<std::string> compileFor(const InjectModule &im, const Inject &inj,
                                   const StubGenSpec &spec);
  void warnAboutLimits(unsigned bufferID, const Inject &inj,
                       const stack::StackPtxStats &stats);

  std::vector<StubGenSpec> specs;
  stack::StackPtxOptions compilerOptions;
  /// The target of the module being run on (see run()).
  uint32_t targetSm = 0;
  std::unique_ptr<stack::StackPtxContext> ctx;
  /// Owns the program buffers so that diagnostics can point into them.
  SourceMgr programSM;
};
} // namespace

/// \returns the stack-kind name used in messages.
static StringRef kindName(stack::RegKind k) {
  switch (k) {
  case stack::RegKind::In:
    return "in";
  case stack::RegKind::Out:
    return "out";
  case stack::RegKind::Mod:
    return "mod";
  }
  return "in";
}

static stack::RegKind toRegKind(InjectArgKind k) {
  switch (k) {
  case InjectArgKind::In:
    return stack::RegKind::In;
  case InjectArgKind::Out:
    return stack::RegKind::Out;
  case InjectArgKind::Mod:
    return stack::RegKind::Mod;
  }
  return stack::RegKind::In;
}

/// \returns the mmptx-opt flag of StackPtxOptions field \p field.
static StringRef stackOptionFlag(StringRef field) {
  return StringSwitch<StringRef>(field)
      .Case("stackSize", "--stack-size")
      .Case("maxNodes", "--stack-node-limit")
      .Case("maxFrameDepth", "--stack-max-frame-depth")
      .Case("storeSize", "--stack-store-size")
      .Case("strict", "--stack-strict")
      .Default("--stack-execution-limit");
}

/// \returns the location of the start of buffer \p id.
static SMLoc bufferStart(const SourceMgr &sm, unsigned id) {
  return SMLoc::getFromPointer(sm.getMemoryBuffer(id)->getBufferStart());
}

void StubGenPass::warnAboutLimits(unsigned bufferID, const Inject &inj,
                                  const stack::StackPtxStats &stats) {
  stack::StackPtxOptions o = compilerOptions;
  o.targetSm = targetSm;
  stack::describeLimitsHit(stats, o, stackOptionFlag, [&](const Twine &msg) {
    programSM.PrintMessage(errs(), bufferStart(programSM, bufferID),
                           SourceMgr::DK_Warning,
                           "program for inject '" + inj.name + "': " + msg);
  });
}

/// \returns N of the first `sm_N` of the module's `.target` directive
/// (`.target sm_90a, debug` gives 90), or 0 if there is none.
static uint32_t getModuleTargetSm(const Module &m) {
  for (uint32_t i : m.headerDirectives()) {
    StringRef text = m.getText(m.getStatement(i));
    if (!text.consume_front(".target") || text.empty() || !isSpace(text[0]))
      continue;
    SmallVector<StringRef, 4> items;
    text.split(items, ',');
    for (StringRef item : items) {
      item = item.trim();
      if (!item.consume_front("sm_"))
        continue;
      uint32_t sm = 0;
      if (!item.take_while(isDigit).getAsInteger(10, sm))
        return sm;
    }
    return 0;
  }
  return 0;
}

Expected<std::string> StubGenPass::compileFor(const InjectModule &im,
                                              const Inject &inj,
                                              const StubGenSpec &spec) {
  std::string included;
  unsigned id = programSM.AddIncludeFile(spec.programFile, SMLoc(), included);
  if (!id)
    return makeError("cannot open Stack PTX program '" + spec.programFile +
                     "'");
  const stack::StackInfo &info = stack::getDefaultStackInfo();
  ArrayRef<InjectVariable> vars = im.getVariables(inj);
  auto stackOf = [&](const InjectVariable &v) {
    return info.findStack(v.typeToken);
  };

  // Every variable may be used without a declaration, by name or by stable
  // register. One whose type no stack holds gets an invalid stack, so that
  // its use is reported below, located.
  std::vector<stack::RegisterDecl> predeclared;
  for (const InjectVariable &v : vars) {
    int s = stackOf(v);
    uint16_t stackIdx = s < 0 ? uint16_t(info.numStacks) : uint16_t(s);
    for (StringRef name : {v.name, v.stableRegister})
      predeclared.push_back(
          {name.str(), stackIdx, toRegKind(v.kind), SMLoc(), SMLoc()});
  }
  auto prog = stack::parseStackProgram(programSM, id, info, predeclared,
                                       spec.includeDirs);
  if (!prog)
    return prog.takeError();

  // Map every register onto a variable of the inject.
  std::vector<stack::Register> regs;
  std::vector<int> varOfReg;
  for (const stack::RegisterDecl &d : prog->registers) {
    auto it = llvm::find_if(vars, [&](const InjectVariable &v) {
      return v.name == d.name || v.stableRegister == d.name;
    });
    if (it == vars.end())
      return DiagnosticError::get(programSM, d.loc,
                                  "inject '" + inj.name +
                                      "' has no variable '" + d.name + "'");
    const InjectVariable &v = *it;
    int s = stackOf(v);
    if (s < 0)
      return DiagnosticError::get(
          programSM, d.loc,
          "variable '" + v.name + "' has inject type '" + v.typeToken +
              "', which no Stack PTX stack holds");
    if (s != d.stackIdx)
      return DiagnosticError::get(
          programSM, d.loc,
          "variable '" + v.name + "' of inject '" + inj.name + "' is " +
              v.typeToken + ", not " + info.stackNames[d.stackIdx]);
    stack::RegKind vk = toRegKind(v.kind);
    if (d.kind != vk && !(vk == stack::RegKind::Mod))
      return DiagnosticError::get(
          programSM, d.loc,
          "variable '" + v.name + "' of inject '" + inj.name + "' is '" +
              kindName(vk) + "', not '" + kindName(d.kind) + "'");
    // An out register has no value before the stub writes it.
    if (d.kind == stack::RegKind::Out && d.firstRead.isValid()) {
      if (vk == stack::RegKind::Out)
        return DiagnosticError::get(programSM, d.firstRead,
                                    "the program reads '" + d.name +
                                        "', an out variable of inject '" +
                                        inj.name + "', which has no value");
      return DiagnosticError::get(programSM, d.firstRead,
                                  "the program reads '" + d.name +
                                      "', which it declares 'out'; declare "
                                      "it 'mod' to read its value");
    }
    // A mod variable keeps its value when the program leaves it alone.
    regs.push_back({v.stableRegister, uint16_t(s), vk});
    varOfReg.push_back(int(it - vars.begin()));
  }
  // `input(N)` before the declaration of register N has no recorded read;
  // locate it at the declaration.
  stack::Program words = prog->getProgram();
  auto readsOut = [&](ArrayRef<uint64_t> ws) {
    for (uint64_t w : ws) {
      if (stack::getWordType(w) != stack::WordType::Input)
        continue;
      uint32_t r = stack::getWordPayload(w);
      if (r < regs.size() && prog->registers[r].kind == stack::RegKind::Out)
        return int(r);
    }
    return -1;
  };
  int outRead = readsOut(words.main);
  for (ArrayRef<uint64_t> routine : words.routines)
    if (outRead < 0)
      outRead = readsOut(routine);
  if (outRead >= 0)
    return DiagnosticError::get(programSM, prog->registers[outRead].loc,
                                "the program reads '" +
                                    prog->registers[outRead].name +
                                    "', which is 'out' and has no value to "
                                    "read");

  // The parser refuses requests of registers declared 'in'.
  std::vector<uint32_t> requests = prog->requests;
  if (!prog->hasRequests) {
    // What the program declares it writes; a variable it does not mention
    // is not its to write.
    SmallVector<bool, 16> requested(vars.size(), false);
    for (uint32_t r : prog->getDefaultRequests()) {
      if (requested[varOfReg[r]])
        continue;
      requested[varOfReg[r]] = true;
      requests.push_back(r);
    }
  }

  // Out variables that no request writes are zeroed: a site never reads an
  // uninitialised register.
  SmallVector<bool, 16> written(vars.size(), false);
  for (uint32_t r : requests)
    written[varOfReg[r]] = true;
  std::vector<stack::Register> zeroRegs;
  for (size_t vi = 0; vi < vars.size(); ++vi) {
    const InjectVariable &v = vars[vi];
    if (v.kind != InjectArgKind::Out || written[vi])
      continue;
    int s = stackOf(v);
    if (s < 0)
      return DiagnosticError::get(
          programSM, bufferStart(programSM, id),
          "out variable '" + v.name + "' of inject '" + inj.name +
              "' has inject type '" + v.typeToken +
              "', which no Stack PTX stack holds, so it cannot be zeroed; "
              "request it");
    zeroRegs.push_back({v.stableRegister, uint16_t(s), stack::RegKind::Out});
  }

  if (!ctx || ctx->getTargetSm() != targetSm) {
    stack::StackPtxOptions o = compilerOptions;
    o.targetSm = targetSm;
    ctx = std::make_unique<stack::StackPtxContext>(info, o);
  }
  Expected<StringRef> text = ctx->compile(words, regs, requests, zeroRegs);
  if (!text)
    return DiagnosticError::get(programSM, bufferStart(programSM, id),
                                "program for inject '" + inj.name +
                                    "': " + toString(text.takeError()));
  warnAboutLimits(id, inj, ctx->getStats());
  return text->str();
}

Error StubGenPass::run(Module &m) {
  if (Error e = stack::checkStackPtxOptions(compilerOptions, stackOptionFlag))
    return e;
  // Stubs must assemble for the module they go into.
  targetSm = compilerOptions.targetSm ? compilerOptions.targetSm
                                      : getModuleTargetSm(m);
  const InjectOptions *opts = getContext().injectOptions;
  auto im = InjectModule::create(m, opts ? *opts : InjectOptions());
  if (!im)
    return im.takeError();
  std::vector<std::string> stubs((*im)->getNumInjects());
  std::vector<bool> have((*im)->getNumInjects(), false);
  for (const StubGenSpec &spec : specs) {
    const Inject *inj = (*im)->lookupInject(spec.injectName);
    if (!inj)
      return makeError("--stub-gen: no inject named '" + spec.injectName +
                       "' in " + m.getBufferIdentifier());
    if (have[inj->index])
      return makeError("--stub-gen: more than one program for inject '" +
                       spec.injectName + "'");
    auto stub = compileFor(**im, *inj, spec);
    if (!stub)
      return stub.takeError();
    stubs[inj->index] = std::move(*stub);
    have[inj->index] = true;
  }
  for (const InjectSite &site : (*im)->sites()) {
    if (!have[site.inject])
      continue;
    if (site.format == InjectSiteFormat::Legacy)
      return DiagnosticError::get(
          m.getSourceMgr(), m.getLoc(site.markerOffset),
          "inject site is not normalised; run --normalize-injection-sites "
          "before --stub-gen");
    if (Error e = verifyNormalizedSite(m, **im, site))
      return e;
    m.replaceRange(site.removeBegin, site.removeEnd, stubs[site.inject]);
  }
  return Error::success();
}

std::unique_ptr<Pass>
mmptx::createStubGenPass(std::vector<StubGenSpec> specs) {
  return createStubGenPass(std::move(specs), stack::StackPtxOptions());
}

std::unique_ptr<Pass>
mmptx::createStubGenPass(std::vector<StubGenSpec> specs,
                         const stack::StackPtxOptions &opts) {
  return std::make_unique<StubGenPass>(std::move(specs), opts);
}
