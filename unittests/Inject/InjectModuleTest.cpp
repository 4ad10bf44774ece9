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
InjectOptions scannerOnly(const InjectOptions &opts) {
  InjectOptions o = opts;
  o.trusted = true;
  return o;
}

std::unique_ptr<InjectModule> createOK(StringRef ptx,
                                       const InjectOptions &opts = {}) {
  auto m = InjectModule::create(ptx, "test.ptx", scannerOnly(opts));
  if (!m) {
    ADD_FAILURE() << toString(m.takeError());
    return nullptr;
  }
  return std::move(*m);
}

std::string createError(StringRef ptx, InjectErrc *code = nullptr,
                        const InjectOptions &opts = {}) {
  auto m = InjectModule::create(ptx, "test.ptx", scannerOnly(opts));
  if (m) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  std::string msg;
  InjectErrc c = takeInjectError(m.takeError(), &msg);
  if (code)
    *code = c;
  return msg;
}

std::string renderOK(const InjectModule &m, ArrayRef<StringRef> stubs) {
  std::string out;
  RenderOptions unchecked;
  unchecked.checkStubs = false;
  if (Error e = m.render(stubs, out, unchecked))
    ADD_FAILURE() << toString(std::move(e));
  auto size = m.renderedSize(stubs);
  EXPECT_TRUE(bool(size));
  if (size) {
    EXPECT_EQ(*size, out.size());
  }
  return out;
}

std::string readCorpus(StringRef name) {
  auto buf =
      MemoryBuffer::getFile(std::string(MMPTX_CORPUS_DIR) + "/" + name.str());
  if (!buf)
    return "";
  return (*buf)->getBuffer().str();
}

const char *const SimpleSite = "A\n\t// PTX_INJECT_START f\n"
                               "\t// _x0 i f32 F32 x\n"
                               "\t// PTX_INJECT_END\nB\n";

TEST(InjectModuleTest, ReferenceWorkedExample) {
  auto m = createOK(SimpleSite);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->getNumInjects(), 1u);
  const Inject &inj = m->getInject(0);
  EXPECT_EQ(inj.name, "f");
  EXPECT_EQ(inj.numSites, 1u);
  ASSERT_EQ(inj.numVariables, 1u);
  const InjectVariable &v = m->getVariables(inj)[0];
  EXPECT_EQ(v.name, "x");
  EXPECT_EQ(v.kind, InjectArgKind::In);
  EXPECT_EQ(v.regType, "f32");
  EXPECT_EQ(v.typeToken, "F32");
  EXPECT_EQ(v.stableRegister, "_x0");
  EXPECT_EQ(renderOK(*m, {"STUB"}), "A\nSTUB\nB\n");
  EXPECT_EQ(m->lookupInject("f"), &inj);
  EXPECT_EQ(m->lookupInject("g"), nullptr);
  EXPECT_EQ(m->lookupVariable(inj, "x"), &v);
  EXPECT_EQ(m->lookupVariable(inj, "y"), nullptr);
}

