// rematch_add_lint must report the logging call in the checkpointed lambda.
#include <rematch/rematch.h>

#include <cstdio>

float step(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    std::printf("x %f\n", x);
    return x * 2;
  });
}
