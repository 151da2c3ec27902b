// Everything a check test includes: the mocked standard library, the mocked
// third-party libraries, the mocked rematch runtime and the shared entry
// points. Compiled with -isystem, so nothing in here is ever reported.
#ifndef REMATCH_TEST_MOCK_H
#define REMATCH_TEST_MOCK_H
#include "mock-std.h"
#include "mock-libs.h"
#include "mock-rematch.h"
#include "entry-points.h"
#endif
