//===- InjectModuleTest.cpp - InjectModule unit tests ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Inject/InjectChecks.h"
#include "mmptx/Parser/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstring>
#include <thread>

using namespace llvm;
using namespace mmptx;

namespace {

/// The marker tests use fragments, not whole modules: they run the marker
/// scanner alone (trusted input); the checks have tests of their own.
InjectOptions scannerOnly(const InjectOptions &Opts) {
  InjectOptions O = Opts;
  O.Trusted = true;
  return O;
}

std::unique_ptr<InjectModule> createOK(StringRef Ptx,
                                       const InjectOptions &Opts = {}) {
  auto M = InjectModule::create(Ptx, "test.ptx", scannerOnly(Opts));
  if (!M) {
    ADD_FAILURE() << toString(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}

std::string createError(StringRef Ptx, InjectErrc *Code = nullptr,
                        const InjectOptions &Opts = {}) {
  auto M = InjectModule::create(Ptx, "test.ptx", scannerOnly(Opts));
  if (M) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  std::string Msg;
  InjectErrc C = takeInjectError(M.takeError(), &Msg);
  if (Code)
    *Code = C;
  return Msg;
}

std::string renderOK(const InjectModule &M, ArrayRef<StringRef> Stubs) {
  std::string Out;
  RenderOptions Unchecked;
  Unchecked.CheckStubs = false;
  if (Error E = M.render(Stubs, Out, Unchecked))
    ADD_FAILURE() << toString(std::move(E));
  auto Size = M.renderedSize(Stubs);
  EXPECT_TRUE(bool(Size));
  if (Size) {
    EXPECT_EQ(*Size, Out.size());
  }
  return Out;
}

std::string readCorpus(StringRef Name) {
  auto Buf =
      MemoryBuffer::getFile(std::string(MMPTX_CORPUS_DIR) + "/" + Name.str());
  if (!Buf)
    return "";
  return (*Buf)->getBuffer().str();
}

const char *const SimpleSite = "A\n\t// PTX_INJECT_START f\n"
                               "\t// _x0 i f32 F32 x\n"
                               "\t// PTX_INJECT_END\nB\n";

TEST(InjectModuleTest, ReferenceWorkedExample) {
  auto M = createOK(SimpleSite);
  ASSERT_TRUE(M);
  ASSERT_EQ(M->getNumInjects(), 1u);
  const Inject &Inj = M->getInject(0);
  EXPECT_EQ(Inj.Name, "f");
  EXPECT_EQ(Inj.NumSites, 1u);
  ASSERT_EQ(Inj.NumVariables, 1u);
  const InjectVariable &V = M->getVariables(Inj)[0];
  EXPECT_EQ(V.Name, "x");
  EXPECT_EQ(V.Kind, InjectArgKind::In);
  EXPECT_EQ(V.RegType, "f32");
  EXPECT_EQ(V.TypeToken, "F32");
  EXPECT_EQ(V.StableRegister, "_x0");
  EXPECT_EQ(renderOK(*M, {"STUB"}), "A\nSTUB\nB\n");
  EXPECT_EQ(M->lookupInject("f"), &Inj);
  EXPECT_EQ(M->lookupInject("g"), nullptr);
  EXPECT_EQ(M->lookupVariable(Inj, "x"), &V);
  EXPECT_EQ(M->lookupVariable(Inj, "y"), nullptr);
}

TEST(InjectModuleTest, ReferenceEdgeCases) {
  auto M = createOK("X// PTX_INJECT_START f\n// PTX_INJECT_END\nY");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getInject(0).NumVariables, 0u);
  EXPECT_EQ(renderOK(*M, {"STUB"}), "XSTUB\nY");

  M = createOK("foo // PTX_INJECT_START f\n// PTX_INJECT_END\n");
  ASSERT_TRUE(M);
  EXPECT_EQ(renderOK(*M, {"STUB"}), "foo STUB\n");

  M = createOK("\t// PTX_INJECT_START my site\n"
               "\t// _x0 m f32 F32 x[ 0 ]\n\t// PTX_INJECT_END\n");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getInject(0).Name, "my site");
  EXPECT_EQ(M->getVariables(M->getInject(0))[0].Name, "x[ 0 ]");

  M = createOK(".version 9.0\n");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getNumInjects(), 0u);
  EXPECT_EQ(renderOK(*M, {}), ".version 9.0\n");
}

TEST(InjectModuleTest, TolerantWhereTheReferenceIsBrittle) {
  // CRLF, a tab after the register, trailing blanks after END, END at EOF.
  auto M = createOK("A\r\n\t// PTX_INJECT_START f \r\n"
                    "\t// _x0\ti  f32\tF32 x \r\n"
                    "\t// PTX_INJECT_END \t\r\nB\r\n");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getInject(0).Name, "f");
  EXPECT_EQ(M->getVariables(M->getInject(0))[0].Name, "x");
  EXPECT_EQ(renderOK(*M, {"S"}), "A\r\nS\r\nB\r\n");

  M = createOK("A\n\t// PTX_INJECT_START f\n\t// PTX_INJECT_END");
  ASSERT_TRUE(M);
  EXPECT_EQ(renderOK(*M, {"S"}), "A\nS");
}

