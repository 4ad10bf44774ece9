//===- mmptx-wire.cpp - Inspect and convert wire-format buffers -----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Prints, checks and converts serialised jobs:
///
///   mmptx-wire dump FILE                        an mmptx message as JSON
///   mmptx-wire dump FILE --layout=state         a reference buffer (its
///                                               layout: state, 01 or one
///                                               component) as JSON
///   mmptx-wire check FILE                       verify an mmptx message
///   mmptx-wire convert FILE --layout=state -o J a reference buffer as an
///               [--programs-out=P]              mmptx job (and programs)
///
/// Errors name the file and the byte offset where reading stopped.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Serialize/ReferenceWire.h"
#include "mmptx/Serialize/Wire.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolInit.h"
#include "mmptx/Support/ToolOutput.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::wire;

static cl::OptionCategory WireCategory("mmptx-wire Options");

static cl::SubCommand DumpCmd("dump", "Print a buffer as JSON");
static cl::SubCommand CheckCmd("check", "Verify an mmptx wire message");
static cl::SubCommand
    ConvertCmd("convert",
               "Convert a reference buffer into an mmptx job message");

static cl::opt<std::string> InputFilename(cl::Positional, cl::Required,
                                          cl::desc("<file>"), cl::sub(DumpCmd),
                                          cl::sub(CheckCmd),
                                          cl::sub(ConvertCmd),
                                          cl::cat(WireCategory));

enum class Format { Auto, Mmptx, Reference };
static cl::opt<Format> InputFormat(
    "format",
    cl::desc("What the buffer is (default: mmptx if it starts with "
             "the MMPTXWIR magic, else mm-ptx)"),
    cl::values(clEnumValN(Format::Mmptx, "mmptx", "an mmptx message"),
               clEnumValN(Format::Reference, "mm-ptx",
                          "a buffer the reference's serialiser wrote")),
    cl::init(Format::Auto), cl::sub(DumpCmd), cl::cat(WireCategory));

static cl::opt<std::string> LayoutName(
    "layout",
    cl::desc("Layout of a reference buffer (it has no header): state "
             "(ptx, compiler_info, stack_info, extra, registers, requests), "
             "01 (the reference's 01_buffer_compile order), or one of "
             "compiler_info, stack_info, extra, registers, requests, "
             "instructions, ptx"),
    cl::value_desc("layout"), cl::sub(DumpCmd), cl::sub(ConvertCmd),
    cl::cat(WireCategory));

static cl::opt<std::string> OutputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("file"),
                                           cl::init("-"), cl::sub(DumpCmd),
                                           cl::sub(ConvertCmd),
                                           cl::cat(WireCategory));
static cl::opt<std::string>
    ProgramsOut("programs-out",
                cl::desc("Also write the buffer's programs as an mmptx "
                         "programs message"),
                cl::value_desc("file"), cl::sub(ConvertCmd),
                cl::cat(WireCategory));

static std::string hexWord(uint64_t W) {
  std::string S;
  raw_string_ostream Os(S);
  Os << format_hex(W, 18);
  return Os.str();
}

static json::Array wordArray(ArrayRef<uint64_t> Words) {
  json::Array A;
  for (uint64_t W : Words)
    A.push_back(hexWord(W));
  return A;
}

static const char *kindName(stack::RegKind K) {
  return K == stack::RegKind::In    ? "in"
         : K == stack::RegKind::Out ? "out"
                                    : "mod";
}

static json::Value setToJson(const InstructionSet &S) {
  json::Array Stacks, Args, Instrs, Specials;
  for (const StackDecl &D : S.Stacks)
    Stacks.push_back(json::Object{{"name", D.Name},
                                  {"literal_prefix", D.LiteralPrefix},
                                  {"inline_literals", D.InlineLiterals}});
  for (const ArgTypeDecl &D : S.ArgTypes)
    Args.push_back(json::Object{{"name", D.Name},
                                {"stack", D.StackIdx},
                                {"num_vec_elems", D.NumVecElems}});
  for (const InstrDecl &D : S.Instrs) {
    json::Array A, R;
    for (uint16_t X : D.Args)
      A.push_back(X);
    for (uint16_t X : D.Rets)
      R.push_back(X);
    Instrs.push_back(json::Object{{"name", D.Name},
                                  {"ptx", D.Ptx},
                                  {"args", std::move(A)},
                                  {"rets", std::move(R)},
                                  {"min_sm", D.MinSm}});
  }
  for (const SpecialDecl &D : S.Specials)
    Specials.push_back(json::Object{{"name", D.Name},
                                    {"ptx", D.Ptx},
                                    {"arg_type", D.ArgType},
                                    {"min_sm", D.MinSm}});
  return json::Object{{"stacks", std::move(Stacks)},
                      {"arg_types", std::move(Args)},
                      {"instructions", std::move(Instrs)},
                      {"specials", std::move(Specials)}};
}