TEST(InjectModuleTest, ReferenceEdgeCases) {
  auto m = createOK("X// PTX_INJECT_START f\n// PTX_INJECT_END\nY");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->getInject(0).numVariables, 0u);
  EXPECT_EQ(renderOK(*m, {"STUB"}), "XSTUB\nY");

  m = createOK("foo // PTX_INJECT_START f\n// PTX_INJECT_END\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(renderOK(*m, {"STUB"}), "foo STUB\n");

  m = createOK("\t// PTX_INJECT_START my site\n"
               "\t// _x0 m f32 F32 x[ 0 ]\n\t// PTX_INJECT_END\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->getInject(0).name, "my site");
  EXPECT_EQ(m->getVariables(m->getInject(0))[0].name, "x[ 0 ]");

  m = createOK(".version 9.0\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->getNumInjects(), 0u);
  EXPECT_EQ(renderOK(*m, {}), ".version 9.0\n");
}

TEST(InjectModuleTest, TolerantWhereTheReferenceIsBrittle) {
  // CRLF, a tab after the register, trailing blanks after END, END at EOF.
  auto m = createOK("A\r\n\t// PTX_INJECT_START f \r\n"
                    "\t// _x0\ti  f32\tF32 x \r\n"
                    "\t// PTX_INJECT_END \t\r\nB\r\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->getInject(0).name, "f");
  EXPECT_EQ(m->getVariables(m->getInject(0))[0].name, "x");
  EXPECT_EQ(renderOK(*m, {"S"}), "A\r\nS\r\nB\r\n");

  m = createOK("A\n\t// PTX_INJECT_START f\n\t// PTX_INJECT_END");
  ASSERT_TRUE(m);
  EXPECT_EQ(renderOK(*m, {"S"}), "A\nS");
}

TEST(InjectModuleTest, NativeFormat) {
  const char *ptx = "\t{\n\t.reg .f32 %_x0;\n\t.reg .b32 %_x1;\n"
                    "\t// MMPTX_INJECT_BEGIN site 2\n"
                    "\t// MMPTX_INJECT_ARG 0 in f32 F32 a\n"
                    "\t// MMPTX_INJECT_ARG 1 out b32 B32 the b\n"
                    "\t// MMPTX_INJECT_END site\n"
                    "\t}\n";
  auto m = createOK(ptx);
  ASSERT_TRUE(m);
  const Inject &inj = m->getInject(0);
  ASSERT_EQ(inj.numVariables, 2u);
  EXPECT_EQ(m->getVariables(inj)[1].name, "the b");
  EXPECT_EQ(m->getVariables(inj)[1].kind, InjectArgKind::Out);
  EXPECT_EQ(m->getVariables(inj)[1].stableRegister, "_x1");
  EXPECT_EQ(m->sites()[0].format, InjectSiteFormat::Native);
  EXPECT_EQ(renderOK(*m, {"\tS;"}),
            "\t{\n\t.reg .f32 %_x0;\n\t.reg .b32 %_x1;\n\tS;\n\t}\n");

  InjectErrc code;
  EXPECT_EQ(createError("// MMPTX_INJECT_BEGIN f 2\n"
                        "// MMPTX_INJECT_ARG 0 in f32 F32 a\n"
                        "// MMPTX_INJECT_END f\n",
                        &code),
            "test.ptx:1:25: error: inject site 'f' declares 2 arguments but "
            "has 1 'MMPTX_INJECT_ARG' line\n"
            "// MMPTX_INJECT_BEGIN f 2\n"
            "                        ^");
  EXPECT_EQ(code, InjectErrc::Formatting);
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
  const char *ptx = "\t// begin inline asm\n"
                    "\t// PTX_INJECT_START func\n"
                    "\t// %f1 mod f32 y\n"
                    "\t// %f9 out f32 z\n"
                    "\t// %f3 in f32 x\n"
                    "\t// PTX_INJECT_END\n"
                    "\t// end inline asm\n";
  auto m = createOK(ptx);
  ASSERT_TRUE(m);
  const Inject &inj = m->getInject(0);
  ASSERT_EQ(inj.numVariables, 3u);
  EXPECT_EQ(m->getVariables(inj)[0].typeToken, "F32");
  EXPECT_EQ(m->getVariables(inj)[0].regType, "f32");
  EXPECT_EQ(m->getVariables(inj)[2].stableRegister, "_x2");
  EXPECT_EQ(m->sites()[0].format, InjectSiteFormat::Legacy);
  ArrayRef<StringRef> regs = m->getSiteRegisters(m->sites()[0]);
  ASSERT_EQ(regs.size(), 3u);
  EXPECT_EQ(regs[1], "%f9");
  EXPECT_EQ(renderOK(*m, {"\tSTUB;"}), "\t// begin inline asm\n"
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
  InjectErrc code;
  EXPECT_EQ(createError("A\n// PTX_INJECT_END\n", &code),
            "test.ptx:2:4: error: 'PTX_INJECT_END' without a matching "
            "'PTX_INJECT_START'\n// PTX_INJECT_END\n   ^");
  EXPECT_EQ(code, InjectErrc::Formatting);
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
  std::string msg = createError("// PTX_INJECT_START f\n\tmov.f32 %f1, %f2;\n");
  EXPECT_NE(msg.find("2:2: error: expected an argument marker or "
                     "'// PTX_INJECT_END': inject site 'f' is not closed"),
            std::string::npos);
  EXPECT_NE(msg.find("1:4: note: inject site 'f' starts here"),
            std::string::npos);
  EXPECT_NE(createError("// PTX_INJECT_START f\n// _x0 i f32 F16 x\n"
                        "// PTX_INJECT_END\n")
                .find("2:10: error: register type 'f32' does not match inject "
                      "type 'F16' (b16)"),
            std::string::npos);
}

TEST(InjectModuleTest, UnknownAndExtraTypes) {
  const char *ptx = "// PTX_INJECT_START f\n// _x0 i f32 DOG x\n"
                    "// PTX_INJECT_END\n";
  InjectErrc code;
  EXPECT_EQ(createError(ptx, &code),
            "test.ptx:2:14: error: unknown inject type 'DOG'\n"
            "// _x0 i f32 DOG x\n"
            "             ^");
  EXPECT_EQ(code, InjectErrc::UnknownType);

  InjectType dog;
  dog.token = "DOG";
  dog.regType = "f32";
  dog.movSuffix = "f32";
  InjectOptions opts;
  opts.extraTypes = makeArrayRef(dog);
  auto m = createOK(ptx, opts);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->getVariables(m->getInject(0))[0].typeToken, "DOG");

  InjectOptions any;
  any.allowUnknownTypes = true;
  m = createOK(ptx, any);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->getVariables(m->getInject(0))[0].regType, "f32");
}

/// A site of inject `f` with the given argument lines.
std::string site(StringRef args) {
  return ("\t// PTX_INJECT_START f\n" + args + "\t// PTX_INJECT_END\n").str();
}

TEST(InjectModuleTest, InconsistentDuplicates) {
  std::string first = site("\t// _x0 m f32 F32 acc\n\t// _x1 i f32 F32 v\n");
  struct Case {
    const char *args;
    const char *message;
  } cases[] = {
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
  for (const Case &c : cases) {
    std::string ptx = first + "\tmov.f32 %f1, %f2;\n\n" + site(c.args);
    std::string ptxWithPrefix = "A\n" + ptx;
    InjectErrc code;
    std::string msg = createError(ptxWithPrefix, &code);
    EXPECT_NE(msg.find(c.message), std::string::npos) << msg;
    EXPECT_NE(msg.find("test.ptx:2:5: note: first site of inject 'f' is here"),
              std::string::npos)
        << msg;
    EXPECT_EQ(code, InjectErrc::InconsistentInjection);
  }
  // A register type differing alone: a user type aliasing F32's token with
  // another register type cannot exist, so allow unknown types.
  InjectOptions any;
  any.allowUnknownTypes = true;
  std::string ptx =
      site("\t// _x0 m f32 T acc\n") + site("\t// _x0 m b32 T acc\n");
  std::string msg = createError(ptx, nullptr, any);
  EXPECT_NE(msg.find("has register type 'b32' here, but 'f32' at the first"),
            std::string::npos)
      << msg;
}

TEST(InjectModuleTest, RenderErrors) {
  auto m = createOK(SimpleSite);
  ASSERT_TRUE(m);
  std::string out;
  // Not PTX: these stubs test the count, size and name checks alone.
  RenderOptions unchecked;
  unchecked.checkStubs = false;
  Error e = m->render(ArrayRef<StringRef>{"a", "b"}, out, unchecked);
  std::string msg;
  EXPECT_EQ(takeInjectError(std::move(e), &msg), InjectErrc::WrongNumStubs);
  EXPECT_EQ(msg, "expected 1 stub (one per inject), got 2");

  char buf[4];
  auto n = m->render(ArrayRef<StringRef>{"S"}, buf, sizeof(buf), unchecked);
  EXPECT_EQ(takeInjectError(n.takeError(), &msg),
            InjectErrc::InsufficientBuffer);
  char big[16];
  n = m->render(ArrayRef<StringRef>{"S"}, big, sizeof(big), unchecked);
  ASSERT_TRUE(bool(n));
  EXPECT_EQ(StringRef(big, *n), "A\nS\nB\n");

  StringMap<StringRef> byName;
  e = m->render(byName, out, unchecked);
  EXPECT_EQ(takeInjectError(std::move(e), &msg), InjectErrc::MissingStub);
  EXPECT_EQ(msg, "no stub for inject 'f'");
  byName["f"] = "S";
  byName["g"] = "T";
  e = m->render(byName, out, unchecked);
  EXPECT_EQ(takeInjectError(std::move(e), &msg), InjectErrc::InjectNotFound);
  EXPECT_EQ(msg, "stub given for unknown inject 'g'");

  // An error without a location is a StringError whose code has the inject
  // category; any other error is Internal.
  e = m->render(ArrayRef<StringRef>{}, out, unchecked);
  std::error_code ec;
  handleAllErrors(std::move(e),
                  [&](const StringError &s) { ec = s.convertToErrorCode(); });
  EXPECT_EQ(ec, make_error_code(InjectErrc::WrongNumStubs));
  EXPECT_EQ(&ec.category(), &getInjectErrorCategory());
  EXPECT_EQ(
      takeInjectError(createStringError(inconvertibleErrorCode(), "x"), &msg),
      InjectErrc::Internal);
  EXPECT_EQ(msg, "x");
  byName.erase("g");
  EXPECT_FALSE(bool(m->render(byName, out, unchecked)));
  EXPECT_EQ(out, "A\nS\nB\n");
}

TEST(InjectModuleTest, ModulePathMatchesTextPath) {
  for (StringRef file :
       {"ptx_inject_simple_kernel.ptx", "anchor_gemm_kernel.ptx"}) {
    std::string text = readCorpus(file);
    ASSERT_FALSE(text.empty());
    auto fast = createOK(text);
    auto pm = parsePTXString(text, file, /*Verify=*/false);
    ASSERT_TRUE(bool(pm)) << toString(pm.takeError());
    auto viaModule = InjectModule::create(**pm);
    ASSERT_TRUE(bool(viaModule)) << toString(viaModule.takeError());
    ASSERT_EQ(fast->getNumInjects(), (*viaModule)->getNumInjects());
    ASSERT_EQ(fast->sites().size(), (*viaModule)->sites().size());
    std::vector<StringRef> stubs(fast->getNumInjects(), "\t// stub");
    EXPECT_EQ(renderOK(*fast, stubs), renderOK(**viaModule, stubs));
  }
}

TEST(InjectModuleTest, CorpusCounts) {
  auto m = createOK(readCorpus("anchor_gemm_kernel.ptx"));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->sites().size(), 288u);
  ASSERT_TRUE(m->lookupInject("mma"));
  EXPECT_EQ(m->lookupInject("mma")->numSites, 256u);
  // Rendering empty stubs removes exactly the marker blocks.
  std::vector<StringRef> stubs(m->getNumInjects(), "");
  std::string out = renderOK(*m, stubs);
  EXPECT_EQ(StringRef(out).count("PTX_INJECT"), 0u);
}

TEST(InjectModuleTest, ManySitesAndNames) {
  std::string ptx;
  const unsigned numSites = 100000, numNames = 10000;
  for (unsigned i = 0; i < numSites; ++i)
    ptx += "\t// PTX_INJECT_START s" + std::to_string(i % numNames) +
           "\n\t// _x0 m f32 F32 a\n\t// PTX_INJECT_END\n";
  auto m = createOK(ptx);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->getNumInjects(), numNames);
  EXPECT_EQ(m->sites().size(), numSites);
  EXPECT_EQ(m->lookupInject("s9999")->numSites, numSites / numNames);
  std::vector<StringRef> stubs(numNames, "x");
  EXPECT_EQ(renderOK(*m, stubs).size(), numSites * 2);
}

// The text scanner agrees with the parser on what a comment is: markers
// inside /* */ are not sites; '/*' in a string or a '//' comment opens none.
TEST(InjectModuleTest, MarkersInBlockCommentsAreNotSites) {
  auto m = createOK("/* old:\n\t// PTX_INJECT_START dead\n"
                    "\t// PTX_INJECT_END\n*/\n"
                    ".file 1 \"a/*b\"\n// see /* here\n"
                    "\t// PTX_INJECT_START live\n\t// PTX_INJECT_END\n"
                    "/* \t// PTX_INJECT_START dead2\n");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->getNumInjects(), 1u);
  EXPECT_EQ(m->getInject(0).name, "live");
  // A string with an escaped quote still ends at its closing quote.
  m = createOK(".file 1 \"x\\\"/*\"\n// PTX_INJECT_START s\n// PTX_INJECT_END");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->getNumInjects(), 1u);
  // The lit test's file, through the text path (mmptx-opt takes the
  // parsed-module path).
  auto buf = MemoryBuffer::getFile(std::string(MMPTX_SOURCE_DIR) +
                                   "/test/Inject/block-comments.ptx");
  ASSERT_TRUE(bool(buf));
  m = createOK((*buf)->getBuffer());
  ASSERT_TRUE(m);
  ASSERT_EQ(m->getNumInjects(), 1u);
  EXPECT_EQ(m->getInject(0).name, "live");
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