TEST(InjectModuleTest, NativeFormat) {
  const char *Ptx = "\t{\n\t.reg .f32 %_x0;\n\t.reg .b32 %_x1;\n"
                    "\t// MMPTX_INJECT_BEGIN site 2\n"
                    "\t// MMPTX_INJECT_ARG 0 in f32 F32 a\n"
                    "\t// MMPTX_INJECT_ARG 1 out b32 B32 the_b\n"
                    "\t// MMPTX_INJECT_END site\n"
                    "\t}\n";
  auto M = createOK(Ptx);
  ASSERT_TRUE(M);
  const Inject &Inj = M->getInject(0);
  ASSERT_EQ(Inj.NumVariables, 2u);
  EXPECT_EQ(M->getVariables(Inj)[1].Name, "the_b");
  EXPECT_EQ(M->getVariables(Inj)[1].Kind, InjectArgKind::Out);
  EXPECT_EQ(M->getVariables(Inj)[1].StableRegister, "_x1");
  EXPECT_EQ(M->sites()[0].Format, InjectSiteFormat::Native);
  EXPECT_EQ(renderOK(*M, {"\tS;"}),
            "\t{\n\t.reg .f32 %_x0;\n\t.reg .b32 %_x1;\n\tS;\n\t}\n");

  InjectErrc Code;
  EXPECT_EQ(createError("// MMPTX_INJECT_BEGIN f 2\n"
                        "// MMPTX_INJECT_ARG 0 in f32 F32 a\n"
                        "// MMPTX_INJECT_END f\n",
                        &Code),
            "test.ptx:1:25: error: inject site 'f' declares 2 arguments but "
            "has 1 'MMPTX_INJECT_ARG' line\n"
            "// MMPTX_INJECT_BEGIN f 2\n"
            "                        ^");
  EXPECT_EQ(Code, InjectErrc::Formatting);
  // One token names a variable in mmptx's own markers.
  EXPECT_EQ(createError("// MMPTX_INJECT_BEGIN f 1\n"
                        "// MMPTX_INJECT_ARG 0 in f32 F32 the b\n"
                        "// MMPTX_INJECT_END f\n",
                        &Code),
            "test.ptx:2:38: error: unexpected text after variable name "
            "'the' in inject argument marker: mmptx markers name a variable "
            "with one token (with the device header, write the operand "
            "without blanks or label it: PTX_IN(TYPE, label, expr))\n"
            "// MMPTX_INJECT_ARG 0 in f32 F32 the b\n"
            "                                     ^");
  EXPECT_EQ(Code, InjectErrc::Formatting);
  EXPECT_NE(createError("// MMPTX_INJECT_BEGIN f 0\n"
                        "// MMPTX_INJECT_END g\n")
                .find("'MMPTX_INJECT_END' names 'g' but the site is 'f'"),
            std::string::npos);
  EXPECT_NE(createError("// MMPTX_INJECT_BEGIN f 1\n"
                        "// MMPTX_INJECT_ARG 1 in f32 F32 a\n"
                        "// MMPTX_INJECT_END f\n")
                .find("argument index '1' out of order: expected 0"),
            std::string::npos);
}

TEST(InjectModuleTest, LegacyFormatIsNormalisedAtRender) {
  const char *Ptx = "\t// begin inline asm\n"
                    "\t// PTX_INJECT_START func\n"
                    "\t// %f1 mod f32 y\n"
                    "\t// %f9 out f32 z\n"
                    "\t// %f3 in f32 x\n"
                    "\t// PTX_INJECT_END\n"
                    "\t// end inline asm\n";
  auto M = createOK(Ptx);
  ASSERT_TRUE(M);
  const Inject &Inj = M->getInject(0);
  ASSERT_EQ(Inj.NumVariables, 3u);
  EXPECT_EQ(M->getVariables(Inj)[0].TypeToken, "F32");
  EXPECT_EQ(M->getVariables(Inj)[0].RegType, "f32");
  EXPECT_EQ(M->getVariables(Inj)[2].StableRegister, "_x2");
  EXPECT_EQ(M->sites()[0].Format, InjectSiteFormat::Legacy);
  ArrayRef<StringRef> Regs = M->getSiteRegisters(M->sites()[0]);
  ASSERT_EQ(Regs.size(), 3u);
  EXPECT_EQ(Regs[1], "%f9");
  EXPECT_EQ(renderOK(*M, {"\tSTUB;"}), "\t// begin inline asm\n"
                                       "\t{\n"
                                       "\t.reg .f32 %_x0;\n"
                                       "\t.reg .f32 %_x1;\n"
                                       "\t.reg .f32 %_x2;\n"
                                       "\tmov.f32 %_x0, %f1;\n"
                                       "\tmov.f32 %_x2, %f3;\n"
                                       "\tSTUB;\n"
                                       "\tmov.f32 %f1, %_x0;\n"
                                       "\tmov.f32 %f9, %_x1;\n"
                                       "\t}\n"
                                       "\t// end inline asm\n");
}

