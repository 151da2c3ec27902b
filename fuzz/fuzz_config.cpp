//===--- fuzz_config.cpp - libFuzzer target for the .rematch.yaml parser --===//
//
// Any byte string must either parse or fail with an error that names the file
// in the documented "<path>:<line>:<column>: error: <what>" form; it must
// never crash, hang or leak.
//
//===----------------------------------------------------------------------===//

#include "Config.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<clang::tidy::rematch::Config> C =
      clang::tidy::rematch::parseConfig(Text, "fuzz.yaml");
  if (C) {
    // The accepted configuration must be usable as is.
    clang::tidy::rematch::Config Merged;
    Merged.merge(*C);
    return 0;
  }
  std::string Message = llvm::toString(C.takeError());
  if (!llvm::StringRef(Message).starts_with("fuzz.yaml:") ||
      !llvm::StringRef(Message).contains(": error: "))
    std::abort(); // the error does not follow the documented form
  return 0;
}
