//===- ToolOutputTest.cpp - Tests for all-or-nothing tool outputs ---------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Support/ToolOutput.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "llvm/Testing/Support/SupportHelpers.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx;

namespace {
class ToolOutputTest : public ::testing::Test {
protected:
  std::string path(StringRef Name) { return std::string(Dir.path(Name)); }
  void write(StringRef Name, StringRef Text) {
    std::error_code EC;
    raw_fd_ostream OS(path(Name), EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  std::string read(StringRef Name) {
    auto Buf = MemoryBuffer::getFile(path(Name));
    return Buf ? (*Buf)->getBuffer().str() : "<missing>";
  }
  /// \returns the names in the directory, sorted.
  std::vector<std::string> entries() {
    std::vector<std::string> Names;
    std::error_code EC;
    for (sys::fs::directory_iterator I(Dir.path(), EC), E; I != E && !EC;
         I.increment(EC))
      Names.push_back(sys::path::filename(I->path()).str());
    llvm::sort(Names);
    return Names;
  }

  unittest::TempDir Dir{"mmptx-tooloutput", /*Unique=*/true};
};

Error writeText(StringRef Path, StringRef Text) {
  return writeToolOutput(Path, [&](raw_ostream &OS) {
    OS << Text;
    return Error::success();
  });
}

TEST_F(ToolOutputTest, CreatesANewFile) {
  ASSERT_FALSE(bool(writeText(path("out"), "new")));
  EXPECT_EQ(read("out"), "new");
  EXPECT_EQ(entries(), std::vector<std::string>{"out"});
}

TEST_F(ToolOutputTest, ReplacesOnlyOnCommit) {
  write("out", "old");
  {
    auto Out = ToolOutput::open(path("out"));
    ASSERT_TRUE(bool(Out));
    (*Out)->os() << "half";
    (*Out)->os().flush();
    EXPECT_EQ(read("out"), "old");
    EXPECT_EQ(entries().size(), 2u); // The target and the temporary file.
  }                                  // Not committed: discarded.
  EXPECT_EQ(read("out"), "old");
  EXPECT_EQ(entries(), std::vector<std::string>{"out"});

  auto Out = ToolOutput::open(path("out"));
  ASSERT_TRUE(bool(Out));
  (*Out)->os() << "new";
  ASSERT_FALSE(bool((*Out)->commit()));
  EXPECT_EQ(read("out"), "new");
  EXPECT_EQ(entries(), std::vector<std::string>{"out"});
}

TEST_F(ToolOutputTest, FailedWriterKeepsTheOldFile) {
  write("out", "old");
  Error E = writeToolOutput(path("out"), [](raw_ostream &OS) {
    OS << "partial";
    return createStringError(inconvertibleErrorCode(), "parse error");
  });
  EXPECT_EQ(toString(std::move(E)), "parse error");
  EXPECT_EQ(read("out"), "old");
  EXPECT_EQ(entries(), std::vector<std::string>{"out"});
}

TEST_F(ToolOutputTest, KeepsTheModeOfTheReplacedFile) {
  write("out", "old");
  ASSERT_FALSE(sys::fs::setPermissions(path("out"), sys::fs::owner_read |
                                                        sys::fs::owner_write |
                                                        sys::fs::owner_exe));
  ASSERT_FALSE(bool(writeText(path("out"), "new")));
  sys::fs::file_status Status;
  ASSERT_FALSE(sys::fs::status(path("out"), Status));
  EXPECT_EQ(Status.permissions(),
            sys::fs::owner_read | sys::fs::owner_write | sys::fs::owner_exe);
}

TEST_F(ToolOutputTest, WritesThroughASymbolicLink) {
  write("real", "old");
  ASSERT_FALSE(sys::fs::create_link("real", path("link")));
  ASSERT_FALSE(bool(writeText(path("link"), "new")));
  EXPECT_TRUE(sys::fs::is_symlink_file(path("link")));
  EXPECT_EQ(read("real"), "new");
  EXPECT_EQ(entries(), (std::vector<std::string>{"link", "real"}));
}

TEST_F(ToolOutputTest, MissingDirectoryIsAnError) {
  Error E = writeText(path("no/such/out"), "x");
  EXPECT_EQ(toString(std::move(E)).find("cannot open output '"), 0u);
}

TEST_F(ToolOutputTest, DevicesAreWrittenInPlace) {
  if (!sys::fs::exists("/dev/null") || !sys::fs::exists("/dev/full"))
    GTEST_SKIP() << "no /dev/null or /dev/full";
  EXPECT_FALSE(bool(writeText("/dev/null", "x")));
  EXPECT_TRUE(sys::fs::exists("/dev/null"));
  // A full device: the write error is an Error, not a fatal error.
  Error E = writeText("/dev/full", std::string(100000, 'x'));
  EXPECT_EQ(toString(std::move(E)),
            "cannot write '/dev/full': No space left on device");
}
} // namespace