static json::Value jobToJson(const Job &J) {
  static const char *const SourceKinds[] = {"none", "ptx", "inject"};
  const stack::StackPtxOptions &O = J.StackOptions;
  json::Array Regs, Reqs, BackendOpts;
  for (const RegisterDecl &R : J.Registers)
    Regs.push_back(json::Object{
        {"name", R.Name}, {"stack", R.StackIdx}, {"kind", kindName(R.Kind)}});
  for (const std::vector<uint32_t> &L : J.Requests) {
    json::Array A;
    for (uint32_t X : L)
      A.push_back(X);
    Reqs.push_back(std::move(A));
  }
  for (const std::string &S : J.BackendOptions)
    BackendOpts.push_back(S);
  json::Array Types;
  for (const InjectTypeDecl &T : J.Inject.ExtraTypes)
    Types.push_back(json::Object{{"token", T.Token},
                                 {"reg_type", T.RegType},
                                 {"mov_suffix", T.MovSuffix}});
  json::Object Out{
      {"source", json::Object{{"kind", SourceKinds[unsigned(J.Kind)]},
                              {"name", J.SourceName},
                              {"text", J.Source}}},
      {"instruction_set",
       J.DefaultInstructionSet ? json::Value("default") : setToJson(J.Set)},
      {"stack_options", json::Object{{"strict", O.Strict},
                                     {"zero_unsatisfied", O.ZeroUnsatisfied},
                                     {"stack_size", O.StackSize},
                                     {"max_nodes", O.MaxNodes},
                                     {"max_frame_depth", O.MaxFrameDepth},
                                     {"store_size", O.StoreSize},
                                     {"execution_limit", O.ExecutionLimit},
                                     {"target_sm", O.TargetSm}}},
      {"registers", std::move(Regs)},
      {"requests", std::move(Reqs)},
      {"target", J.Target},
      {"backend", J.Backend},
      {"backend_options", std::move(BackendOpts)}};
  if (!J.Metadata.empty()) {
    json::Object Meta;
    for (const MetadataEntry &E : J.Metadata)
      Meta[E.Key] = E.Value;
    Out["metadata"] = std::move(Meta);
  }
  return Out;
}

static json::Value programsToJson(const ProgramBatch &B) {
  json::Array Vs;
  for (const Variant &V : B.Variants) {
    json::Array Ps;
    for (const WireProgram &P : V.Programs) {
      json::Array Rs;
      for (const std::vector<uint64_t> &R : P.Routines)
        Rs.push_back(wordArray(R));
      Ps.push_back(json::Object{{"kind", getProgramKindName(P.Kind)},
                                {"inject", P.Inject},
                                {"words", wordArray(P.Words)},
                                {"routines", std::move(Rs)},
                                {"text", P.Text}});
    }
    Vs.push_back(json::Object{{"id", V.Id}, {"programs", std::move(Ps)}});
  }
  return Vs;
}

static json::Value resultsToJson(const ResultBatch &B) {
  json::Array Rs;
  for (const Result &R : B.Results) {
    json::Array Stubs, Errors;
    for (const std::string &S : R.Stubs)
      Stubs.push_back(S);
    for (const WireDiagnostic &D : R.Errors)
      Errors.push_back(json::Object{{"message", D.Message},
                                    {"file", D.File},
                                    {"line", D.Line},
                                    {"column", D.Column}});
    Rs.push_back(json::Object{{"id", R.Id},
                              {"name", R.Name},
                              {"log", R.Log},
                              {"origin", R.Origin},
                              {"seconds", R.Seconds},
                              {"ok", R.Ok},
                              {"cubin_size", int64_t(R.Cubin.size())},
                              {"cubin_hex", toHex(R.Cubin, true)},
                              {"stubs", std::move(Stubs)},
                              {"errors", std::move(Errors)},
                              {"backend", R.Backend},
                              {"backend_version", R.BackendVersion}});
  }
  return Rs;
}

