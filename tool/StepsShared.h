//===--- StepsShared.h - what summarize and report agree on -----*- C++ -*-===//
#ifndef REMATCH_TOOL_STEPSSHARED_H
#define REMATCH_TOOL_STEPSSHARED_H

#include "CommandLine.h"
#include "FactsFile.h"
#include "Scheduler.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace rematch::tool {

// This build of rematch as a .rsum records it: its version, LLVM's, and the
// content of its built-in models (by name and hash, never by path or time).
std::string toolIdentity();

// The settings of a summarize run, paths relative to Root.
FactsSettings settingsOf(const CliOptions &O, llvm::StringRef Root);

// Calls Map on every path of an outcome (its file, its findings, their
// notes, its fix-its); Text on its error messages.
void forEachOutcomePath(FileOutcome &O,
                        llvm::function_ref<void(std::string &)> Map,
                        llvm::function_ref<void(std::string &)> Text);

// The root in an argument written @ROOT@, and back.
std::string hideRoot(llvm::StringRef Arg, llvm::StringRef Root);
std::string showRoot(llvm::StringRef Arg, llvm::StringRef Root);

// The facts of every file the inputs (.rsum and .rlink files) hold, each
// once; Named, if given, receives the places in them of the .rsum inputs'
// files. Two
// different facts for one file, or facts made with other settings, are an
// error naming the inputs.
llvm::Expected<std::vector<FileFacts>>
gatherFacts(const std::vector<std::string> &Inputs,
            std::vector<size_t> *Named);

} // namespace rematch::tool

#endif
