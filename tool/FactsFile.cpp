//===--- FactsFile.cpp - the .rsum and .rlink files -----------------------===//

#include "FactsFile.h"
#include "Summary.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <array>

namespace rematch::tool {

namespace {

constexpr llvm::StringLiteral FileMagic = "rematch-rsum";
constexpr llvm::StringLiteral LinkMagic = "rematch-rlink";

llvm::Error problem(llvm::StringRef Path, const llvm::Twine &What) {
  return llvm::createStringError((Path + ": error: " + What).str());
}

void field(std::string &Out, llvm::StringRef Name, llvm::StringRef Value) {
  Out += Name;
  Out += ' ';
  Out += std::to_string(Value.size());
  Out += '\n';
  Out += Value;
  Out += '\n';
}

// The fields after the two head lines, in order, with their names.
class FieldReader {
public:
  FieldReader(llvm::StringRef Text, llvm::StringRef Path)
      : Rest(Text), Path(Path) {}

  llvm::Expected<llvm::StringRef> next(llvm::StringRef Name) {
    auto [Head, Tail] = Rest.split('\n');
    auto [Got, Size] = Head.split(' ');
    size_t N = 0;
    if (Got != Name || Size.getAsInteger(10, N) || Tail.size() < N + 1 ||
        Tail[N] != '\n')
      return problem(Path, "malformed field '" + Name + "'");
    Rest = Tail.drop_front(N + 1);
    return Tail.take_front(N);
  }
  bool atEnd() const { return Rest.empty(); }

private:
  llvm::StringRef Rest;
  llvm::StringRef Path;
};

// "<magic> <format>\n<hash>\n<fields>": checks the head and the hash, and
// returns the fields.
llvm::Expected<llvm::StringRef> checkedFields(llvm::StringRef Text,
                                              llvm::StringRef Path,
                                              llvm::StringRef Magic,
                                              llvm::StringRef Kind) {
  auto [First, AfterFirst] = Text.split('\n');
  auto [Name, Format] = First.split(' ');
  if (Name != Magic)
    return problem(Path, "not a " + Kind + " file");
  int Version = 0;
  if (Format.getAsInteger(10, Version) || Version != FactsFormatVersion)
    return problem(Path, Kind + " file of format " + Format + ", not " +
                             llvm::Twine(FactsFormatVersion) +
                             " (written by another version of rematch)");
  auto [Hash, Fields] = AfterFirst.split('\n');
  if (Hash != clang::tidy::rematch::hashText(Fields))
    return problem(Path, "damaged " + Kind +
                             " file: its content does not match its hash "
                             "(truncated or edited)");
  return Fields;
}

std::string withHead(llvm::StringRef Magic, llvm::StringRef Fields) {
  return (Magic + " " + llvm::Twine(FactsFormatVersion) + "\n" +
          clang::tidy::rematch::hashText(Fields) + "\n" + Fields)
      .str();
}

// A .rsum's fields in their order, each with where its value is: the
// arguments are held joined (NUL-separated) in Arguments. Facts and Text are
// const for the writer.
template <class Facts, class Text>
std::array<std::pair<const char *, Text *>, 11> fieldsOf(Facts &F,
                                                         Text &Arguments) {
  return {{{"file", &F.File},
           {"tool", &F.Settings.Tool},
           {"checkpoint-functions", &F.Settings.CheckpointFunctions},
           {"config-file", &F.Settings.ConfigFile},
           {"checks", &F.Settings.Checks},
           {"chain", &F.Settings.Chain},
           {"warnings-as-errors", &F.Settings.WarningsAsErrors},
           {"directory", &F.Directory},
           {"arguments", &Arguments},
           {"summary", &F.Summary},
           {"outcome", &F.Outcome}}};
}

} // namespace

std::string writeFileFacts(const FileFacts &F) {
  const std::string Arguments =
      llvm::join(F.Arguments, llvm::StringRef("\0", 1));
  std::string Fields;
  for (auto [Name, Value] : fieldsOf(F, Arguments))
    field(Fields, Name, *Value);
  return withHead(FileMagic, Fields);
}

bool sameFacts(const FileFacts &A, const FileFacts &B) {
  const std::string None;
  auto FieldsA = fieldsOf(A, None), FieldsB = fieldsOf(B, None);
  for (size_t I = 0; I < FieldsA.size(); ++I)
    if (*FieldsA[I].second != *FieldsB[I].second)
      return false;
  return A.Arguments == B.Arguments;
}

llvm::Expected<FileFacts> readFileFacts(llvm::StringRef Text,
                                        llvm::StringRef Path) {
  llvm::Expected<llvm::StringRef> Fields =
      checkedFields(Text, Path, FileMagic, ".rsum");
  if (!Fields)
    return Fields.takeError();
  FieldReader R(*Fields, Path);
  FileFacts F;
  std::string Arguments;
  for (auto [Name, Into] : fieldsOf(F, Arguments)) {
    llvm::Expected<llvm::StringRef> V = R.next(Name);
    if (!V)
      return V.takeError();
    *Into = V->str();
  }
  if (!Arguments.empty()) {
    llvm::SmallVector<llvm::StringRef, 32> Parts;
    llvm::StringRef(Arguments).split(Parts, '\0');
    for (llvm::StringRef P : Parts)
      F.Arguments.push_back(P.str());
  }
  if (!R.atEnd())
    return problem(Path, "unexpected data after the last field");
  if (F.File.empty())
    return problem(Path, ".rsum names no file");
  return F;
}

std::string writeLinkFacts(const std::vector<FileFacts> &Files) {
  std::vector<const FileFacts *> Sorted;
  for (const FileFacts &F : Files)
    Sorted.push_back(&F);
  llvm::sort(Sorted, [](const FileFacts *A, const FileFacts *B) {
    return A->File < B->File;
  });
  std::string Fields;
  for (const FileFacts *F : Sorted)
    field(Fields, "member", writeFileFacts(*F));
  return withHead(LinkMagic, Fields);
}

llvm::Expected<std::vector<FileFacts>> readLinkFacts(llvm::StringRef Text,
                                                     llvm::StringRef Path) {
  llvm::Expected<llvm::StringRef> Fields =
      checkedFields(Text, Path, LinkMagic, ".rlink");
  if (!Fields)
    return Fields.takeError();
  FieldReader R(*Fields, Path);
  std::vector<FileFacts> Out;
  while (!R.atEnd()) {
    llvm::Expected<llvm::StringRef> Member = R.next("member");
    if (!Member)
      return Member.takeError();
    llvm::Expected<FileFacts> F = readFileFacts(*Member, Path);
    if (!F)
      return F.takeError();
    Out.push_back(std::move(*F));
  }
  return Out;
}

llvm::Error readFactsFile(llvm::StringRef Path, std::vector<FileFacts> &Into,
                          bool *IsLink) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return problem(Path, "cannot read: " + Buf.getError().message());
  llvm::StringRef Text = (*Buf)->getBuffer();
  if (IsLink)
    *IsLink = Text.starts_with(LinkMagic);
  if (Text.starts_with(LinkMagic)) {
    llvm::Expected<std::vector<FileFacts>> L = readLinkFacts(Text, Path);
    if (!L)
      return L.takeError();
    for (FileFacts &F : *L)
      Into.push_back(std::move(F));
    return llvm::Error::success();
  }
  llvm::Expected<FileFacts> F = readFileFacts(Text, Path);
  if (!F)
    return F.takeError();
  Into.push_back(std::move(*F));
  return llvm::Error::success();
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  if (Path == Root)
    return ".";
  llvm::StringRef P = Path;
  if (!Root.empty() && P.consume_front(Root) &&
      (Root.ends_with("/") || P.consume_front("/")))
    return P.str();
  return Path.str();
}

std::string underRoot(llvm::StringRef Path, llvm::StringRef Root) {
  if (Path == ".")
    return Root.str();
  if (Path.empty() || llvm::sys::path::is_absolute(Path))
    return Path.str();
  llvm::SmallString<256> P(Root);
  llvm::sys::path::append(P, Path);
  return std::string(P);
}

} // namespace rematch::tool
