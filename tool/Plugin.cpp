//===--- Plugin.cpp - the rematch checks as a clang-tidy plugin -----------===//
//
// librematch-tidy.so holds the check objects and nothing else: loaded with
// `clang-tidy-19 --load`, its module registers itself with the registry of
// the clang-tidy process, which provides every clang symbol.
//
//===----------------------------------------------------------------------===//

extern volatile int RematchModuleAnchorSource;

// Keeps the module's translation unit in the plugin.
[[maybe_unused]] static int RematchPluginAnchor = RematchModuleAnchorSource;