TEST(InjectModuleTest, MalformedMarkers) {
  InjectErrc Code;
  EXPECT_EQ(createError("A\n// PTX_INJECT_END\n", &Code),
            "test.ptx:2:4: error: 'PTX_INJECT_END' without a matching "
            "'PTX_INJECT_START'\n// PTX_INJECT_END\n   ^");
  EXPECT_EQ(Code, InjectErrc::Formatting);
  EXPECT_NE(
      createError("// PTX_INJECT_START f\n// _x0 in f32 F32 x\n"
                  "// PTX_INJECT_END\n")
          .find("test.ptx:2:8: error: invalid argument kind 'in': expected "
                "'m', 'o' or 'i'"),
      std::string::npos);
  EXPECT_NE(createError("// PTX_INJECT_START f\n// _x0 q f32 F32 x\n"
                        "// PTX_INJECT_END\n")
                .find("2:8: error: invalid argument kind 'q'"),
            std::string::npos);
  EXPECT_NE(createError("// PTX_INJECT_START\n// PTX_INJECT_END\n")
                .find("1:20: error: expected an inject name"),
            std::string::npos);
  EXPECT_NE(createError("// PTX_INJECT_START f\n// _x0 i f32 F32\n"
                        "// PTX_INJECT_END\n")
                .find("2:17: error: missing variable name"),
            std::string::npos);
  EXPECT_NE(createError("// PTX_INJECT_START f\n// _x0 i f32 F32 x\n")
                .find("1:4: error: inject site 'f' has no '// PTX_INJECT_END'"),
            std::string::npos);
  std::string Msg = createError("// PTX_INJECT_START f\n\tmov.f32 %f1, %f2;\n");
  EXPECT_NE(Msg.find("2:2: error: expected an argument marker or "
                     "'// PTX_INJECT_END': inject site 'f' is not closed"),
            std::string::npos);
  EXPECT_NE(Msg.find("1:4: note: inject site 'f' starts here"),
            std::string::npos);
  EXPECT_NE(createError("// PTX_INJECT_START f\n// _x0 i f32 F16 x\n"
                        "// PTX_INJECT_END\n")
                .find("2:10: error: register type 'f32' does not match inject "
                      "type 'F16' (b16)"),
            std::string::npos);
}

TEST(InjectModuleTest, UnknownAndExtraTypes) {
  const char *Ptx = "// PTX_INJECT_START f\n// _x0 i f32 DOG x\n"
                    "// PTX_INJECT_END\n";
  InjectErrc Code;
  EXPECT_EQ(createError(Ptx, &Code),
            "test.ptx:2:14: error: unknown inject type 'DOG'\n"
            "// _x0 i f32 DOG x\n"
            "             ^");
  EXPECT_EQ(Code, InjectErrc::UnknownType);

  InjectType Dog;
  Dog.TheToken = "DOG";
  Dog.RegType = "f32";
  Dog.MovSuffix = "f32";
  InjectOptions Opts;
  Opts.ExtraTypes = makeArrayRef(Dog);
  auto M = createOK(Ptx, Opts);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getVariables(M->getInject(0))[0].TypeToken, "DOG");

  InjectOptions AnyTypes;
  AnyTypes.AllowUnknownTypes = true;
  M = createOK(Ptx, AnyTypes);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getVariables(M->getInject(0))[0].RegType, "f32");
}

/// A site of inject `f` with the given argument lines.
std::string site(StringRef Args) {
  return ("\t// PTX_INJECT_START f\n" + Args + "\t// PTX_INJECT_END\n").str();
}

TEST(InjectModuleTest, InconsistentDuplicates) {
  std::string First = site("\t// _x0 m f32 F32 acc\n\t// _x1 i f32 F32 v\n");
  struct Case {
    const char *Args;
    const char *Message;
  } Cases[] = {
      {"\t// _x0 m f32 F32 acc\n",
       "8:5: error: inject site 'f' has 1 argument, but the first site of "
       "'f' has 2"},
      {"\t// _x0 m f32 F32 acc\n\t// _x1 i f32 F32 v\n\t// _x2 i f32 F32 w\n",
       "has 3 arguments, but the first site of 'f' has 2"},
      {"\t// _x0 m f32 F32 acc\n\t// _x1 i f32 F32 w\n",
       "10:2: error: inconsistent inject site 'f': argument 1 is variable 'w' "
       "here, but 'v' at the first site"},
      {"\t// _x0 o f32 F32 acc\n\t// _x1 i f32 F32 v\n",
       "9:2: error: inconsistent inject site 'f': variable 'acc' (argument 0) "
       "has kind 'out' here, but 'mod' at the first site"},
      {"\t// _x0 m f32 F32 acc\n\t// _x1 i u32 U32 v\n",
       "variable 'v' (argument 1) has type 'U32' here, but 'F32' at the first "
       "site"},
      {"\t// _x0 m f32 F32 acc\n\t// _x9 i f32 F32 v\n",
       "variable 'v' (argument 1) has stable register '_x9' here, but '_x1' at "
       "the first site"},
  };
  for (const Case &C : Cases) {
    std::string Ptx = First + "\tmov.f32 %f1, %f2;\n\n" + site(C.Args);
    std::string PtxWithPrefix = "A\n" + Ptx;
    InjectErrc Code;
    std::string Msg = createError(PtxWithPrefix, &Code);
    EXPECT_NE(Msg.find(C.Message), std::string::npos) << Msg;
    EXPECT_NE(Msg.find("test.ptx:2:5: note: first site of inject 'f' is here"),
              std::string::npos)
        << Msg;
    EXPECT_EQ(Code, InjectErrc::InconsistentInjection);
  }
  // A register type differing alone: a user type aliasing F32's token with
  // another register type cannot exist, so allow unknown types.
  InjectOptions AnyTypes;
  AnyTypes.AllowUnknownTypes = true;
  std::string Ptx =
      site("\t// _x0 m f32 T acc\n") + site("\t// _x0 m b32 T acc\n");
  std::string Msg = createError(Ptx, nullptr, AnyTypes);
  EXPECT_NE(Msg.find("has register type 'b32' here, but 'f32' at the first"),
            std::string::npos)
      << Msg;
}

