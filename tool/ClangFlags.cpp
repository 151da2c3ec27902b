//===--- ClangFlags.cpp - compile commands clang accepts ------------------===//

#include "ClangFlags.h"
#include "clang/Driver/Options.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include <set>

namespace rematch::tool {

std::vector<std::string>
withoutUnknownFlags(const std::vector<std::string> &CommandLine) {
  if (CommandLine.size() < 2)
    return CommandLine;
  std::vector<const char *> Argv;
  for (size_t I = 1; I < CommandLine.size(); ++I)
    Argv.push_back(CommandLine[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  const llvm::opt::OptTable &Table = clang::driver::getDriverOptTable();
  llvm::opt::InputArgList Args =
      Table.ParseArgs(Argv, MissingIndex, MissingCount,
                      llvm::opt::Visibility(clang::driver::options::ClangOption));
  std::set<unsigned> Unknown;
  for (const llvm::opt::Arg *A :
       Args.filtered(clang::driver::options::OPT_UNKNOWN))
    Unknown.insert(A->getIndex());
  if (Unknown.empty())
    return CommandLine;
  std::vector<std::string> Out{CommandLine.front()};
  for (size_t I = 1; I < CommandLine.size(); ++I)
    if (!Unknown.count(I - 1))
      Out.push_back(CommandLine[I]);
  return Out;
}

namespace {

class ClangFlagsDatabase : public clang::tooling::CompilationDatabase {
public:
  explicit ClangFlagsDatabase(
      std::unique_ptr<clang::tooling::CompilationDatabase> Inner)
      : Inner(std::move(Inner)) {}

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    return clean(Inner->getCompileCommands(File));
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner->getAllFiles();
  }
  std::vector<clang::tooling::CompileCommand>
  getAllCompileCommands() const override {
    return clean(Inner->getAllCompileCommands());
  }

private:
  static std::vector<clang::tooling::CompileCommand>
  clean(std::vector<clang::tooling::CompileCommand> Cmds) {
    for (clang::tooling::CompileCommand &C : Cmds)
      C.CommandLine = withoutUnknownFlags(C.CommandLine);
    return Cmds;
  }

  std::unique_ptr<clang::tooling::CompilationDatabase> Inner;
};

} // namespace

std::unique_ptr<clang::tooling::CompilationDatabase>
clangFlagsOnly(std::unique_ptr<clang::tooling::CompilationDatabase> Inner) {
  return std::make_unique<ClangFlagsDatabase>(std::move(Inner));
}

} // namespace rematch::tool