static Expected<json::Value> dumpMmptx(StringRef Bytes) {
  Expected<MessageInfo> Info = checkMessage(Bytes);
  if (!Info)
    return Info.takeError();
  json::Object Out{{"format", "mmptx"},
                   {"version", Info->Version},
                   {"kind", getMessageKindName(Info->Kind)},
                   {"size", int64_t(Bytes.size())},
                   {"checksum", hexWord(Info->Checksum)}};
  switch (Info->Kind) {
  case MessageKind::Job: {
    Expected<Job> J = deserializeJob(Bytes);
    if (!J)
      return J.takeError();
    Out["job"] = jobToJson(*J);
    break;
  }
  case MessageKind::Programs: {
    Expected<ProgramBatch> P = deserializePrograms(Bytes);
    if (!P)
      return P.takeError();
    Out["variants"] = programsToJson(*P);
    break;
  }
  case MessageKind::Results: {
    Expected<ResultBatch> R = deserializeResults(Bytes);
    if (!R)
      return R.takeError();
    Out["results"] = resultsToJson(*R);
    break;
  }
  }
  return json::Value(std::move(Out));
}

static json::Value componentToJson(const ref::Buffer &B, const ref::Span &S) {
  json::Object O{{"component", ref::getComponentName(S.Which)},
                 {"offset", int64_t(S.Offset)},
                 {"length", int64_t(S.Length)}};
  switch (S.Which) {
  case ref::Component::CompilerInfo:
    O["max_ast_size"] = int64_t(B.Compiler->MaxAstSize);
    O["max_ast_to_visit_stack_depth"] =
        int64_t(B.Compiler->MaxAstToVisitStackDepth);
    O["stack_size"] = int64_t(B.Compiler->StackSize);
    O["max_frame_depth"] = int64_t(B.Compiler->MaxFrameDepth);
    O["store_size"] = int64_t(B.Compiler->StoreSize);
    break;
  case ref::Component::Extra:
    O["device_capability_major"] = B.ExtraInfo->SmMajor;
    O["device_capability_minor"] = B.ExtraInfo->SmMinor;
    O["execution_limit"] = int64_t(B.ExtraInfo->ExecutionLimit);
    break;
  case ref::Component::Ptx:
    O["text"] = *B.Ptx;
    break;
  case ref::Component::Registers: {
    json::Array A;
    for (const ref::Register &R : *B.Registers)
      A.push_back(json::Object{{"name", R.Name}, {"stack_idx", R.StackIdx}});
    O["registers"] = std::move(A);
    break;
  }
  case ref::Component::Requests: {
    json::Array A;
    for (const std::vector<uint64_t> &L : *B.Requests) {
      json::Array X;
      for (uint64_t I : L)
        X.push_back(int64_t(I));
      A.push_back(std::move(X));
    }
    O["request_lists"] = std::move(A);
    break;
  }
  case ref::Component::Instructions: {
    json::Array A;
    for (const std::vector<uint64_t> &P : *B.Programs)
      A.push_back(wordArray(P));
    O["programs"] = std::move(A);
    break;
  }
  case ref::Component::StackInfo: {
    const ref::StackInfo &S = *B.Stack;
    json::Array Instrs, Specials, Prefixes, Args;
    for (size_t I = 0; I != S.PtxInstrs.size(); ++I) {
      const ref::PtxInstrDescriptor &D = S.Descriptors[I];
      json::Array A, R, U;
      for (uint16_t X : D.ArgTypes)
        A.push_back(X);
      for (uint16_t X : D.RetTypes)
        R.push_back(X);
      for (const auto &P : D.UniqueStacks)
        U.push_back(json::Array{P[0], P[1]});
      Instrs.push_back(json::Object{{"ptx", S.PtxInstrs[I]},
                                    {"arg_types", std::move(A)},
                                    {"ret_types", std::move(R)},
                                    {"num_unique_stacks", D.NumUniqueStacks},
                                    {"is_aligned", bool(D.IsAligned)},
                                    {"unique_stacks", std::move(U)}});
    }
    for (size_t I = 0; I != S.Specials.size(); ++I)
      Specials.push_back(json::Object{{"ptx", S.Specials[I]},
                                      {"arg_type", S.SpecialArgTypes[I]}});
    for (const std::string &P : S.LiteralPrefixes)
      Prefixes.push_back(P);
    for (const auto &A : S.ArgTypes)
      Args.push_back(json::Array{A[0], A[1]});
    O["ptx_instructions"] = std::move(Instrs);
    O["special_registers"] = std::move(Specials);
    O["stack_literal_prefixes"] = std::move(Prefixes);
    O["arg_types"] = std::move(Args);
    break;
  }
  }
  return json::Value(std::move(O));
}