TEST(InjectModuleTest, RenderErrors) {
  auto M = createOK(SimpleSite);
  ASSERT_TRUE(M);
  std::string Out;
  // Not PTX: these stubs test the count, size and name checks alone.
  RenderOptions Unchecked;
  Unchecked.CheckStubs = false;
  Error E = M->render(ArrayRef<StringRef>{"a", "b"}, Out, Unchecked);
  std::string Msg;
  EXPECT_EQ(takeInjectError(std::move(E), &Msg), InjectErrc::WrongNumStubs);
  EXPECT_EQ(Msg, "expected 1 stub (one per inject), got 2");

  char Buf[4];
  auto N = M->render(ArrayRef<StringRef>{"S"}, Buf, sizeof(Buf), Unchecked);
  EXPECT_EQ(takeInjectError(N.takeError(), &Msg),
            InjectErrc::InsufficientBuffer);
  char Big[16];
  N = M->render(ArrayRef<StringRef>{"S"}, Big, sizeof(Big), Unchecked);
  ASSERT_TRUE(bool(N));
  EXPECT_EQ(StringRef(Big, *N), "A\nS\nB\n");

  StringMap<StringRef> ByName;
  E = M->render(ByName, Out, Unchecked);
  EXPECT_EQ(takeInjectError(std::move(E), &Msg), InjectErrc::MissingStub);
  EXPECT_EQ(Msg, "no stub for inject 'f'");
  ByName["f"] = "S";
  ByName["g"] = "T";
  E = M->render(ByName, Out, Unchecked);
  EXPECT_EQ(takeInjectError(std::move(E), &Msg), InjectErrc::InjectNotFound);
  EXPECT_EQ(Msg, "stub given for unknown inject 'g'");

  // An error without a location is a StringError whose code has the inject
  // category; any other error is Internal.
  E = M->render(ArrayRef<StringRef>{}, Out, Unchecked);
  std::error_code Ec;
  handleAllErrors(std::move(E),
                  [&](const StringError &S) { Ec = S.convertToErrorCode(); });
  EXPECT_EQ(Ec, make_error_code(InjectErrc::WrongNumStubs));
  EXPECT_EQ(&Ec.category(), &getInjectErrorCategory());
  EXPECT_EQ(
      takeInjectError(createStringError(inconvertibleErrorCode(), "x"), &Msg),
      InjectErrc::Internal);
  EXPECT_EQ(Msg, "x");
  ByName.erase("g");
  EXPECT_FALSE(bool(M->render(ByName, Out, Unchecked)));
  EXPECT_EQ(Out, "A\nS\nB\n");
}

TEST(InjectModuleTest, ModulePathMatchesTextPath) {
  for (StringRef File :
       {"ptx_inject_simple_kernel.ptx", "anchor_gemm_kernel.ptx"}) {
    std::string Text = readCorpus(File);
    ASSERT_FALSE(Text.empty());
    auto Fast = createOK(Text);
    auto Pm = parsePTXString(Text, File, /*Verify=*/false);
    ASSERT_TRUE(bool(Pm)) << toString(Pm.takeError());
    auto ViaModule = InjectModule::create(**Pm);
    ASSERT_TRUE(bool(ViaModule)) << toString(ViaModule.takeError());
    ASSERT_EQ(Fast->getNumInjects(), (*ViaModule)->getNumInjects());
    ASSERT_EQ(Fast->sites().size(), (*ViaModule)->sites().size());
    std::vector<StringRef> Stubs(Fast->getNumInjects(), "\t// stub");
    EXPECT_EQ(renderOK(*Fast, Stubs), renderOK(**ViaModule, Stubs));
  }
}

