// rematch-logging: console and logging-library output from checkpointed code;
// the recomputation in backward logs every line again. A whole output
// statement is one diagnostic, at the start of its expression.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
// OPTIONS: CheckpointFunctions=nn::checkpoint,Trainer::run
// OPTIONS: LoggingFunctions=telemetry::emit
#include "rematch-mock.h"

namespace telemetry {
// A project logger, known to the check only through LoggingFunctions.
void emit(const char *event, float value);
} // namespace telemetry

namespace ui {
// Look-alikes with no effects at all.
inline void print(const char *) {}
inline void info(const char *) {}
} // namespace ui

float g_scale = 2;
bool g_verbose = false;

// Set outside the checkpointed code between steps.
void configure(float scale, bool verbose) {
  g_scale = scale;
  g_verbose = verbose;
}

// ---- positives ---------------------------------------------------------

float positives_iostreams(rematch::Segment &seg, float x) {
  return seg.forward([x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'; it runs again during backward
    std::cout << "x = " << x << std::endl; // expect: rematch-logging {{checkpointed lambda logs through 'std::cout'; the recomputation in backward logs again}}
    std::cout << "a" // expect: rematch-logging {{'std::cout'}}
              << "b"
              << std::endl;
    std::cerr << "warning\n"; // expect: rematch-logging {{'std::cerr'}}
    std::clog << x; // expect: rematch-logging {{'std::clog'}}
    std::cout.write("abc", 3); // expect: rematch-logging {{logs through 'std::cout'}}
    std::cout.put('\n'); // expect: rematch-logging {{logs through 'std::cout'}}
    std::cout << g_scale; // expect: rematch-logging {{logs through 'std::cout'}}, rematch-global-read {{'g_scale'}}
    return x;
  });
}

void positives_c_stdio(rematch::Segment &seg, int step) {
  seg.recompute([step] { // expect-note: call to 'rematch::Segment::recompute'
    printf("step %d\n", step); // expect: rematch-logging {{'printf'}}
    std::printf("step %d\n", step); // expect: rematch-logging {{logs through 'printf'}}
    fprintf(stdout, "step %d\n", step); // expect: rematch-logging {{'fprintf'}}
    fprintf(stderr, "step %d\n", step); // expect: rematch-logging {{logs through 'fprintf'}}
    puts("step"); // expect: rematch-logging {{'puts'}}
    putchar('.'); // expect: rematch-logging {{logs through 'putchar'}}
    perror("step"); // expect: rematch-logging {{logs through 'perror'}}
    write(1, "x\n", 2); // expect: rematch-logging {{logs through 'write'}}
    write(2, "x\n", 2); // expect: rematch-logging {{logs through 'write'}}
    syslog(LOG_INFO, "step %d", step); // expect: rematch-logging {{'syslog'}}
    std::print("step {}\n", step); // expect: rematch-logging {{logs through 'std::print'}}
    std::println("step {}", step); // expect: rematch-logging {{logs through 'std::println'}}
  });
}

void positives_libraries(int step) {
  nn::checkpoint([step] { // expect-note: 'nn::checkpoint'
    spdlog::info("step {}", step); // expect: rematch-logging {{'spdlog::info'}}
    spdlog::warn("step {}", step); // expect: rematch-logging {{logs through 'spdlog::warn'}}
    spdlog::error("step {}", step); // expect: rematch-logging {{logs through 'spdlog::error'}}
    spdlog::debug("step {}", step); // expect: rematch-logging {{logs through 'spdlog::debug'}}
    spdlog::trace("step {}", step); // expect: rematch-logging {{logs through 'spdlog::trace'}}
    spdlog::critical("step {}", step); // expect: rematch-logging {{logs through 'spdlog::critical'}}
    fmt::print("step {}\n", step); // expect: rematch-logging {{'fmt::print'}}
    LOG(INFO) << "step " << step; // expect: rematch-logging {{logs through 'google::LogMessage::stream'}}
    LOG(WARNING) << "slow"; // expect: rematch-logging {{logs through 'google::LogMessage::stream'}}
    telemetry::emit("step", 1.0f); // expect: rematch-logging {{'telemetry::emit'}}
  });
}

// spdlog logger objects, reached through a captured pointer and a call.
void positives_logger_objects(Trainer &trainer) {
  spdlog::logger *log = spdlog::default_logger_raw();
  trainer.run([log] { // expect-note: callable is checkpointed
    log->info("step"); // expect: rematch-logging {{logs through 'spdlog::logger::info'}}
    spdlog::get("train")->warn("slow"); // expect: rematch-logging {{logs through 'spdlog::logger::warn'}}
  });
}

// An ordinary runtime condition still runs during the recomputation.
void positives_runtime_condition(rematch::Segment &seg, bool verbose) {
  seg.forward([verbose] { // expect-note: callable is checkpointed
    if (verbose)
      std::cout << "verbose\n"; // expect: rematch-logging {{logs through 'std::cout'}}
    if (g_verbose) // expect: rematch-global-read {{reads mutable global 'g_verbose'}}
      puts("verbose"); // expect: rematch-logging {{logs through 'puts'}}
  });
}

