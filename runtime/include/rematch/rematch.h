// rematch runtime: keeps activation-checkpoint recomputation honest.
//
//   rematch::Generator<std::mt19937> gen(seed);   // replayed by segments
//   rematch::Segment seg("block3");
//   auto y = seg.forward([&] { return block(x, gen); });
//   ...
//   auto y2 = seg.recompute([&] { return block(x, gen); }); // same draws
//
// Compile with REMATCH_AUDIT=1 (rematch_audit(<target>) in CMake) to record
// both passes and report divergences and repeated side effects. See
// docs/runtime.md.
#ifndef REMATCH_REMATCH_H
#define REMATCH_REMATCH_H

#include "rematch/audit.h"
#include "rematch/fingerprint.h"
#include "rematch/generator.h"
#include "rematch/recomputing.h"
#include "rematch/registry.h"
#include "rematch/report.h"
#include "rematch/segment.h"
#include "rematch/tracked.h"

#endif