TEST(InjectModuleTest, CorpusCounts) {
  auto M = createOK(readCorpus("anchor_gemm_kernel.ptx"));
  ASSERT_TRUE(M);
  EXPECT_EQ(M->sites().size(), 288u);
  ASSERT_TRUE(M->lookupInject("mma"));
  EXPECT_EQ(M->lookupInject("mma")->NumSites, 256u);
  // Rendering empty stubs removes exactly the marker blocks.
  std::vector<StringRef> Stubs(M->getNumInjects(), "");
  std::string Out = renderOK(*M, Stubs);
  EXPECT_EQ(StringRef(Out).count("PTX_INJECT"), 0u);
}

TEST(InjectModuleTest, ManySitesAndNames) {
  std::string Ptx;
  const unsigned NumSites = 100000, NumNames = 10000;
  for (unsigned I = 0; I < NumSites; ++I)
    Ptx += "\t// PTX_INJECT_START s" + std::to_string(I % NumNames) +
           "\n\t// _x0 m f32 F32 a\n\t// PTX_INJECT_END\n";
  auto M = createOK(Ptx);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getNumInjects(), NumNames);
  EXPECT_EQ(M->sites().size(), NumSites);
  EXPECT_EQ(M->lookupInject("s9999")->NumSites, NumSites / NumNames);
  std::vector<StringRef> Stubs(NumNames, "x");
  EXPECT_EQ(renderOK(*M, Stubs).size(), NumSites * 2);
}

// The text scanner agrees with the parser on what a comment is: markers
// inside /* */ are not sites; '/*' in a string or a '//' comment opens none.
TEST(InjectModuleTest, MarkersInBlockCommentsAreNotSites) {
  auto M = createOK("/* old:\n\t// PTX_INJECT_START dead\n"
                    "\t// PTX_INJECT_END\n*/\n"
                    ".file 1 \"a/*b\"\n// see /* here\n"
                    "\t// PTX_INJECT_START live\n\t// PTX_INJECT_END\n"
                    "/* \t// PTX_INJECT_START dead2\n");
  ASSERT_TRUE(M);
  ASSERT_EQ(M->getNumInjects(), 1u);
  EXPECT_EQ(M->getInject(0).Name, "live");
  // A string with an escaped quote still ends at its closing quote.
  M = createOK(".file 1 \"x\\\"/*\"\n// PTX_INJECT_START s\n// PTX_INJECT_END");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getNumInjects(), 1u);
  // The lit test's file, through the text path (mmptx-opt takes the
  // parsed-module path).
  auto Buf = MemoryBuffer::getFile(std::string(MMPTX_SOURCE_DIR) +
                                   "/test/Inject/block-comments.ptx");
  ASSERT_TRUE(bool(Buf));
  M = createOK((*Buf)->getBuffer());
  ASSERT_TRUE(M);
  ASSERT_EQ(M->getNumInjects(), 1u);
  EXPECT_EQ(M->getInject(0).Name, "live");
}

TEST(InjectModuleTest, DuplicateVariablesInOneSite) {
  EXPECT_EQ(createError("// PTX_INJECT_START f\n// _x0 i f32 F32 x\n"
                        "// _x1 i f32 F32 x\n// PTX_INJECT_END\n"),
            "test.ptx:3:1: error: inject site 'f' declares variable 'x' twice\n"
            "// _x1 i f32 F32 x\n^\n"
            "test.ptx:2:1: note: first declared here\n// _x0 i f32 F32 x\n^");
  EXPECT_EQ(createError("// PTX_INJECT_START f\n// _x0 i f32 F32 x\n"
                        "// _x0 i f32 F32 y\n// PTX_INJECT_END\n"),
            "test.ptx:3:4: error: inject site 'f' gives stable register '_x0' "
            "to two variables\n// _x0 i f32 F32 y\n   ^\n"
            "test.ptx:2:1: note: first given here\n// _x0 i f32 F32 x\n^");
}

TEST(InjectModuleTest, DuplicateVariablesInAWideSite) {
  // Past 16 arguments the duplicates are found through maps: the same
  // errors, at the second occurrence, with a note at the first.
  for (bool Register : {false, true}) {
    std::string Ptx = "// PTX_INJECT_START f\n";
    for (unsigned I = 0; I != 20; ++I) {
      unsigned Reg = Register && I == 17 ? 2 : I;
      unsigned Var = !Register && I == 17 ? 2 : I;
      Ptx += "// _x" + std::to_string(Reg) + " i f32 F32 v" +
             std::to_string(Var) + "\n";
    }
    Ptx += "// PTX_INJECT_END\n";
    std::string Error = createError(Ptx);
    SCOPED_TRACE(Error);
    if (Register) {
      EXPECT_EQ(Error.rfind("test.ptx:19:4: error: inject site 'f' gives "
                            "stable register '_x2' to two variables\n",
                            0),
                0u);
      EXPECT_NE(Error.find("test.ptx:4:1: note: first given here"),
                std::string::npos);
    } else {
      EXPECT_EQ(Error.rfind("test.ptx:19:1: error: inject site 'f' declares "
                            "variable 'v2' twice\n",
                            0),
                0u);
      EXPECT_NE(Error.find("test.ptx:4:1: note: first declared here"),
                std::string::npos);
    }
  }
}

