//===- ByteIO.h - Bounded little-endian readers and writers -----*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The byte-level pieces both wire formats share: a little-endian writer
/// and a reader that checks every read against the bytes left and reports
/// the absolute byte offset of whatever it could not read.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_SERIALIZE_BYTEIO_H
#define MMPTX_LIB_SERIALIZE_BYTEIO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mmptx {
namespace wire {
namespace detail {

class ByteWriter {
public:
  explicit ByteWriter(std::string &Out) : Out(Out) {}
  void u8(uint8_t V) { Out.push_back(char(V)); }
  void u16(uint16_t V) { put(V); }
  void u32(uint32_t V) { put(V); }
  void u64(uint64_t V) { put(V); }
  void bytes(llvm::StringRef S) { Out.append(S.data(), S.size()); }
  /// u64 length + bytes.
  void str(llvm::StringRef S) {
    u64(S.size());
    bytes(S);
  }
  size_t size() const { return Out.size(); }
  std::string &buffer() { return Out; }

private:
  template <typename T> void put(T V) {
    char B[sizeof(T)];
    llvm::support::endian::write<T, llvm::support::little, 1>(B, V);
    Out.append(B, sizeof(T));
  }
  std::string &Out;
};

/// Reads from Data; offsets in messages are Base + position.
class ByteReader {
public:
  ByteReader(llvm::StringRef Data, uint64_t Base = 0)
      : Data(Data), Base(Base) {}

  uint64_t offset() const { return Base + Pos; }
  size_t left() const { return Data.size() - Pos; }
  bool atEnd() const { return Pos == Data.size(); }

  llvm::Error error(const llvm::Twine &Msg) const { return errorAt(Pos, Msg); }
  llvm::Error errorAt(size_t At, const llvm::Twine &Msg) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "byte " + llvm::Twine(Base + At) + ": " +
                                       Msg);
  }

  llvm::Error need(uint64_t N, const llvm::Twine &What) const {
    if (N > left())
      return error("truncated " + What + ": needs " + llvm::Twine(N) +
                   " bytes, " + llvm::Twine(left()) + " left");
    return llvm::Error::success();
  }

  template <typename T> llvm::Error read(T &V, const llvm::Twine &What) {
    if (llvm::Error E = need(sizeof(T), What))
      return E;
    V = llvm::support::endian::read<T, llvm::support::little, 1>(Data.data() +
                                                                 Pos);
    Pos += sizeof(T);
    return llvm::Error::success();
  }
  llvm::Error u8(uint8_t &V, const llvm::Twine &What) { return read(V, What); }
  llvm::Error u16(uint16_t &V, const llvm::Twine &What) {
    return read(V, What);
  }
  llvm::Error u32(uint32_t &V, const llvm::Twine &What) {
    return read(V, What);
  }
  llvm::Error u64(uint64_t &V, const llvm::Twine &What) {
    return read(V, What);
  }

  /// A boolean byte: 0 or 1, anything else is corrupt.
  llvm::Error boolean(bool &V, const llvm::Twine &What) {
    uint8_t B;
    if (llvm::Error E = u8(B, What))
      return E;
    if (B > 1)
      return errorAt(Pos - 1,
                     What + " is " + llvm::Twine(unsigned(B)) + ", not 0 or 1");
    V = B;
    return llvm::Error::success();
  }

  llvm::Error bytes(uint64_t N, llvm::StringRef &V, const llvm::Twine &What) {
    if (llvm::Error E = need(N, What))
      return E;
    V = Data.substr(Pos, N);
    Pos += N;
    return llvm::Error::success();
  }

  /// u64 length + bytes.
  llvm::Error str(std::string &V, const llvm::Twine &What) {
    size_t At = Pos;
    uint64_t N;
    if (llvm::Error E = u64(N, What + " length"))
      return E;
    if (N > left())
      return errorAt(At, What + " length " + llvm::Twine(N) + " exceeds the " +
                             llvm::Twine(left()) + " bytes left");
    V.assign(Data.data() + Pos, N);
    Pos += N;
    return llvm::Error::success();
  }

  /// A u64 count of items of at least \p MinItemSize bytes each; an error if
  /// that many cannot fit in what is left (so nothing is allocated for it).
  llvm::Error count(uint64_t &N, uint64_t MinItemSize,
                    const llvm::Twine &What) {
    size_t At = Pos;
    if (llvm::Error E = u64(N, What + " count"))
      return E;
    if (MinItemSize && N > left() / MinItemSize)
      return errorAt(At, What + " count " + llvm::Twine(N) +
                             " cannot fit in the " + llvm::Twine(left()) +
                             " bytes left");
    return llvm::Error::success();
  }

  /// A NUL-terminated string (the reference's format).
  llvm::Error cstr(std::string &V, const llvm::Twine &What) {
    size_t End = Data.find('\0', Pos);
    if (End == llvm::StringRef::npos)
      return error("unterminated " + What + ": no NUL in the " +
                   llvm::Twine(left()) + " bytes left");
    V.assign(Data.data() + Pos, End - Pos);
    Pos = End + 1;
    return llvm::Error::success();
  }

  void skip(size_t N) { Pos += N; }
  size_t position() const { return Pos; }
  llvm::StringRef data() const { return Data; }

private:
  llvm::StringRef Data;
  uint64_t Base;
  size_t Pos = 0;
};

} // namespace detail
} // namespace wire
} // namespace mmptx

#endif // MMPTX_LIB_SERIALIZE_BYTEIO_H