TEST(InjectModuleTest, ConcurrentRenderFromOneHandle) {
  auto m = createOK(readCorpus("anchor_gemm_kernel.ptx"));
  ASSERT_TRUE(m);
  std::vector<std::string> stubText;
  for (size_t i = 0; i != m->getNumInjects(); ++i)
    stubText.push_back("\t// stub " + std::to_string(i));
  std::vector<StringRef> stubs(stubText.begin(), stubText.end());
  std::string expected = renderOK(*m, stubs);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(8, 0);
  for (unsigned t = 0; t != 8; ++t)
    threads.emplace_back([&, t] {
      std::string out;
      for (unsigned i = 0; i != 50; ++i) {
        if (Error e = m->render(stubs, out)) {
          consumeError(std::move(e));
          ++mismatches[t];
        } else if (out != expected) {
          ++mismatches[t];
        }
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (int n : mismatches)
    EXPECT_EQ(n, 0);
}

TEST(InjectModuleTest, MutatedInputsNeverCrash) {
  // Byte mutations and truncations of marker-dense text: create either
  // fails cleanly or gives a handle that renders to its announced size.
  const std::string seed =
      "\t// PTX_INJECT_START f\r\n\t// _x0 m f32 F32 a\n"
      "\t// %f1 in f32 b\n\t// PTX_INJECT_END\n"
      "// MMPTX_INJECT_BEGIN g 2\n// MMPTX_INJECT_ARG 0 in f32 F32 x\n"
      "// MMPTX_INJECT_ARG 1 out b32 B32 y\n// MMPTX_INJECT_END g\n"
      "\t// PTX_INJECT_START f\n\t// _x0 m f32 F32 a\n\t// PTX_INJECT_END";
  const char alphabet[] = "/ \t\n\r%_xJPTINECSARGBDMmoi0123F";
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return state >> 8;
  };
  for (unsigned iter = 0; iter != 20000; ++iter) {
    std::string text = seed;
    unsigned edits = 1 + next() % 4;
    for (unsigned e = 0; e != edits && !text.empty(); ++e) {
      size_t pos = next() % text.size();
      switch (next() % 3) {
      case 0:
        text[pos] = alphabet[next() % (sizeof(alphabet) - 1)];
        break;
      case 1:
        text.erase(pos, 1 + next() % 8);
        break;
      case 2:
        text.resize(pos);
        break;
      }
    }
    // Copy into an exactly-sized heap buffer so that sanitizers see any
    // read past the end.
    std::unique_ptr<char[]> exact(new char[text.size()]);
    memcpy(exact.get(), text.data(), text.size());
    auto m = InjectModule::create(StringRef(exact.get(), text.size()));
    if (!m) {
      consumeError(m.takeError());
      continue;
    }
    std::vector<StringRef> stubs((*m)->getNumInjects(), "\t// S");
    std::string out;
    ASSERT_FALSE(bool((*m)->render(stubs, out)));
    ASSERT_EQ(out.size(), cantFail((*m)->renderedSize(stubs)));
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
  InjectType word;
  word.token = "WORD";
  word.regType = "b32";
  word.movSuffix = "u32";
  InjectOptions opts;
  opts.extraTypes = makeArrayRef(word);
  auto m = InjectModule::create(CheckedModule, "k.ptx", opts);
  ASSERT_TRUE(bool(m)) << toString(m.takeError());
  EXPECT_EQ((*m)->getVariables((*m)->getInject(0))[0].movSuffix, "u32");
  std::string out;
  ASSERT_FALSE(bool((*m)->render({"\tadd.u32 %_x0, %_x0, 1;"}, out)));
  EXPECT_NE(out.find("\tmov.u32 %_x0, %r1;\n\tadd.u32 %_x0, %_x0, 1;\n"
                     "\tmov.u32 %r1, %_x0;\n"),
            std::string::npos)
      << out;
}

TEST(InjectChecksTest, StubsAreCheckedAndWarningsGoToTheHandler) {
  InjectType word{"WORD", "b32", "u32", 'r', 32};
  InjectOptions opts;
  opts.extraTypes = makeArrayRef(word);
  auto m = InjectModule::create(CheckedModule, "k.ptx", opts);
  ASSERT_TRUE(bool(m)) << toString(m.takeError());
  std::string out, msg;
  RenderOptions ro;
  std::vector<std::string> names = {"my.stub"};
  ro.stubNames = names;
  Error e = (*m)->render({"\t}\n\t{"}, out, ro);
  EXPECT_EQ(takeInjectError(std::move(e), &msg), InjectErrc::InvalidStub);
  EXPECT_EQ(StringRef(msg).take_until([](char c) { return c == '\n'; }),
            "my.stub:1:2: error: unmatched '}'");
  // The unchecked path splices it as it is.
  ro.checkStubs = false;
  EXPECT_FALSE(bool((*m)->render({"\t}\n\t{"}, out, ro)));

  // An in variable written by the stub: a warning, through the handler.
  const char *const inSite = ".version 9.0\n.entry k()\n{\n"
                             "\t.reg .f32 %f<2>;\n"
                             "\t// PTX_INJECT_START g\n"
                             "\t// %f1 in f32 x\n"
                             "\t// PTX_INJECT_END\n\tret;\n}\n";
  auto g = InjectModule::create(inSite, "g.ptx");
  ASSERT_TRUE(bool(g)) << toString(g.takeError());
  std::vector<std::string> warnings;
  RenderOptions wo;
  wo.onWarning = [&](const SMDiagnostic &d) {
    warnings.push_back(d.getMessage().str());
  };
  EXPECT_FALSE(bool((*g)->render({"\tmov.f32 %_x0, 0f00000000;"}, out, wo)));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "the stub writes '%_x0', the register of in variable "
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
