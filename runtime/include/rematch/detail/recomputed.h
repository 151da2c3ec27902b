// How rematch's own API tells the static checker which of its parameters is
// recomputed code: [[clang::annotate("rematch::recomputed", sources...)]] on
// the parameter, the sources being the random sources the function replays
// (docs/checks/README.md, "What is checkpointed"). Only the checker sees
// it: clang-tidy, and so rematch, defines __clang_analyzer__. A compiler
// sees nothing: clang would keep an annotated parameter in memory for an
// llvm.var.annotation (doubling the cost of a trivial forward), and g++
// would warn about the attribute.
#ifndef REMATCH_DETAIL_RECOMPUTED_H
#define REMATCH_DETAIL_RECOMPUTED_H

#if defined(__clang_analyzer__)
#define REMATCH_DETAIL_RECOMPUTED [[clang::annotate("rematch::recomputed")]]
#define REMATCH_DETAIL_RECOMPUTED_REPLAYING(source)                            \
  [[clang::annotate("rematch::recomputed", source)]]
#else
#define REMATCH_DETAIL_RECOMPUTED
#define REMATCH_DETAIL_RECOMPUTED_REPLAYING(source)
#endif

#endif
