//===--- LineFilter.cpp - --line-filter and --changed-lines ---------------===//

#include "LineFilter.h"
#include "Git.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include <set>

namespace rematch::tool {

namespace {

llvm::Error lineFilterError(const llvm::Twine &Msg) {
  return llvm::createStringError("rematch: error: --line-filter: " + Msg);
}

bool inRanges(const LineRanges &Ranges, unsigned Line) {
  for (const auto &[First, Last] : Ranges)
    if (First <= Line && Line <= Last)
      return true;
  return false;
}

// git quotes a path holding unusual bytes as a C string: "b/a\tb\303\274".
std::string unquoteGitPath(llvm::StringRef S) {
  if (!S.starts_with("\"") || !S.ends_with("\"") || S.size() < 2)
    return S.str();
  S = S.drop_front().drop_back();
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '\\' || I + 1 == S.size()) {
      Out += S[I];
      continue;
    }
    char C = S[++I];
    switch (C) {
    case 'a':
      Out += '\a';
      break;
    case 'b':
      Out += '\b';
      break;
    case 'f':
      Out += '\f';
      break;
    case 'n':
      Out += '\n';
      break;
    case 'r':
      Out += '\r';
      break;
    case 't':
      Out += '\t';
      break;
    case 'v':
      Out += '\v';
      break;
    default:
      if (C >= '0' && C <= '7' && I + 2 < S.size()) {
        unsigned V = 0;
        for (size_t J = I; J < I + 3; ++J)
          V = V * 8 + (S[J] - '0');
        Out += static_cast<char>(V);
        I += 2;
      } else {
        Out += C; // \" and \\ .
      }
    }
  }
  return Out;
}

// "@@ -a[,b] +c[,d] @@" -> the new side's range, if it has lines.
std::optional<std::pair<unsigned, unsigned>> hunkRange(llvm::StringRef Line) {
  size_t Plus = Line.find(" +");
  if (Plus == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Spec = Line.substr(Plus + 2);
  Spec = Spec.take_until([](char C) { return C == ' '; });
  auto [StartText, CountText] = Spec.split(',');
  unsigned Start = 0, Count = 1;
  if (StartText.getAsInteger(10, Start) ||
      (!CountText.empty() && CountText.getAsInteger(10, Count)) || Count == 0)
    return std::nullopt;
  return std::make_pair(Start, Start + Count - 1);
}

std::string parentDirectory(llvm::StringRef File) {
  llvm::SmallString<256> P(File);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_filename(P);
  return std::string(P);
}

bool verifyRevision(llvm::StringRef Top, llvm::StringRef Rev) {
  GitResult R = runGit(Top, {"rev-parse", "--verify", "--quiet",
                             "--end-of-options", (Rev + "^{commit}").str()});
  return R.ExitCode == 0;
}

} // namespace

llvm::Expected<JsonLineFilter> JsonLineFilter::parse(llvm::StringRef Json) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  if (!V)
    return lineFilterError("invalid JSON: " + llvm::toString(V.takeError()));
  const llvm::json::Array *Items = V->getAsArray();
  if (!Items)
    return lineFilterError("expected a JSON array of "
                           "{\"name\": ..., \"lines\": [[first, last], ...]}");
  JsonLineFilter F;
  for (size_t I = 0; I < Items->size(); ++I) {
    std::string Where = "entry " + std::to_string(I);
    const llvm::json::Object *Obj = (*Items)[I].getAsObject();
    if (!Obj)
      return lineFilterError(Where + " is not an object");
    Entry E;
    for (const auto &[Key, Value] : *Obj) {
      if (Key == "name") {
        std::optional<llvm::StringRef> Name = Value.getAsString();
        if (!Name || Name->empty())
          return lineFilterError(Where +
                                 ": \"name\" must be a non-empty string");
        E.Name = Name->str();
      } else if (Key == "lines") {
        const llvm::json::Array *Ranges = Value.getAsArray();
        if (!Ranges)
          return lineFilterError(Where + ": \"lines\" must be an array");
        for (const llvm::json::Value &R : *Ranges) {
          const llvm::json::Array *Pair = R.getAsArray();
          std::optional<int64_t> First, Last;
          if (Pair && Pair->size() == 2) {
            First = (*Pair)[0].getAsInteger();
            Last = (*Pair)[1].getAsInteger();
          }
          if (!First || !Last || *First < 1 || *Last < *First)
            return lineFilterError(Where +
                                   ": each of \"lines\" must be "
                                   "[first, last] with 1 <= first <= last");
          E.Lines.emplace_back(*First, *Last);
        }
      } else {
        return lineFilterError(Where + ": unknown key \"" + Key.str() + "\"");
      }
    }
    if (E.Name.empty())
      return lineFilterError(Where + " has no \"name\"");
    F.Entries.push_back(std::move(E));
  }
  return F;
}

bool JsonLineFilter::passes(llvm::StringRef File, llvm::StringRef AbsoluteFile,
                            unsigned Line) const {
  if (Entries.empty())
    return true;
  for (const Entry &E : Entries) {
    if (!File.ends_with(E.Name) && !AbsoluteFile.ends_with(E.Name))
      continue;
    return E.Lines.empty() || inRanges(E.Lines, Line);
  }
  return false;
}