// The other callable forms.
struct LoggingStep {
  int id_ = 0;
  void operator()() const {
    printf("functor %d\n", id_); // expect: rematch-logging {{checkpointed functor 'LoggingStep' logs through 'printf'}}
  }
};
void log_step() {
  std::cerr << "named\n"; // expect: rematch-logging {{checkpointed function 'log_step' logs through 'std::cerr'}}
}
struct Block {
  int id_ = 0;
  rematch::Segment seg_;
  void forward() {
    seg_.forward([this] { std::cout << id_; }); // expect: rematch-logging {{logs through 'std::cout'}} expect-note: callable is checkpointed
  }
};
void positives_callable_forms(rematch::Segment &seg,
                              const ttml::autograd::TensorPtr &in) {
  seg.forward(LoggingStep{}); // expect-note: callable is checkpointed
  seg.forward(&log_step); // expect-note: callable is checkpointed
  run_block([] { puts("block"); }); // expect: rematch-logging {{logs through 'puts'}} expect-note: callable is checkpointed
  auto body = [] { spdlog::info("body"); }; // expect: rematch-logging {{logs through 'spdlog::info'}}
  seg.forward(body); // expect-note: callable is checkpointed
  seg.forward(std::function<void()>([] { std::clog << 1; })); // expect: rematch-logging {{logs through 'std::clog'}} expect-note: callable is checkpointed
  int calls = 0;
  seg.forward([calls]() mutable { printf("%d\n", calls); }); // expect: rematch-logging {{logs through 'printf'}} expect-note: callable is checkpointed
  rematch::torch::checkpoint([](int s) { printf("%d\n", s); }, 3); // expect: rematch-logging {{logs through 'printf'}} expect-note: callable is checkpointed
  mlx::core::checkpoint([](const std::vector<mlx::core::array> &xs) { // expect-note: callable is checkpointed
    fmt::print("mlx\n"); // expect: rematch-logging {{logs through 'fmt::print'}}
    return xs;
  });
  ttml::models::common::transformer::memory_efficient_runner( // expect-note: callable is checkpointed
      [](const ttml::autograd::TensorPtr &t, const ttml::autograd::TensorPtr &) {
        std::cout << "ttml\n"; // expect: rematch-logging {{logs through 'std::cout'}}
        return t;
      },
      in, in);
}

// ---- negatives ---------------------------------------------------------

// Formatting into memory is not output.
float negatives_in_memory(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    std::ostringstream os;
    os << "x = " << x;
    char buf[32];
    snprintf(buf, sizeof buf, "%f", x);
    sprintf(buf, "%f", x);
    std::string s = fmt::format("{}", x);
    ui::print("x");
    ui::info("x");
    return x + s.size();
  });
}

// Other families: a file is I/O, not logging.
void negatives_other_families(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed
    FILE *f = fopen("log.txt", "w"); // expect: rematch-io {{performs I/O through 'fopen'}}
    fprintf(f, "x\n"); // expect: rematch-io {{performs I/O through 'fprintf'}}
    write(3, "x", 1); // expect: rematch-io {{performs I/O through 'write'}}
  });
}

// Guarded, in both forms, with and without braces.
void negatives_guarded(rematch::Segment &seg, int step) {
  seg.forward([step] {
    if (!rematch::recomputing()) {
      std::cout << "step " << step << std::endl;
      spdlog::info("step {}", step);
    }
    if (!rematch::recomputing())
      printf("step %d\n", step);
    if (!rematch::recomputing()) LOG(INFO) << "step";
  });
  seg.forward([step] {
    if (rematch::recomputing())
      return;
    std::cout << "step " << step << std::endl;
  });
}

// Suppressed; a NOLINT naming another check suppresses nothing here.
void negatives_nolint(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed
    std::cout << "x\n"; // NOLINT
    std::cout << "x\n"; // NOLINT(rematch-logging)
    // NOLINTNEXTLINE(rematch-logging)
    printf("x\n");
    // NOLINTBEGIN(rematch-logging)
    puts("x");
    spdlog::warn("x");
    // NOLINTEND(rematch-logging)
    std::cout << g_scale; // NOLINT(rematch-logging) expect: rematch-global-read {{reads mutable global 'g_scale'}}
    puts("x"); // NOLINT(rematch-io) expect: rematch-logging {{logs through 'puts'}}
  });
}

// Discarded if constexpr branch.
constexpr bool kTrace = false;
void negatives_if_constexpr(rematch::Segment &seg, int step) {
  seg.forward([=] {
    if constexpr (kTrace) {
      std::cout << "step " << step << std::endl;
    }
  });
}

// Evaluated by the caller, or not checkpointed at all.
void negatives_not_checkpointed(rematch::Segment &seg, int step) {
  seg.forward([n = printf("once\n")] { return n; });
  rematch::torch::checkpoint([](int s) { return s; }, printf("once\n"));
  apply([] { puts("apply"); });
  [] { std::cout << "direct\n"; }();
  std::cout << "outside " << step << std::endl;
  auto later = [] { spdlog::info("later"); };
  later();
}

// More look-alikes: in-memory streams and formatting, a lambda variable that
// is only given to an ordinary function or called.
int negatives_more_look_alikes(rematch::Segment &seg, int step) {
  int n = seg.forward([step] {
    std::ostringstream a;
    std::ostringstream b;
    a << step << "x";
    b.write("abc", 3);
    b.put('x');
    char line[64];
    snprintf(line, sizeof line, "%d", step);
    std::string msg = fmt::format("step {}", step);
    std::string copy = msg;
    ui::print(msg.c_str());
    ui::info("done");
    return static_cast<int>(strlen(line) + copy.size());
  });
  auto log_once = [] { puts("once"); };
  apply(log_once);
  log_once();
  return n;
}
