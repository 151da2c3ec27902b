//===--- fuzz_model.cpp - libFuzzer target for the model-file parser ------===//
//
// Any byte string must either parse into a model or fail with an error in
// the documented "<path>:<line>:<column>: error: <what>" form; it must never
// crash, hang or leak.
//
//===----------------------------------------------------------------------===//

#include "Model.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<clang::tidy::rematch::ModelFile> M =
      clang::tidy::rematch::parseModel(Text, "fuzz.yaml");
  if (M) {
    // An accepted model names its entries and where they stand.
    for (const auto &E : M->Functions)
      if (E.Name.empty() || E.Id.empty() || E.Line == 0)
        std::abort();
    for (const auto &E : M->Rules)
      if (E.Id.empty() || E.Line == 0)
        std::abort();
    return 0;
  }
  std::string Message = llvm::toString(M.takeError());
  llvm::StringRef Ref(Message);
  if (!Ref.starts_with("fuzz.yaml:") || !Ref.contains(": error: "))
    std::abort(); // the error does not follow the documented form
  return 0;
}
