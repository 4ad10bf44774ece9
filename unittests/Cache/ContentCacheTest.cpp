//===- ContentCacheTest.cpp - Tests of the content-keyed cache ------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Cache/ContentCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Testing/Support/SupportHelpers.h"
#include "gtest/gtest.h"

#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace mmptx;

namespace {

class ContentCacheTest : public ::testing::Test {
protected:
  std::unique_ptr<ContentCache> open(uint64_t Max = 0) {
    Expected<std::unique_ptr<ContentCache>> C =
        ContentCache::open(Dir.path(), Max);
    EXPECT_TRUE(bool(C)) << toString(C.takeError());
    return C ? std::move(*C) : nullptr;
  }

  static std::string key(StringRef S) {
    return CacheKey("test").add(S).final();
  }

  unittest::TempDir Dir{"mmptx-cache-test", /*Unique=*/true};

  static Error writeFile(StringRef Path) {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    if (EC)
      return errorCodeToError(EC);
    OS << "not a cache";
    return Error::success();
  }
};

TEST(CacheKeyTest, PartsAreDelimited) {
  EXPECT_NE(CacheKey("k").add("ab").add("c").final(),
            CacheKey("k").add("a").add("bc").final());
  EXPECT_EQ(CacheKey("k").add("ab").final(), CacheKey("k").add("ab").final());
  EXPECT_EQ(CacheKey("k").final().size(), 32u);
  // XXH3-128 of "abc", canonical (big endian) form.
  EXPECT_EQ(xxh3Hex("abc"), "06b05ab6733a618578af5f94892f3950");
}

TEST_F(ContentCacheTest, NotADirectory) {
  SmallString<128> File(Dir.path());
  sys::path::append(File, "file");
  ASSERT_FALSE(bool(writeFile(File)));
  Expected<std::unique_ptr<ContentCache>> C = ContentCache::open(File);
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(toString(C.takeError()),
            ("cache directory '" + File + "' is not a directory").str());
}

TEST_F(ContentCacheTest, StoreFailuresAreCounted) {
  auto C = open();
  EXPECT_EQ(C->getStoreFailureMessage(), "");
  // The entry's directory taken by a file: nothing can be written there.
  std::string K = key("a");
  ASSERT_FALSE(bool(writeFile(sys::path::parent_path(C->getEntryPath(K)))));
  Error E = C->store(K, {"x"});
  ASSERT_TRUE(bool(E));
  consumeError(std::move(E));
  consumeError(C->store(K, {"y"}));
  EXPECT_EQ(C->getStats().StoreFailures, 2u);
  std::string Msg = C->getStoreFailureMessage();
  EXPECT_NE(Msg.find("2 entries were not written"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("Not a directory"), std::string::npos) << Msg;
  // Other entries are stored as ever.
  std::string B = key("b");
  ASSERT_NE(B.substr(0, 2), K.substr(0, 2));
  EXPECT_FALSE(bool(C->store(B, {"z"})));
  EXPECT_TRUE(C->lookup(B));
}

TEST_F(ContentCacheTest, StoreAndLookup) {
  auto C = open();
  std::string K = key("a");
  EXPECT_FALSE(C->lookup(K));
  std::string Binary("x\0y", 3);
  ASSERT_FALSE(bool(C->store(K, {Binary, "", "log"})));
  Optional<std::vector<std::string>> F = C->lookup(K);
  ASSERT_TRUE(F);
  ASSERT_EQ(F->size(), 3u);
  EXPECT_EQ((*F)[0], Binary);
  EXPECT_EQ((*F)[1], "");
  EXPECT_EQ((*F)[2], "log");
  EXPECT_EQ(C->getStats().Hits, 1u);
  EXPECT_EQ(C->getStats().Misses, 1u);
  // Another instance (another process) sees it.
  auto C2 = open();
  EXPECT_TRUE(C2->lookup(K));
}

TEST_F(ContentCacheTest, CorruptEntriesAreMissesAndRemoved) {
  auto C = open();
  std::string K = key("a");
  ASSERT_FALSE(bool(C->store(K, {"payload"})));
  std::string Path = C->getEntryPath(K);
  auto Rewrite = [&](auto Edit) {
    auto Buf = MemoryBuffer::getFile(Path);
    ASSERT_TRUE(bool(Buf));
    std::string Data = (*Buf)->getBuffer().str();
    Edit(Data);
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    OS << Data;
  };
  Rewrite([](std::string &D) { D.back() ^= 1; });
  EXPECT_FALSE(C->lookup(K));
  EXPECT_EQ(C->getStats().Corrupt, 1u);
  EXPECT_FALSE(sys::fs::exists(Path));

  ASSERT_FALSE(bool(C->store(K, {"payload"})));
  Rewrite([](std::string &D) { D.resize(D.size() - 3); });
  EXPECT_FALSE(C->lookup(K));
  ASSERT_FALSE(bool(C->store(K, {"payload"})));
  Rewrite([](std::string &D) { D = "garbage"; });
  EXPECT_FALSE(C->lookup(K));
  EXPECT_EQ(C->getStats().Corrupt, 3u);

  // An entry stored under another key's name is not that key's.
  ASSERT_FALSE(bool(C->store(key("b"), {"other"})));
  ASSERT_FALSE(sys::fs::copy_file(C->getEntryPath(key("b")), Path));
  EXPECT_FALSE(C->lookup(K));
}

/// The total size of the entry files and temporaries under \p Dir.
static uint64_t directorySize(StringRef Dir) {
  uint64_t Size = 0;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    sys::fs::file_status St;
    if (!sys::fs::status(It->path(), St, /*Follow=*/false) &&
        St.type() == sys::fs::file_type::regular_file &&
        sys::path::filename(It->path()) != "accounting")
      Size += St.getSize();
  }
  return Size;
}

TEST_F(ContentCacheTest, NonRegularEntriesAreRemovedNotRead) {
  auto C = open();
  std::string K = key("a");
  std::string Path = C->getEntryPath(K);
  ASSERT_FALSE(bool(C->store(K, {"payload"})));
  int Case = 0;
  auto Replace = [&](auto Make) {
    SCOPED_TRACE(++Case);
    ASSERT_FALSE(sys::fs::remove_directories(Path)) << Path;
    ASSERT_FALSE(sys::fs::remove(Path));
    Make();
    // A miss that removes it, without reading it: no hang on a FIFO, no
    // endless read of a device.
    uint64_t Corrupt = C->getStats().Corrupt;
    EXPECT_FALSE(C->lookup(K));
    EXPECT_EQ(C->getStats().Corrupt, Corrupt + 1);
    sys::fs::file_status St;
    EXPECT_EQ(sys::fs::status(Path, St, /*Follow=*/false),
              std::errc::no_such_file_or_directory);
    // Rebuilt.
    ASSERT_FALSE(bool(C->store(K, {"payload"})));
    Optional<std::vector<std::string>> F = C->lookup(K);
    ASSERT_TRUE(F);
    EXPECT_EQ((*F)[0], "payload");
  };
  Replace([&] { ASSERT_EQ(::symlink("/dev/zero", Path.c_str()), 0); });
  Replace([&] { ASSERT_EQ(::mkfifo(Path.c_str(), 0644), 0); });
  Replace([&] {
    SmallString<128> Inner(Path);
    sys::path::append(Inner, "inner");
    ASSERT_FALSE(sys::fs::create_directories(Inner));
  });
  // A link to a good entry is still not an entry.
  std::string Other = C->getEntryPath(key("b"));
  ASSERT_FALSE(bool(C->store(key("b"), {"other"})));
  Replace([&] { ASSERT_EQ(::symlink(Other.c_str(), Path.c_str()), 0); });
  EXPECT_TRUE(C->lookup(key("b")));
  Replace([&] {
    // Longer than its header says: a good entry with bytes appended.
    ASSERT_FALSE(bool(C->store(K, {"payload"})));
    std::error_code EC;
    raw_fd_ostream OS(Path, EC, sys::fs::OF_Append);
    ASSERT_FALSE(EC);
    OS << std::string(4096, 'x');
  });
}

TEST_F(ContentCacheTest, OversizedEntryIsNotRead) {
  auto C = open();
  std::string K = key("a");
  ASSERT_FALSE(bool(C->store(K, {"payload"})));
  std::string Path = C->getEntryPath(K);
  std::error_code EC;
  {
    raw_fd_ostream OS(Path, EC, sys::fs::OF_Append);
    ASSERT_FALSE(EC);
    OS << std::string(1 << 20, 'x');
  }
  EXPECT_FALSE(C->lookup(K));
  EXPECT_EQ(C->getStats().Corrupt, 1u);
  EXPECT_FALSE(sys::fs::exists(Path));
}

TEST_F(ContentCacheTest, StaleTemporariesAndOldEntriesArePruned) {
  auto C = open(1 << 20);
  std::string K = key("a");
  std::string Path = C->getEntryPath(K);
  ASSERT_FALSE(sys::fs::create_directories(sys::path::parent_path(Path)));
  // Left by a writer killed two hours ago, one being written now, and an
  // entry of the first format (a 64-digit name).
  std::string Stale = Path + ".tmp-aaaaaaaa", Fresh = Path + ".tmp-bbbbbbbb";
  std::string Old =
      sys::path::parent_path(Path).str() + "/" + std::string(64, 'a');
  for (const std::string &P : {Stale, Fresh, Old})
    ASSERT_FALSE(bool(writeFile(P)));
  int FD;
  ASSERT_FALSE(sys::fs::openFileForReadWrite(
      Stale, FD, sys::fs::CD_OpenExisting, sys::fs::OF_None));
  sys::fs::setLastAccessAndModificationTime(
      FD, std::chrono::system_clock::now() - std::chrono::hours(2));
  close(FD);
  ASSERT_FALSE(bool(C->store(key("b"), {"x"})));
  EXPECT_FALSE(sys::fs::exists(Stale));
  EXPECT_FALSE(sys::fs::exists(Old));
  EXPECT_TRUE(sys::fs::exists(Fresh));
}

TEST_F(ContentCacheTest, SizeLimitHoldsAcrossProcesses) {
  // Two instances stand for two processes: each store counts what the
  // other wrote, so the directory never passes the limit.
  const uint64_t Limit = 8 * 1024;
  auto A = open(Limit), B = open(Limit);
  std::string Big(900, 'x');
  for (int I = 0; I < 40; ++I) {
    ContentCache &C = I % 2 ? *A : *B;
    ASSERT_FALSE(bool(C.store(key(std::to_string(I)), {Big})));
    EXPECT_LE(directorySize(Dir.path()), Limit) << "after store " << I;
  }
  EXPECT_GT(A->getStats().Evicted + B->getStats().Evicted, 0u);
}

TEST_F(ContentCacheTest, EvictsLeastRecentlyUsed) {
  // Entries of ~1 KiB under a 3.5 KiB limit.
  auto C = open(3584);
  std::string Big(900, 'x');
  auto Touch = [&](StringRef K, int SecondsAgo) {
    int FD;
    ASSERT_FALSE(sys::fs::openFileForReadWrite(
        C->getEntryPath(K), FD, sys::fs::CD_OpenExisting, sys::fs::OF_None));
    sys::fs::setLastAccessAndModificationTime(
        FD,
        std::chrono::system_clock::now() - std::chrono::seconds(SecondsAgo));
    close(FD);
  };
  ASSERT_FALSE(bool(C->store(key("1"), {Big})));
  Touch(key("1"), 300);
  ASSERT_FALSE(bool(C->store(key("2"), {Big})));
  Touch(key("2"), 200);
  ASSERT_FALSE(bool(C->store(key("3"), {Big})));
  Touch(key("3"), 100);
  // A hit makes 1 the most recently used.
  EXPECT_TRUE(C->lookup(key("1")));
  ASSERT_FALSE(bool(C->store(key("4"), {Big})));
  EXPECT_GE(C->getStats().Evicted, 1u);
  EXPECT_FALSE(sys::fs::exists(C->getEntryPath(key("2"))));
  EXPECT_TRUE(sys::fs::exists(C->getEntryPath(key("1"))));
  EXPECT_TRUE(sys::fs::exists(C->getEntryPath(key("4"))));
}

TEST_F(ContentCacheTest, ConcurrentWritersAndReaders) {
  // Writers of the same keys and readers never see a partial entry.
  auto C = open();
  std::atomic<int> Bad{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      for (int I = 0; I < 50; ++I) {
        std::string K = key(std::to_string(I % 5));
        std::string V(1000 + (I % 5), char('a' + I % 5));
        if (T % 2)
          consumeError(C->store(K, {V}));
        else if (auto F = C->lookup(K))
          if (F->size() != 1 || (*F)[0] != V)
            ++Bad;
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Bad, 0);
  EXPECT_EQ(C->getStats().Corrupt, 0u);
  // No temporary is left behind.
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir.path(), EC), End;
       It != End && !EC; It.increment(EC))
    EXPECT_FALSE(sys::path::filename(It->path()).contains(".tmp"));
}

} // namespace