TEST(InjectModuleTest, ConcurrentRenderFromOneHandle) {
  auto Mod = createOK(readCorpus("anchor_gemm_kernel.ptx"));
  ASSERT_TRUE(Mod);
  std::vector<std::string> StubText;
  for (size_t I = 0; I != Mod->getNumInjects(); ++I)
    StubText.push_back("\t// stub " + std::to_string(I));
  std::vector<StringRef> Stubs(StubText.begin(), StubText.end());
  std::string Want = renderOK(*Mod, Stubs);
  std::vector<std::thread> Threads;
  std::vector<int> Mismatches(8, 0);
  for (unsigned T = 0; T != 8; ++T)
    Threads.emplace_back([&, T] {
      std::string Out;
      for (unsigned I = 0; I != 50; ++I) {
        if (Error E = Mod->render(Stubs, Out)) {
          consumeError(std::move(E));
          ++Mismatches[T];
        } else if (Out != Want) {
          ++Mismatches[T];
        }
      }
    });
  for (std::thread &T : Threads)
    T.join();
  for (int N : Mismatches)
    EXPECT_EQ(N, 0);
}

TEST(InjectModuleTest, MutatedInputsNeverCrash) {
  // Byte mutations and truncations of marker-dense text: create either
  // fails cleanly or gives a handle that renders to its announced size.
  const std::string Seed =
      "\t// PTX_INJECT_START f\r\n\t// _x0 m f32 F32 a\n"
      "\t// %f1 in f32 b\n\t// PTX_INJECT_END\n"
      "// MMPTX_INJECT_BEGIN g 2\n// MMPTX_INJECT_ARG 0 in f32 F32 x\n"
      "// MMPTX_INJECT_ARG 1 out b32 B32 y\n// MMPTX_INJECT_END g\n"
      "\t// PTX_INJECT_START f\n\t// _x0 m f32 F32 a\n\t// PTX_INJECT_END";
  const char Alphabet[] = "/ \t\n\r%_xJPTINECSARGBDMmoi0123F";
  uint32_t State = 12345;
  auto Next = [&] {
    State = State * 1103515245u + 12345u;
    return State >> 8;
  };
  for (unsigned Iter = 0; Iter != 20000; ++Iter) {
    std::string Text = Seed;
    unsigned Edits = 1 + Next() % 4;
    for (unsigned E = 0; E != Edits && !Text.empty(); ++E) {
      size_t Pos = Next() % Text.size();
      switch (Next() % 3) {
      case 0:
        Text[Pos] = Alphabet[Next() % (sizeof(Alphabet) - 1)];
        break;
      case 1:
        Text.erase(Pos, 1 + Next() % 8);
        break;
      case 2:
        Text.resize(Pos);
        break;
      }
    }
    // Copy into an exactly-sized heap buffer so that sanitizers see any
    // read past the end.
    std::unique_ptr<char[]> Exact(new char[Text.size()]);
    memcpy(Exact.get(), Text.data(), Text.size());
    auto M = InjectModule::create(StringRef(Exact.get(), Text.size()));
    if (!M) {
      consumeError(M.takeError());
      continue;
    }
    std::vector<StringRef> Stubs((*M)->getNumInjects(), "\t// S");
    std::string Out;
    ASSERT_FALSE(bool((*M)->render(Stubs, Out)));
    ASSERT_EQ(Out.size(), cantFail((*M)->renderedSize(Stubs)));
  }
}

} // namespace

namespace {

const char *const CheckedModule = ".version 9.0\n"
                                  ".entry k()\n"
                                  "{\n"
                                  "\t.reg .b32 %r<2>;\n"
                                  "\t// PTX_INJECT_START f\n"
                                  "\t// %r1 mod WORD w\n"
                                  "\t// PTX_INJECT_END\n"
                                  "\tret;\n"
                                  "}\n";

TEST(InjectChecksTest, UserTypeMovSuffixInTheScaffold) {
  InjectType Word;
  Word.TheToken = "WORD";
  Word.RegType = "b32";
  Word.MovSuffix = "u32";
  InjectOptions Opts;
  Opts.ExtraTypes = makeArrayRef(Word);
  auto M = InjectModule::create(CheckedModule, "k.ptx", Opts);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_EQ((*M)->getVariables((*M)->getInject(0))[0].MovSuffix, "u32");
  std::string Out;
  ASSERT_FALSE(bool((*M)->render({"\tadd.u32 %_x0, %_x0, 1;"}, Out)));
  EXPECT_NE(Out.find("\tmov.u32 %_x0, %r1;\n\tadd.u32 %_x0, %_x0, 1;\n"
                     "\tmov.u32 %r1, %_x0;\n"),
            std::string::npos)
      << Out;
}

TEST(InjectChecksTest, StubsAreCheckedAndWarningsGoToTheHandler) {
  InjectType Word{"WORD", "b32", "u32", 'r', 32};
  InjectOptions Opts;
  Opts.ExtraTypes = makeArrayRef(Word);
  auto M = InjectModule::create(CheckedModule, "k.ptx", Opts);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  std::string Out, Msg;
  RenderOptions Ro;
  std::vector<std::string> Names = {"my.stub"};
  Ro.StubNames = Names;
  Error E = (*M)->render({"\t}\n\t{"}, Out, Ro);
  EXPECT_EQ(takeInjectError(std::move(E), &Msg), InjectErrc::InvalidStub);
  EXPECT_EQ(StringRef(Msg).take_until([](char c) { return c == '\n'; }),
            "my.stub:1:2: error: unmatched '}'");
  // The unchecked path splices it as it is.
  Ro.CheckStubs = false;
  EXPECT_FALSE(bool((*M)->render({"\t}\n\t{"}, Out, Ro)));

  // An in variable written by the stub: a warning, through the handler.
  const char *const InSite = ".version 9.0\n.entry k()\n{\n"
                             "\t.reg .f32 %f<2>;\n"
                             "\t// PTX_INJECT_START g\n"
                             "\t// %f1 in f32 x\n"
                             "\t// PTX_INJECT_END\n\tret;\n}\n";
  auto G = InjectModule::create(InSite, "g.ptx");
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  std::vector<std::string> Warnings;
  RenderOptions Wo;
  Wo.OnWarning = [&](const SMDiagnostic &D) {
    Warnings.push_back(D.getMessage().str());
  };
  EXPECT_FALSE(bool((*G)->render({"\tmov.f32 %_x0, 0f00000000;"}, Out, Wo)));
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0], "the stub writes '%_x0', the register of in variable "
                         "'x' of inject 'g'; the value does not leave the "
                         "site");
}