static Expected<ref::Buffer> readReference(StringRef Bytes) {
  ref::Layout L;
  ref::Component C = ref::Component::Ptx;
  if (LayoutName.empty())
    return createStringError(
        inconvertibleErrorCode(),
        "a reference buffer has no header: give its --layout (state, 01, "
        "compiler_info, stack_info, extra, registers, requests, "
        "instructions or ptx)");
  if (!ref::parseLayout(LayoutName, L, C))
    return createStringError(inconvertibleErrorCode(),
                             "unknown --layout '" + LayoutName +
                                 "' (state, 01, compiler_info, stack_info, "
                                 "extra, registers, requests, instructions "
                                 "or ptx)");
  return ref::readBuffer(Bytes, L, C);
}

static Expected<json::Value> dumpReference(StringRef Bytes) {
  Expected<ref::Buffer> B = readReference(Bytes);
  if (!B)
    return B.takeError();
  json::Array Cs;
  for (const ref::Span &S : B->Spans)
    Cs.push_back(componentToJson(*B, S));
  return json::Value(json::Object{{"format", "mm-ptx"},
                                  {"layout", LayoutName.getValue()},
                                  {"size", int64_t(Bytes.size())},
                                  {"components", std::move(Cs)}});
}

static bool isMmptx(StringRef Bytes) { return Bytes.startswith(Magic); }

static int fail(Error E) {
  WithColor::error(errs(), "mmptx-wire")
      << InputFilename << ": " << toString(std::move(E)) << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  hideUnrelatedToolOptions(&WireCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mmptx wire formats: print, check and convert serialised jobs\n\n"
      "  mmptx-wire dump FILE [--format=mmptx|mm-ptx] [--layout=L]\n"
      "  mmptx-wire check FILE\n"
      "  mmptx-wire convert FILE --layout=L -o JOB [--programs-out=P]\n");
  if (!DumpCmd && !CheckCmd && !ConvertCmd) {
    WithColor::error(errs(), "mmptx-wire")
        << "give a command: dump, check or convert (see --help)\n";
    return 1;
  }
  auto Buf = MemoryBuffer::getFileOrSTDIN(InputFilename, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!Buf) {
    WithColor::error(errs(), "mmptx-wire")
        << "cannot read '" << InputFilename << "': " << Buf.getError().message()
        << "\n";
    return 1;
  }
  StringRef Bytes = (*Buf)->getBuffer();

  if (CheckCmd) {
    Expected<MessageInfo> Info = checkMessage(Bytes);
    if (!Info)
      return fail(Info.takeError());
    Error E = Error::success();
    switch (Info->Kind) {
    case MessageKind::Job:
      E = deserializeJob(Bytes).takeError();
      break;
    case MessageKind::Programs:
      E = deserializePrograms(Bytes).takeError();
      break;
    case MessageKind::Results:
      E = deserializeResults(Bytes).takeError();
      break;
    }
    if (E)
      return fail(std::move(E));
    outs() << InputFilename << ": ok: " << getMessageKindName(Info->Kind)
           << " message, format version " << Info->Version << ", "
           << Bytes.size() << " bytes\n";
    return 0;
  }

  if (ConvertCmd) {
    Expected<ref::Buffer> B = readReference(Bytes);
    if (!B)
      return fail(B.takeError());
    Expected<Job> J = ref::toJob(*B);
    if (!J)
      return fail(J.takeError());
    J->SourceName = InputFilename;
    if (Error E = writeToolOutput(OutputFilename, [&](raw_ostream &Os) {
          Os << serialize(*J);
          return Error::success();
        }))
      return fail(std::move(E));
    if (!ProgramsOut.empty())
      if (Error E = writeToolOutput(ProgramsOut, [&](raw_ostream &Os) {
            Os << serialize(ref::toPrograms(*B));
            return Error::success();
          }))
        return fail(std::move(E));
    return 0;
  }

  bool AsMmptx =
      InputFormat == Format::Mmptx ||
      (InputFormat == Format::Auto && LayoutName.empty() && isMmptx(Bytes));
  if (InputFormat == Format::Auto && LayoutName.empty() && !isMmptx(Bytes))
    return fail(createStringError(
        inconvertibleErrorCode(),
        "byte 0: not an mmptx wire message (no MMPTXWIR magic); for a "
        "buffer the reference wrote, give --format=mm-ptx and its --layout"));
  if (AsMmptx && !LayoutName.empty())
    return fail(createStringError(inconvertibleErrorCode(),
                                  "--layout is for reference buffers; an "
                                  "mmptx message says what it holds"));
  Expected<json::Value> V = AsMmptx ? dumpMmptx(Bytes) : dumpReference(Bytes);
  if (!V)
    return fail(V.takeError());
  if (Error E = writeToolOutput(OutputFilename, [&](raw_ostream &Os) {
        Os << formatv("{0:2}", *V) << "\n";
        return Error::success();
      }))
    return fail(std::move(E));
  return 0;
}