std::map<std::string, LineRanges> parseUnifiedDiff(llvm::StringRef Diff) {
  std::map<std::string, LineRanges> Out;
  LineRanges *Current = nullptr;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Diff.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    L = L.rtrim('\r');
    if (L.starts_with("diff ")) {
      Current = nullptr;
    } else if (L.starts_with("+++ ")) {
      // A name with a space is followed by a tab; one with a tab is quoted.
      std::string Path = unquoteGitPath(L.drop_front(4).rtrim('\t'));
      llvm::StringRef P(Path);
      Current = P.consume_front("b/") ? &Out[P.str()] : nullptr; // /dev/null
    } else if (L.starts_with("@@ ") && Current) {
      if (auto R = hunkRange(L))
        Current->push_back(*R);
    }
  }
  return Out;
}

llvm::Expected<ChangedLines>
ChangedLines::create(llvm::StringRef Rev,
                     const std::vector<std::string> &Inputs) {
  if (Rev.empty())
    return llvm::createStringError(
        "rematch: error: --changed-lines needs a git revision");
  ChangedLines C;
  C.Rev = Rev.str();
  std::set<std::string> Checked;
  for (const std::string &In : Inputs) {
    std::string Dir = parentDirectory(In);
    if (!llvm::sys::fs::is_directory(Dir))
      continue; // the missing file is reported as such
    std::optional<std::string> Top = gitTopLevel(Dir);
    if (!Top)
      return llvm::createStringError(
          In + ": error: --changed-lines: the file is not in a git work tree");
    if (!Checked.insert(*Top).second)
      continue;
    if (!verifyRevision(*Top, Rev))
      return llvm::createStringError("rematch: error: --changed-lines: '" +
                                     Rev + "' is not a commit in " + *Top);
  }
  return C;
}

void ChangedLines::load(const std::vector<std::string> &RealFiles,
                        std::string &Warnings) {
  std::map<std::string, std::vector<std::string>> ByTop; // top -> relative
  std::map<std::string, std::optional<std::string>> TopOfDir;
  for (const std::string &F : RealFiles) {
    if (Files.count(F))
      continue;
    Files[F]; // outside any work tree: no changed line
    std::string Dir = parentDirectory(F);
    auto It = TopOfDir.find(Dir);
    if (It == TopOfDir.end())
      It = TopOfDir.emplace(Dir, gitTopLevel(Dir)).first;
    if (!It->second)
      continue;
    llvm::StringRef Rel(F);
    if (Rel.consume_front(*It->second + "/"))
      ByTop[*It->second].push_back(Rel.str());
  }

  for (auto &[Top, Rels] : ByTop) {
    if (!verifyRevision(Top, Rev)) {
      Warnings += "rematch: warning: --changed-lines: '" + Rev +
                  "' is not a commit in " + Top +
                  "; its files count as unchanged\n";
      continue;
    }
    // A long list of files goes to git in slices.
    for (size_t Begin = 0; Begin < Rels.size(); Begin += 500) {
      std::vector<std::string> Slice(Rels.begin() + Begin,
                                     Rels.begin() +
                                         std::min(Rels.size(), Begin + 500));
      std::vector<std::string> DiffArgs = {"--literal-pathspecs",
                                           "diff",
                                           "--no-color",
                                           "--no-ext-diff",
                                           "--no-textconv",
                                           "--no-renames",
                                           "-U0",
                                           "--src-prefix=a/",
                                           "--dst-prefix=b/",
                                           Rev,
                                           "--"};
      DiffArgs.insert(DiffArgs.end(), Slice.begin(), Slice.end());
      GitResult Diff = runGit(Top, DiffArgs);
      std::vector<std::string> LsArgs = {"--literal-pathspecs", "ls-files",
                                         "-z", "--"};
      LsArgs.insert(LsArgs.end(), Slice.begin(), Slice.end());
      GitResult Tracked = runGit(Top, LsArgs);
      if (Diff.ExitCode != 0 || Tracked.ExitCode != 0) {
        Warnings += "rematch: warning: --changed-lines: git failed in " + Top +
                    ": " + (Diff.ExitCode != 0 ? Diff.Error : Tracked.Error) +
                    "\n";
        continue;
      }
      std::map<std::string, LineRanges> Changed = parseUnifiedDiff(Diff.Output);
      llvm::SmallVector<llvm::StringRef, 0> TrackedList;
      llvm::StringRef(Tracked.Output).split(TrackedList, '\0', -1, false);
      std::set<std::string> TrackedSet(TrackedList.begin(), TrackedList.end());
      for (const std::string &Rel : Slice) {
        FileLines &L = Files[Top + "/" + Rel];
        if (!TrackedSet.count(Rel)) {
          L.All = true; // untracked: new to the repository
          continue;
        }
        auto It = Changed.find(Rel);
        if (It != Changed.end())
          L.Lines = It->second;
      }
    }
  }
}

bool ChangedLines::passes(llvm::StringRef RealFile, unsigned Line) const {
  auto It = Files.find(RealFile.str());
  if (It == Files.end())
    return false;
  return It->second.All || inRanges(It->second.Lines, Line);
}

} // namespace rematch::tool
