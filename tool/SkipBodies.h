//===--- SkipBodies.h - the parse that skips unchanged bodies ---*- C++ -*-===//
#ifndef REMATCH_TOOL_SKIPBODIES_H
#define REMATCH_TOOL_SKIPBODIES_H

#include <string>
#include <vector>

namespace rematch::tool {

// The compiler arguments that let the parse skip the bodies of the
// AnalysisHost's BodyReplay (SkipBodies.cpp).
std::vector<std::string> skipBodiesArgs();

} // namespace rematch::tool

#endif
