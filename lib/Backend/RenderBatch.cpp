//===- RenderBatch.cpp - Variants rendered into reused buffers, to cubin --===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// compileRenderedBatch(): compileBatch() for modules that are rendered on
/// demand. Each worker renders into one buffer of its own, reused for every
/// module it handles, so no module's PTX is ever held in a fresh block of
/// its own: a pass renders each module to hash it (duplicates are then
/// confirmed byte for byte, so a hash collision never merges two modules),
/// and a second renders each unique module again right before its compile.
///
//===----------------------------------------------------------------------===//

#include "BatchTally.h"
#include "mmptx/Backend/Batch.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/xxhash.h"

#include <atomic>
#include <chrono>
#include <mutex>

using namespace llvm;
using namespace mmptx;

/// Runs \p Work(I, Buffer, Second) for every I of \p Indices on \p Threads
/// threads, each with two buffers of its own that outlive its items.
static void forEachWithBuffer(
    ArrayRef<size_t> Indices, unsigned Threads,
    function_ref<void(size_t, std::string &, std::string &)> Work) {
  if (Threads <= 1) {
    std::string Buffer, Second;
    for (size_t I : Indices)
      Work(I, Buffer, Second);
    return;
  }
  std::atomic<size_t> Next{0};
  ThreadPool Pool(hardware_concurrency(Threads));
  for (unsigned T = 0; T != Threads; ++T)
    Pool.async([&] {
      std::string Buffer, Second;
      for (size_t K; (K = Next++) < Indices.size();)
        Work(Indices[K], Buffer, Second);
    });
  Pool.wait();
}

BatchResult mmptx::compileRenderedBatch(PTXCompiler &Compiler,
                                        const RenderedModules &Modules,
                                        const CompileOptions &Opts,
                                        const BatchOptions &BOpts) {
  auto Start = std::chrono::steady_clock::now();
  BatchResult Out;
  size_t N = Modules.Size;
  Out.Modules.resize(N);
  BatchSummary &S = Out.Summary;
  S.Modules = N;
  unsigned Threads = BOpts.Threads
                         ? BOpts.Threads
                         : hardware_concurrency().compute_thread_count();
  Threads = std::max(1u, std::min(Threads, MaxBatchThreads));
  auto NameOf = [&](size_t I) {
    return Modules.Name ? Modules.Name(I) : "module " + std::to_string(I);
  };

  // 1. Render each module once for its hash; a module that does not render
  // fails with the renderer's error.
  std::vector<size_t> All(N);
  for (size_t I = 0; I != N; ++I)
    All[I] = I;
  std::vector<uint64_t> Hash(N);
  std::vector<size_t> Size(N);
  std::vector<char> Rendered(N); // not vector<bool>: written by threads
  forEachWithBuffer(All, std::min<size_t>(Threads, N),
                    [&](size_t I, std::string &Buffer, std::string &) {
                      if (Error E = Modules.Render(I, Buffer)) {
                        Out.Modules[I].Error =
                            NameOf(I) + ": error: " + toString(std::move(E));
                        return;
                      }
                      Rendered[I] = true;
                      Hash[I] = xxHash64(Buffer);
                      Size[I] = Buffer.size();
                    });

  // 2. Duplicates: same hash and size as an earlier module, then the same
  // bytes (both rendered again).
  std::vector<size_t> Unique, Candidates;
  DenseMap<uint64_t, size_t> First;
  for (size_t I = 0; I != N; ++I) {
    if (!Rendered[I])
      continue;
    if (BOpts.Deduplicate) {
      auto Ins = First.try_emplace(Hash[I], I);
      if (!Ins.second && Size[Ins.first->second] == Size[I]) {
        Out.Modules[I].Source = ModuleResult::Duplicate;
        Out.Modules[I].DuplicateOf = Ins.first->second;
        Candidates.push_back(I);
        continue;
      }
    }
    Unique.push_back(I);
  }
  if (!Candidates.empty()) {
    std::vector<char> Differs(N);
    forEachWithBuffer(Candidates, std::min<size_t>(Threads, Candidates.size()),
                      [&](size_t I, std::string &Buffer, std::string &Other) {
                        size_t J = Out.Modules[I].DuplicateOf;
                        // A renderer that fails now (it did not before)
                        // keeps the module apart: it is compiled, or fails,
                        // on its own.
                        Error E = Modules.Render(I, Buffer);
                        if (!E)
                          E = Modules.Render(J, Other);
                        Differs[I] = E || Other != Buffer;
                        consumeError(std::move(E));
                      });
    for (size_t I : Candidates)
      if (Differs[I]) {
        Out.Modules[I].Source = ModuleResult::Compiled;
        Out.Modules[I].DuplicateOf = 0;
        Unique.push_back(I);
      }
    llvm::sort(Unique);
  }
  S.Unique = Unique.size();
  S.Threads = std::max<unsigned>(1, std::min<size_t>(Threads, Unique.size()));

  // 3. Render and compile each unique module; compileBatch() of that one
  // module gives the cache, the timeout and the error texts.
  BatchOptions One;
  One.Threads = 1;
  One.Cache = BOpts.Cache;
  One.Deduplicate = false;
  One.ModuleTimeout = BOpts.ModuleTimeout;
  std::mutex ProgressMutex;
  size_t Done = 0;
  std::atomic<bool> Cancelled{false};
  forEachWithBuffer(
      Unique, S.Threads, [&](size_t I, std::string &Buffer, std::string &) {
        ModuleResult &R = Out.Modules[I];
        auto T = std::chrono::steady_clock::now();
        if (BOpts.ShouldCancel && (Cancelled || BOpts.ShouldCancel())) {
          Cancelled = true;
          R.Cancelled = true;
          R.Error = NameOf(I) +
                    ": error: not compiled: the batch was cancelled "
                    "before it started";
          R.Result.Backend = Compiler.getIdentity();
        } else if (Error E = Modules.Render(I, Buffer)) {
          R.Error = NameOf(I) + ": error: " + toString(std::move(E));
          R.Result.Backend = Compiler.getIdentity();
        } else {
          BatchModule M{NameOf(I), Buffer, nullptr};
          BatchResult B = compileBatch(Compiler, M, Opts, One);
          R = std::move(B.Modules[0]);
          R.Seconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - T)
                          .count();
        }
        if (BOpts.OnProgress) {
          std::lock_guard<std::mutex> Lock(ProgressMutex);
          BOpts.OnProgress(++Done, Unique.size());
        }
      });

  for (size_t I = 0; I != N; ++I) {
    if (!Rendered[I])
      Out.Modules[I].Result.Backend = Compiler.getIdentity();
    detail::tallyModule(Out, I, NameOf, Rendered[I]);
  }
  S.WallSeconds = detail::secondsSince(Start);
  return Out;
}
