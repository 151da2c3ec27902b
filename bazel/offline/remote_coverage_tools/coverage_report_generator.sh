#!/bin/sh
echo "coverage reports need the real remote_coverage_tools" >&2
exit 1
