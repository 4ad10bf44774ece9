//===- KernelParamsTest.cpp - A kernel's parameters, read from its image --===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/KernelParams.h"

#include "llvm/Support/Endian.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx;

namespace {

void put16(std::string &S, size_t Off, uint16_t V) {
  support::endian::write16le(&S[Off], V);
}
void put32(std::string &S, size_t Off, uint32_t V) {
  support::endian::write32le(&S[Off], V);
}
void put64(std::string &S, size_t Off, uint64_t V) {
  support::endian::write64le(&S[Off], V);
}

/// A 16-byte .nv.info record of attribute \p Attr for parameter
/// \p Ordinal, its size field still 0.
std::string paramRecord(uint8_t Attr, uint16_t Ordinal) {
  std::string R(16, '\0');
  R[0] = 4;
  R[1] = char(Attr);
  put16(R, 2, 12);
  put16(R, 8, Ordinal);
  return R;
}

/// An EIATTR_KPARAM_INFO record of parameter \p Ordinal, \p Size bytes.
std::string kparam(uint16_t Ordinal, uint32_t Size) {
  std::string R = paramRecord(0x17, Ordinal);
  put32(R, 12, (Size << 18) | 0xf000);
  return R;
}

/// An EIATTR_KPARAM_INFO_V2 record (large parameter blocks) of parameter
/// \p Ordinal, \p Size bytes, with a pointee alignment and space after it.
std::string kparamV2(uint16_t Ordinal, uint16_t Size) {
  std::string R = paramRecord(0x45, Ordinal);
  put16(R, 12, Size);
  R[14] = 4;
  R[15] = 4;
  return R;
}

/// A cubin-like ELF64 image whose only sections are the section names and
/// `.nv.info.<Kernel>` holding \p Info.
std::string makeCubin(StringRef Kernel, StringRef Info) {
  std::string Names(1, '\0');
  Names += ".shstrtab";
  Names += '\0';
  Names += ".nv.info." + Kernel.str();
  Names += '\0';
  std::string Elf(64, '\0');
  Elf.replace(0, 6,
              "\x7f"
              "ELF\x02\x01");
  size_t NamesOff = Elf.size();
  Elf += Names;
  size_t InfoOff = Elf.size();
  Elf += Info.str();
  size_t ShOff = Elf.size();
  Elf += std::string(3 * 64, '\0');
  put64(Elf, 0x28, ShOff);
  put16(Elf, 0x3a, 64);
  put16(Elf, 0x3c, 3);
  put16(Elf, 0x3e, 1);
  auto Section = [&](unsigned I, uint32_t Name, size_t Off, size_t Size) {
    size_t H = ShOff + I * 64;
    put32(Elf, H, Name);
    put64(Elf, H + 24, Off);
    put64(Elf, H + 32, Size);
  };
  Section(1, 1, NamesOff, Names.size());
  Section(2, 11, InfoOff, Info.size());
  return Elf;
}

TEST(KernelParamsTest, Cubin) {
  // An attribute before, the records out of order, a 2-byte value after.
  std::string Info = std::string("\x04\x37\x04\x00\x82\x00\x00\x00", 8) +
                     kparam(1, 8) + kparam(0, 4) + kparam(2, 24) +
                     std::string("\x03\x1b\xff\x00", 4);
  std::string Elf = makeCubin("k", Info);
  Optional<std::vector<unsigned>> Sizes = getKernelParamSizes(Elf, "k");
  ASSERT_TRUE(Sizes);
  EXPECT_EQ(*Sizes, (std::vector<unsigned>{4, 8, 24}));
  EXPECT_FALSE(getKernelParamSizes(Elf, "other"));
  // No records: no parameters.
  Sizes = getKernelParamSizes(makeCubin("k", StringRef("\x03\x1b\xff\x00", 4)),
                              "k");
  ASSERT_TRUE(Sizes);
  EXPECT_TRUE(Sizes->empty());
  // A missing ordinal: the image does not say.
  EXPECT_FALSE(getKernelParamSizes(makeCubin("k", kparam(1, 4)), "k"));
}

TEST(KernelParamsTest, MalformedCubin) {
  std::string Elf = makeCubin("k", kparam(0, 4) + kparam(1, 8));
  // Every truncation and every corrupted byte gives an answer or None,
  // never a read outside the image (checked under the sanitizers).
  for (size_t N = 0; N < Elf.size(); ++N) {
    (void)getKernelParamSizes(StringRef(Elf).take_front(N), "k");
    for (unsigned Bit = 0; Bit < 8; ++Bit) {
      std::string Bad = Elf;
      Bad[N] = char(Bad[N] ^ (1 << Bit));
      (void)getKernelParamSizes(Bad, "k");
    }
  }
}

TEST(KernelParamsTest, Ptx) {
  StringRef Ptx = R"(.version 8.0
.target sm_80
.visible .entry first(.param .u32 n) { ret; }
.visible .entry k(
  .param .f32 a,   // a comment, with a ')'
  .param .u64 .ptr .global .align 4 x, /* and ( another */
  .param .align 8 .b8 s[24]
)
{
  ret;
}
.entry none()
{
  ret;
}
)";
  Optional<std::vector<unsigned>> Sizes = getKernelParamSizes(Ptx, "k");
  ASSERT_TRUE(Sizes);
  EXPECT_EQ(*Sizes, (std::vector<unsigned>{4, 8, 24}));
  Sizes = getKernelParamSizes(Ptx, "first");
  ASSERT_TRUE(Sizes);
  EXPECT_EQ(*Sizes, (std::vector<unsigned>{4}));
  Sizes = getKernelParamSizes(Ptx, "none");
  ASSERT_TRUE(Sizes);
  EXPECT_TRUE(Sizes->empty());
  EXPECT_FALSE(getKernelParamSizes(Ptx, "missing"));
  EXPECT_FALSE(getKernelParamSizes(".entry k(.param .u32", "k"));
  EXPECT_FALSE(getKernelParamSizes(".entry k(.param .pred p) {}", "k"));
  EXPECT_FALSE(getKernelParamSizes("not an image", "k"));
}

TEST(KernelParamsTest, CubinLargeBlock) {
  // ptxas describes a block of 5 KB or more with the V2 records only.
  std::string Info = kparamV2(2, 8) + kparamV2(1, 4) + kparamV2(0, 6000) +
                     std::string("\x04\x0a\x08\x00\x0c\x00\x00\x00"
                                 "\x10\x02\x80\x17",
                                 12);
  Optional<std::vector<unsigned>> Sizes =
      getKernelParamSizes(makeCubin("k", Info), "k");
  ASSERT_TRUE(Sizes);
  EXPECT_EQ(*Sizes, (std::vector<unsigned>{6000, 4, 8}));
  // A V2 record cut short is not read as a size.
  std::string Short = kparamV2(0, 6000);
  Short[2] = 6;
  Short.resize(10);
  EXPECT_FALSE(getKernelParamSizes(makeCubin("k", Short), "k"));
}

} // namespace
