//===--- AnalysisHost.cpp - what the program gives the checks -------------===//

#include "AnalysisHost.h"

namespace clang::tidy::rematch {

namespace {
thread_local const AnalysisHost *CurrentHost = nullptr;
} // namespace

ScopedAnalysisHost::ScopedAnalysisHost(const AnalysisHost &Host)
    : Outer(CurrentHost) {
  CurrentHost = &Host;
}

ScopedAnalysisHost::~ScopedAnalysisHost() { CurrentHost = Outer; }

const AnalysisHost *currentAnalysisHost() { return CurrentHost; }

} // namespace clang::tidy::rematch
