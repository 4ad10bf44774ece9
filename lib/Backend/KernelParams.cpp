//===- KernelParams.cpp - A kernel's parameters, read from its image ------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `.nv.info.<kernel>` is a sequence of attribute records: a format byte and
/// an attribute byte, then, for format 4 (a sized value), a 16-bit size and
/// that many bytes, else a 16-bit value. EIATTR_KPARAM_INFO (0x17) holds
/// a 32-bit index, a 16-bit ordinal, a 16-bit offset and a 32-bit word whose
/// bits 18-31 are the parameter's size. ptxas writes EIATTR_KPARAM_INFO_V2
/// (0x45) instead for large parameter blocks (about 5 KB and more, which a
/// 14-bit size cannot hold): a 32-bit index, a 16-bit ordinal, a 16-bit
/// offset, a 16-bit size, then the pointee's log2 alignment and its space, a
/// byte each. EIATTR_PARAM_CBANK (0x0a) says that the kernel has parameters
/// at all.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/KernelParams.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"

using namespace llvm;
using namespace mmptx;

namespace {
using namespace llvm::support;

/// Reads a little-endian integer of type \p T at \p Off of \p Data, if it
/// lies inside.
template <typename T> bool read(StringRef Data, uint64_t Off, T &Out) {
  if (Off > Data.size() || Data.size() - Off < sizeof(T))
    return false;
  Out = endian::read<T, little, unaligned>(Data.data() + Off);
  return true;
}
} // namespace

/// The section named \p Name of the ELF64 image \p Elf, or None.
static Optional<StringRef> findElfSection(StringRef Elf, StringRef Name) {
  uint64_t ShOff;
  uint16_t ShEntSize, ShNum, ShStrNdx;
  if (!read(Elf, 0x28, ShOff) || !read(Elf, 0x3a, ShEntSize) ||
      !read(Elf, 0x3c, ShNum) || !read(Elf, 0x3e, ShStrNdx) ||
      ShEntSize < 0x40 || ShStrNdx >= ShNum)
    return None;
  auto Section = [&](unsigned I, uint32_t &NameOff) -> Optional<StringRef> {
    uint64_t Hdr = ShOff + uint64_t(I) * ShEntSize, Off, Size;
    if (!read(Elf, Hdr, NameOff) || !read(Elf, Hdr + 24, Off) ||
        !read(Elf, Hdr + 32, Size) || Off > Elf.size() ||
        Elf.size() - Off < Size)
      return None;
    return Elf.substr(Off, Size);
  };
  uint32_t Ignored;
  Optional<StringRef> Names = Section(ShStrNdx, Ignored);
  if (!Names)
    return None;
  for (unsigned I = 0; I != ShNum; ++I) {
    uint32_t NameOff;
    Optional<StringRef> S = Section(I, NameOff);
    if (S && NameOff < Names->size() &&
        Names->drop_front(NameOff).take_until([](char C) { return !C; }) ==
            Name)
      return S;
  }
  return None;
}

static Optional<std::vector<unsigned>> getCubinParamSizes(StringRef Elf,
                                                          StringRef Kernel) {
  Optional<StringRef> Info = findElfSection(Elf, (".nv.info." + Kernel).str());
  if (!Info)
    return None;
  std::vector<unsigned> Sizes;
  std::vector<bool> Seen;
  bool HasParamBank = false;
  for (uint64_t Pos = 0; Pos < Info->size();) {
    if (Info->size() - Pos < 4)
      return None;
    uint8_t Format = uint8_t((*Info)[Pos]), Attr = uint8_t((*Info)[Pos + 1]);
    uint16_t Size = 0;
    if (Format == 4)
      read(*Info, Pos + 2, Size);
    else if (Format < 1 || Format > 3)
      return None;
    if (Info->size() - Pos - 4 < Size)
      return None;
    StringRef Value = Info->substr(Pos + 4, Size);
    Pos += 4 + Size;
    if (Attr == 0x0a)
      HasParamBank = true;
    if ((Attr != 0x17 && Attr != 0x45) || Format != 4)
      continue;
    uint16_t Ordinal;
    unsigned ParamSize;
    if (!read(Value, 4, Ordinal) || Ordinal >= 4096)
      return None;
    if (Attr == 0x17) {
      uint32_t Flags;
      if (!read(Value, 8, Flags))
        return None;
      ParamSize = (Flags >> 18) & 0x3fff;
    } else {
      uint16_t Size16;
      if (!read(Value, 8, Size16))
        return None;
      ParamSize = Size16;
    }
    if (Ordinal >= Sizes.size()) {
      Sizes.resize(Ordinal + 1);
      Seen.resize(Ordinal + 1);
    }
    Sizes[Ordinal] = ParamSize;
    Seen[Ordinal] = true;
  }
  if (llvm::is_contained(Seen, false) || (Sizes.empty() && HasParamBank))
    return None;
  return Sizes;
}

/// \returns \p Text without its `//` and `/* */` comments.
static std::string stripComments(StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text.substr(I).startswith("//")) {
      I = std::min(Text.find('\n', I), Text.size()) - 1;
      Out += ' ';
    } else if (Text.substr(I).startswith("/*")) {
      size_t End = Text.find("*/", I + 2);
      I = End == StringRef::npos ? Text.size() : End + 1;
      Out += ' ';
    } else {
      Out += Text[I];
    }
  }
  return Out;
}