TEST(InjectChecksTest, MovCompatibility) {
  EXPECT_TRUE(isMovCompatible("b32", "u32"));
  EXPECT_TRUE(isMovCompatible("u32", "s32"));
  EXPECT_TRUE(isMovCompatible("f32", "b32"));
  EXPECT_FALSE(isMovCompatible("f32", "u32"));
  EXPECT_FALSE(isMovCompatible("b64", "f32"));
  EXPECT_TRUE(isMovCompatible("b32", "f16x2"));
}

} // namespace

TEST(InjectModuleTest, HandleKeepsOnlyTheTemplate) {
  std::string Text = readCorpus("anchor_gemm_kernel.ptx");
  ASSERT_FALSE(Text.empty());
  for (bool Trusted : {false, true}) {
    std::string Input = Text; // destroyed below: the handle must not need it
    InjectOptions Opts;
    Opts.Trusted = Trusted;
    auto M = InjectModule::create(Input, "gemm.ptx", Opts);
    ASSERT_TRUE(bool(M)) << toString(M.takeError());
    // The template is the input less the marker blocks.
    std::string Want;
    uint32_t From = 0;
    for (const InjectSite &Site : (*M)->sites()) {
      Want += StringRef(Text).slice(From, Site.RemoveBegin).str();
      EXPECT_EQ(Site.Slot, Want.size());
      EXPECT_EQ(
          Site.MarkerLines,
          StringRef(Text).slice(Site.RemoveBegin, Site.RemoveEnd).count('\n'));
      From = Site.RemoveEnd;
    }
    Want += StringRef(Text).drop_front(From).str();
    EXPECT_EQ((*M)->getTemplate(), Want);
    // Under 1x its input: the template and small records.
    size_t Bytes = (*M)->getMemoryUsage();
    EXPECT_GE(Bytes, Want.size());
    EXPECT_LE(Bytes, Text.size());

    std::fill(Input.begin(), Input.end(), '?');
    Input = std::string();
    const Inject *Mma = (*M)->lookupInject("mma");
    ASSERT_TRUE(Mma);
    EXPECT_EQ(Mma->Name, "mma");
    ArrayRef<InjectVariable> Vars = (*M)->getVariables(*Mma);
    ASSERT_EQ(Vars.size(), 3u);
    EXPECT_EQ(Vars[0].Name, "v_c");
    EXPECT_EQ(Vars[0].StableRegister, "_x0");
    EXPECT_EQ(Vars[2].TypeToken, "F32");
    std::vector<StringRef> Stubs((*M)->getNumInjects(), "");
    EXPECT_EQ(renderOK(**M, Stubs), Want);
  }
}

