//===- PTXCompilerTest.cpp - Tests of the PTX -> cubin backends -----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/PTXCompiler.h"
#include "BatchTestUtil.h"
#include "mmptx/Backend/Batch.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx;

namespace {

std::string readCorpus(StringRef Name) {
  auto Buf = MemoryBuffer::getFile(std::string(MMPTX_CORPUS_DIR) + "/" + Name);
  EXPECT_TRUE(bool(Buf));
  return Buf ? (*Buf)->getBuffer().str() : "";
}

TEST(CompileOptionsTest, ConflictingBackendOptions) {
  CompileOptions O;
  for (const char *Bad :
       {"-arch=sm_90", "-arch", "--gpu-name=sm_90", "--gpu-name", "--version",
        "-V", "--help", "-h", "-o", "--output-file=x.cubin", "-O0",
        "--opt-level=1", "-maxrregcount=32", "--options-file=f"}) {
    O.ExtraOptions = {"-lineinfo", Bad};
    Error E = O.validate();
    ASSERT_TRUE(bool(E)) << Bad;
    std::string Msg = toString(std::move(E));
    EXPECT_NE(Msg.find(std::string("backend option '") + Bad + "'"),
              std::string::npos)
        << Msg;
  }
  O.ExtraOptions = {"-arch=sm_90"};
  EXPECT_EQ(toString(O.validate()),
            "backend option '-arch=sm_90' conflicts with mmptx's own: use "
            "--arch (arch= in Python) to choose the architecture");
  for (const char *Ok : {"-lineinfo", "--warn-on-spills", "-Ofast-compile=mid",
                         "--def-load-cache=cg", "-v", "sm_90"}) {
    O.ExtraOptions = {Ok};
    EXPECT_FALSE(bool(O.validate())) << Ok;
  }
}

TEST(PTXCompilerTest, EmptyCubinIsAFailureNeverCached) {
  // A ptxas that answers and exits 0 without writing the cubin.
  SmallString<128> Dir, Program;
  ASSERT_FALSE(batchtest::writeFakePtxas(
      "mmptx-fake-ptxas",
      "#!/bin/sh\necho 'Cuda compilation tools, release 13.0, V13.0.88'\n"
      "exit 0\n",
      Dir, Program));
  auto C = createPtxasBackend(Program);
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  SmallString<128> CacheDir(Dir);
  sys::path::append(CacheDir, "cache");
  auto Cache = ContentCache::open(CacheDir);
  ASSERT_TRUE(bool(Cache));
  Expected<CompileResult> R =
      compileCached(**C, Cache->get(),
                    readCorpus("ptx_inject_simple_kernel.ptx"), {}, "k.ptx");
  ASSERT_FALSE(bool(R));
  EXPECT_NE(toString(R.takeError())
                .find("k.ptx: error: ptxas 13.0.88 "
                      "produced no cubin for sm_80"),
            std::string::npos);
  EXPECT_EQ((*Cache)->getStats().Stores, 0u);
  sys::fs::remove_directories(Dir);
}

TEST(CompileOptionsTest, Validate) {
  CompileOptions O;
  for (const char *Ok : {"sm_80", "sm_90a", "sm_100a", "sm_100f", "sm_120"}) {
    O.Arch = Ok;
    EXPECT_FALSE(bool(O.validate())) << Ok;
  }
  for (const char *Bad : {"sm_13", "compute_80", "sm80", "sm_", "sm_80b", ""}) {
    O.Arch = Bad;
    Error E = O.validate();
    ASSERT_TRUE(bool(E)) << Bad;
    EXPECT_NE(toString(std::move(E)).find("unknown architecture"),
              std::string::npos);
  }
  O.Arch = "sm_80";
  O.OptLevel = 4;
  EXPECT_TRUE(bool(O.validate()));
  consumeError(O.validate());
}

TEST(CompileOptionsTest, KeyTextCoversEveryOption) {
  CompileOptions A, B;
  EXPECT_EQ(A.getKeyText(), B.getKeyText());
  B.LineInfo = true;
  EXPECT_NE(A.getKeyText(), B.getKeyText());
  B = A;
  B.MaxRegCount = 32;
  EXPECT_NE(A.getKeyText(), B.getKeyText());
  B = A;
  B.ExtraOptions = {"-a", "b"};
  A.ExtraOptions = {"-a b"};
  EXPECT_NE(A.getKeyText(), B.getKeyText());
}

TEST(CompileOptionsTest, FastCompile) {
  for (FastCompileLevel L : {FastCompileLevel::None, FastCompileLevel::Min,
                             FastCompileLevel::Mid, FastCompileLevel::Max})
    EXPECT_EQ(parseFastCompileName(getFastCompileName(L)), L);
  EXPECT_FALSE(parseFastCompileName("fast"));
  CompileOptions A, B;
  B.FastCompile = FastCompileLevel::Mid;
  EXPECT_NE(A.getKeyText(), B.getKeyText());
  // The level stands in for -O: ptxas refuses -O3 with it.
  std::vector<std::string> Args = B.getArgs({"-arch=", "", "", ""});
  EXPECT_EQ(Args,
            (std::vector<std::string>{"-arch=sm_80", "--Ofast-compile=mid"}));
  EXPECT_EQ(A.getArgs({"-arch=", "", "", ""})[1], "-O3");
}

/// A backend of a given version whose every compile gives the same bytes.
class VersionOnly : public PTXCompiler {
public:
  explicit VersionOnly(std::string V)
      : PTXCompiler(BackendKind::NvJitLink, std::move(V)) {}
  Expected<RawResult> compileImpl(StringRef, const CompileOptions &) override {
    RawResult R;
    R.Cubin = "\x7f"
              "ELF"; // an empty cubin is a failure
    return R;
  }
};

TEST(CompileOptionsTest, FastCompileNeedsCuda128) {
  CompileOptions O;
  O.FastCompile = FastCompileLevel::Max;
  EXPECT_TRUE(VersionOnly("12.8.61").supportsFastCompile());
  EXPECT_TRUE(VersionOnly("13.0.88").supportsFastCompile());
  VersionOnly Old("12.4.131");
  EXPECT_FALSE(Old.supportsFastCompile());
  Expected<CompileResult> R = Old.compile(".version 8.0\n", O, "k.ptx");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(toString(R.takeError()),
            "k.ptx: error: nvjitlink 12.4.131 has no -Ofast-compile (CUDA "
            "12.8 or newer has it); leave it out or choose another backend");
  O.FastCompile = FastCompileLevel::None;
  EXPECT_TRUE(bool(Old.compile(".version 8.0\n", O, "k.ptx")));
}

TEST(BackendNameTest, RoundTrip) {
  for (BackendKind K : getAllBackends())
    EXPECT_EQ(parseBackendName(getBackendName(K)), K);
  EXPECT_FALSE(parseBackendName("nvcc"));
}

TEST(MapCompilerLogTest, LinesAndStubs) {
  StubLineMap Map;
  StubLineRange R;
  R.FirstLine = 30;
  R.NumLines = 4;
  R.Site = "gemm#2";
  R.Stub = "mul.stack";
  R.StubFirstLine = 1;
  Map.push_back(R);
  std::string Out =
      mapCompilerLog("ptxas application ptx input, line 32; error   : Unknown "
                     "modifier '.f33'\n"
                     "ptxas /tmp/x.ptx, line 12; warning : something\n"
                     "ptxas fatal   : Ptx assembly aborted due to errors\n",
                     "k.ptx", &Map);
  EXPECT_EQ(Out, "k.ptx:32: error: Unknown modifier '.f33'\n"
                 "mul.stack:3: note: line 32 comes from this stub, spliced "
                 "into inject site 'gemm#2'\n"
                 "k.ptx:12: warning: something\n"
                 "ptxas fatal   : Ptx assembly aborted due to errors\n");
  // Just outside the range: no note.
  Out = mapCompilerLog("x, line 34; error : e", "k.ptx", &Map);
  EXPECT_EQ(Out, "k.ptx:34: error: e\n");
  Out = mapCompilerLog("x, line 29; error : e", "k.ptx", nullptr);
  EXPECT_EQ(Out, "k.ptx:29: error: e\n");
}

TEST(StubLineMapTest, FromSplices) {
  //                  line 1     line 2          line 3
  StringRef Original = "a\nSITE1 b\nc SITE2\nd\n";
  size_t S1 = Original.find("SITE1"), S2 = Original.find("SITE2");
  Splice Splices[2];
  Splices[0] = {S1, S1 + 5, "{\n x\n y\n}", "f#0", "one.stack", 1};
  Splices[1] = {S2, S2 + 5, "{ z }", "g#0", "two.stack", 4};
  StubLineMap Map = computeStubLineMap(Original, Splices);
  ASSERT_EQ(Map.size(), 2u);
  // Rendered: a / {  / x / y / } b / c { z } / d
  EXPECT_EQ(Map[0].FirstLine, 2u);
  EXPECT_EQ(Map[0].NumLines, 4u);
  EXPECT_EQ(Map[0].Site, "f#0");
  EXPECT_EQ(Map[1].FirstLine, 6u);
  EXPECT_EQ(Map[1].NumLines, 1u);
  EXPECT_EQ(Map[1].StubFirstLine, 4u);
  EXPECT_EQ(mapCompilerLog("x, line 4; error : bad", "r.ptx", &Map),
            "r.ptx:4: error: bad\none.stack:3: note: line 4 comes from this "
            "stub, spliced into inject site 'f#0'\n");
  EXPECT_EQ(mapCompilerLog("x, line 6; error : bad", "r.ptx", &Map),
            "r.ptx:6: error: bad\ntwo.stack:4: note: line 6 comes from this "
            "stub, spliced into inject site 'g#0'\n");
}

class BackendTest : public ::testing::TestWithParam<BackendKind> {
protected:
  void SetUp() override {
    Expected<std::unique_ptr<PTXCompiler>> C = createPTXCompiler(GetParam());
    if (!C) {
      std::string Why = toString(C.takeError());
      GTEST_SKIP() << Why;
    }
    Compiler = std::move(*C);
  }
  std::unique_ptr<PTXCompiler> Compiler;
};

TEST_P(BackendTest, CompilesTheTinyKernel) {
  EXPECT_EQ(Compiler->getKind(), GetParam());
  EXPECT_FALSE(Compiler->getVersion().empty());
  CompileOptions O;
  O.Verbose = true;
  Expected<CompileResult> R =
      Compiler->compile(readCorpus("ptx_inject_simple_kernel.ptx"), O, "tiny");
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  ASSERT_GE(R->Cubin.size(), 4u);
  EXPECT_EQ(StringRef(R->Cubin).take_front(4), "\x7f"
                                               "ELF");
  EXPECT_EQ(R->Backend, Compiler->getIdentity());
  EXPECT_NE(R->InfoLog.find("registers"), std::string::npos) << R->InfoLog;
}

TEST_P(BackendTest, ErrorCarriesTheMappedLog) {
  std::string Ptx = readCorpus("ptx_inject_simple_kernel.ptx");
  size_t At = Ptx.find("mov.f32 %_x0");
  ASSERT_NE(At, std::string::npos);
  Ptx.replace(At, 7, "mov.f33");
  unsigned Line = 1 + std::count(Ptx.begin(), Ptx.begin() + At, '\n');
  StubLineMap Map(1);
  Map[0].FirstLine = Line - 1;
  Map[0].NumLines = 3;
  Map[0].Site = "func";
  Map[0].Stub = "my.stub";
  Map[0].StubFirstLine = 10;
  Expected<CompileResult> R = Compiler->compile(Ptx, {}, "bad.ptx", &Map);
  ASSERT_FALSE(bool(R));
  std::string Msg = toString(R.takeError());
  EXPECT_NE(Msg.find("bad.ptx: error: " + Compiler->getIdentity() +
                     " failed for sm_80"),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find("bad.ptx:" + std::to_string(Line) +
                     ": error: Unknown modifier '.f33'"),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find("my.stub:11: note: line " + std::to_string(Line) +
                     " comes from this stub, spliced into inject site 'func'"),
            std::string::npos)
      << Msg;
}

TEST_P(BackendTest, RejectsBadInputBeforeCompiling) {
  CompileOptions O;
  O.Arch = "sm_1";
  Expected<CompileResult> R = Compiler->compile(".version 9.0", O);
  ASSERT_FALSE(bool(R));
  consumeError(R.takeError());
  R = Compiler->compile(StringRef("//\n.version\0 9.0", 16), {}, "n.ptx");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(toString(R.takeError()),
            "n.ptx:2:9: error: PTX contains a NUL byte (a binary file?)");
  R = Compiler->compile(" \n\t\n", {}, "e.ptx");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(toString(R.takeError()),
            "e.ptx:1:1: error: empty PTX: expected a '.version' directive");
}

TEST_P(BackendTest, FastCompileLevels) {
  if (!Compiler->supportsFastCompile())
    GTEST_SKIP() << Compiler->getIdentity() << " has no -Ofast-compile";
  std::string Ptx = readCorpus("ptx_inject_simple_kernel.ptx");
  for (FastCompileLevel L :
       {FastCompileLevel::Min, FastCompileLevel::Mid, FastCompileLevel::Max}) {
    CompileOptions O;
    O.FastCompile = L;
    Expected<CompileResult> R = Compiler->compile(Ptx, O, "tiny");
    ASSERT_TRUE(bool(R)) << getFastCompileName(L).str() << ": "
                         << toString(R.takeError());
    EXPECT_EQ(StringRef(R->Cubin).take_front(4), "\x7f"
                                                 "ELF");
  }
}

INSTANTIATE_TEST_SUITE_P(All, BackendTest,
                         ::testing::ValuesIn(getAllBackends().vec()),
                         [](const auto &Info) {
                           return getBackendName(Info.param).str();
                         });

} // namespace