static bool isPtxIdentChar(char C) {
  return isAlnum(C) || C == '_' || C == '$' || C == '%';
}

/// The size of one `.param .TYPE [attributes] NAME[[N]]` declaration.
static Optional<unsigned> getPtxParamSize(StringRef Decl) {
  SmallVector<StringRef, 8> Words;
  Decl.split(Words, ' ', -1, /*KeepEmpty=*/false);
  if (Words.size() < 3 || Words.front() != ".param")
    return None;
  unsigned Bits = 0;
  for (StringRef W : makeArrayRef(Words).drop_front()) {
    StringRef Kind = W.take_front(2);
    if ((Kind == ".b" || Kind == ".u" || Kind == ".s" || Kind == ".f") &&
        !W.drop_front(2).getAsInteger(10, Bits))
      break;
  }
  if (Bits == 0 || Bits % 8)
    return None;
  unsigned Count = 1;
  StringRef Name = Words.back();
  size_t Bracket = Name.find('[');
  if (Bracket != StringRef::npos &&
      (!Name.endswith("]") ||
       Name.slice(Bracket + 1, Name.size() - 1).getAsInteger(10, Count) ||
       Count == 0 || Count > (1u << 20)))
    return None;
  return Bits / 8 * Count;
}

static Optional<std::vector<unsigned>> getPtxParamSizes(StringRef Ptx,
                                                        StringRef Kernel) {
  for (size_t At = Ptx.find(".entry"); At != StringRef::npos;
       At = Ptx.find(".entry", At + 1)) {
    StringRef Rest = Ptx.drop_front(At + 6);
    if (Rest.empty() || !isSpace(Rest.front()))
      continue;
    Rest = Rest.ltrim();
    StringRef Name = Rest.take_while(isPtxIdentChar);
    if (Name != Kernel)
      continue;
    Rest = Rest.drop_front(Name.size()).ltrim();
    if (!Rest.startswith("("))
      return std::vector<unsigned>();
    // The list ends before the body: no `{` comes before it.
    std::string Head =
        stripComments(Rest.take_until([](char C) { return C == '{'; }));
    size_t Close = Head.find(')');
    if (Close == std::string::npos)
      return None;
    std::string List = Head.substr(1, Close - 1);
    for (char &C : List)
      if (isSpace(C))
        C = ' ';
    std::vector<unsigned> Sizes;
    if (StringRef(List).trim().empty())
      return Sizes;
    SmallVector<StringRef, 8> Decls;
    StringRef(List).split(Decls, ',');
    for (StringRef Decl : Decls) {
      Optional<unsigned> Size = getPtxParamSize(Decl);
      if (!Size)
        return None;
      Sizes.push_back(*Size);
    }
    return Sizes;
  }
  return None;
}

Optional<std::vector<unsigned>> mmptx::getKernelParamSizes(StringRef Image,
                                                           StringRef Kernel) {
  if (Image.startswith("\x7f"
                       "ELF\x02\x01"))
    return getCubinParamSizes(Image, Kernel);
  if (Image.contains(".entry"))
    return getPtxParamSizes(Image, Kernel);
  return None;
}

std::string mmptx::checkElfImage(StringRef Image) {
  if (!Image.startswith("\x7f"
                        "ELF"))
    return "";
  if (Image.size() < 0x40)
    return "the ELF header is cut short (" + std::to_string(Image.size()) +
           " bytes)";
  if (Image[4] != 2 || Image[5] != 1)
    return "not a 64-bit little-endian ELF file";
  uint64_t ShOff = 0, PhOff = 0;
  uint16_t ShEnt = 0, ShNum = 0, PhEnt = 0, PhNum = 0;
  read(Image, 0x20, PhOff);
  read(Image, 0x28, ShOff);
  read(Image, 0x36, PhEnt);
  read(Image, 0x38, PhNum);
  read(Image, 0x3a, ShEnt);
  read(Image, 0x3c, ShNum);
  auto Inside = [&](uint64_t Off, uint64_t Size) {
    return Off <= Image.size() && Image.size() - Off >= Size;
  };
  if (ShNum && (ShEnt < 0x40 || !Inside(ShOff, uint64_t(ShEnt) * ShNum)))
    return "its section header table lies past the end of the file";
  if (PhNum && (PhEnt < 0x38 || !Inside(PhOff, uint64_t(PhEnt) * PhNum)))
    return "its program header table lies past the end of the file";
  for (unsigned I = 0; I != ShNum; ++I) {
    uint64_t Hdr = ShOff + uint64_t(I) * ShEnt, Off = 0, Size = 0;
    uint32_t Type = 0;
    read(Image, Hdr + 4, Type);
    read(Image, Hdr + 24, Off);
    read(Image, Hdr + 32, Size);
    if (Type != 8 /* SHT_NOBITS */ && !Inside(Off, Size))
      return "section " + std::to_string(I) + " lies past the end of the file";
  }
  for (unsigned I = 0; I != PhNum; ++I) {
    uint64_t Hdr = PhOff + uint64_t(I) * PhEnt, Off = 0, Size = 0;
    read(Image, Hdr + 8, Off);
    read(Image, Hdr + 32, Size);
    if (!Inside(Off, Size))
      return "segment " + std::to_string(I) + " lies past the end of the file";
  }
  return "";
}
