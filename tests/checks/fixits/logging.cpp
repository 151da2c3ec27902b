// Fix-it test for rematch-logging: the logging statement is prefixed with
// `if (!rematch::recomputing()) ` so it runs in the original forward only.
// run_fixit_test.py compares the fixed file with logging.cpp.expected.
#include "rematch-mock.h"

#define TRACE(msg) puts(msg)

float statements(rematch::Segment &seg, float x) {
  return seg.forward([x] { // expect-note: callable is checkpointed
    std::cout << "x = " << x << std::endl;
    printf("x = %f\n", x);
    spdlog::info("x = {}", x);
    std::cerr << "a"
              << "b" << std::endl;
    return x;
  });
}

void in_a_block(rematch::Segment &seg, int step) {
  seg.forward([step] { // expect-note: callable is checkpointed
    for (int i = 0; i < step; ++i) {
      fmt::print("i = {}\n", i);
    }
  });
}

// Not offered: the output is part of a larger expression or declaration,
// or comes from a macro.
int not_offered(rematch::Segment &seg, int step) {
  return seg.forward([step] { // expect-note: callable is checkpointed
    int n = printf("step %d\n", step);
    TRACE("step");
    LOG(INFO) << "step";
    return n + step;
  });
}

// Already guarded: nothing to fix.
void guarded(rematch::Segment &seg) {
  seg.forward([] {
    if (!rematch::recomputing())
      puts("once");
  });
}
