// Compiled to LLVM IR by the runtime-forward-codegen test: the annotation
// that tells the checker which parameter is recomputed must not reach the
// compiler, whose llvm.var.annotation would keep the callable in memory.
#include "rematch/segment.h"

int checkpointedDouble(rematch::Segment &Seg, int X) {
  return Seg.forward([X] { return X * 2; });
}