TEST(InjectModuleTest, LegacyScaffoldsOutsideTheTemplate) {
  const char *const Ptx = ".version 9.0\n.entry k()\n{\n"
                          "\t.reg .f32 %f<3>;\n"
                          "\t// PTX_INJECT_START f\n"
                          "\t// %f1 mod f32 x\n"
                          "\t// PTX_INJECT_END\n"
                          "\t// PTX_INJECT_START f\n"
                          "\t// %f2 mod f32 x\n"
                          "\t// PTX_INJECT_END\n\tret;\n}\n";
  auto M = InjectModule::create(Ptx, "k.ptx");
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_EQ((*M)->getTemplate(),
            ".version 9.0\n.entry k()\n{\n\t.reg .f32 %f<3>;\n\n\n\tret;\n}\n");
  ArrayRef<InjectSite> Sites = (*M)->sites();
  ASSERT_EQ(Sites.size(), 2u);
  EXPECT_EQ((*M)->getSiteRegisters(Sites[1])[0], "%f2");
  EXPECT_EQ((*M)->getSiteRegisterOffsets(Sites[1])[0],
            StringRef(Ptx).find("%f2 mod"));
  std::string Out = renderOK(**M, {"\tS;"});
  EXPECT_NE(Out.find("\tmov.f32 %_x0, %f1;\n\tS;\n\tmov.f32 %f1, %_x0;\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("\tmov.f32 %_x0, %f2;\n\tS;\n\tmov.f32 %f2, %_x0;\n"),
            std::string::npos)
      << Out;
}

/// verifySites() recognises the exact nvcc scaffold by its bytes; every
/// other scaffold gets the full checks. Both must give the verdict of the
/// full checks (verifyNormalizedSite()) for every variation of the scaffold.
TEST(InjectChecksTest, PlainScaffoldShortcutKeepsVerdicts) {
  const std::vector<std::string> Lines = {
      "\t.reg .f32 %_x0;",       "\t.reg .f32 %_x1;",
      "\tmov.f32 %_x0, %f1;",    "\tmov.f32 %_x1, %f2;",
      "\t// PTX_INJECT_START f", "\t// _x0 m f32 F32 a",
      "\t// _x1 i f32 F32 b",    "\t// PTX_INJECT_END",
      "\tmov.f32 %f1, %_x0;"};
  const std::vector<std::pair<std::string, std::string>> Edits = {
      {"", ""},
      {".f32 %_x0;", ".b32 %_x0;"},
      {".f32 %_x1;", ".f32 %_x1, %_x2;"},
      {"%_x1;", "%_x<2>;"},
      {"mov.f32 %_x0, %f1;", "mov.f32 %_x0, %f1, %f3;"},
      {"mov.f32 %_x0, %f1;", "mov.f32 %_x0, [%f1];"},
      {"mov.f32 %_x0, %f1;", "mov.b32 %_x0, %f1;"},
      {"mov.f32 %_x0, %f1;", "mov.f32 %_x00, %f1;"},
      {"mov.f32 %_x0, %f1;", "@%p mov.f32 %_x0, %f1;"},
      {"mov.f32 %_x1, %f2;", "add.f32 %_x1, %f2, %f2;"},
      {"mov.f32 %f1, %_x0;", "mov.f32 %f1, %_x1;"},
      {"mov.f32 %f1, %_x0;", "mov.f32 %f1, %_x0, %f2;"},
      {"mov.f32 %f1, %_x0;", "mov.f32 {%f1}, %_x0;"},
      {"mov.f32 %f1, %_x0;", "mov.f32 , %_x0;"},
      {"mov.f32 %f1, %_x0;", "mov.f32 %f1,%_x0;"},
      {"\t.reg .f32 %_x0;", "\t.reg .f32 %_x0;\n\tnop;"},
      {"\tmov.f32 %_x0, %f1;", "\tmov.f32 %_x0, %f1;\n\tnop;"},
      {"\tmov.f32 %_x0, %f1;", ""},
      {"\t.reg .f32 %_x1;", ""},
  };
  unsigned Passed = 0, Failed = 0;
  for (const auto &Edit : Edits) {
    std::string Body;
    for (const std::string &L : Lines)
      Body += L + "\n";
    if (!Edit.first.empty()) {
      size_t At = Body.find(Edit.first);
      ASSERT_NE(At, std::string::npos) << Edit.first;
      Body.replace(At, Edit.first.size(), Edit.second);
    }
    std::string Ptx = ".version 9.0\n.target sm_80\n.entry k()\n{\n"
                      "\t.reg .pred %p;\n\t.reg .f32 %f<4>;\n\t{\n" +
                      Body + "\t}\n\tret;\n}\n";
    SCOPED_TRACE(Ptx);
    auto Pm = parsePTXString(Ptx, "k.ptx", /*Verify=*/false);
    ASSERT_TRUE(bool(Pm)) << toString(Pm.takeError());
    InjectOptions Trusted;
    Trusted.Trusted = true;
    auto Im = InjectModule::create(**Pm, Trusted);
    ASSERT_TRUE(bool(Im)) << toString(Im.takeError());
    ASSERT_EQ((*Im)->sites().size(), 1u);
    std::string Full, Fast;
    takeInjectError(verifyNormalizedSite(**Pm, **Im, (*Im)->sites()[0]), &Full);
    takeInjectError(verifySites(**Pm, **Im), &Fast);
    EXPECT_EQ(Fast, Full);
    // And create agrees, from text and from the module; from text it also
    // checks every operand first, as mmptx-opt does.
    std::string ViaText, Operands;
    takeInjectError(verifyModule(**Pm), &Operands);
    auto M = InjectModule::create(Ptx, "k.ptx");
    if (!M)
      takeInjectError(M.takeError(), &ViaText);
    EXPECT_EQ(ViaText, Operands.empty() ? Full : Operands);
    ++(Full.empty() ? Passed : Failed);
  }
  // Both verdicts occur: the unedited scaffold and harmless variations
  // pass, wrong ones fail.
  EXPECT_GE(Passed, 5u);
  EXPECT_GE(Failed, 5u);
}
