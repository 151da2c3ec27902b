#!/usr/bin/env python3
"""Validate SARIF files against the SARIF 2.1.0 JSON schema.

Usage: validate_sarif.py <schema.json> <file.sarif> [<file.sarif> ...]

Exits 0 when every file is valid, 1 when any is not (each error is printed
with its JSON path), 2 on a usage error or an unreadable file. Uses the
python3-jsonschema package; "format" keywords (uri, uri-reference,
date-time) are checked where jsonschema has a checker for them.
"""

import json
import sys

import jsonschema


def json_path(path):
    """Render a jsonschema error path as $.runs[0].results[1].level."""
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def load(path):
    try:
        # "-" reads standard input, so a tool's output can be piped in.
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: error: cannot read JSON: {e}", file=sys.stderr)
        sys.exit(2)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema = load(argv[1])
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    format_checker = jsonschema.FormatChecker()
    # jsonschema checks "uri" only when python3-rfc3987 is installed, and
    # skips it silently otherwise; say so, since SARIF is full of URIs.
    if "uri" not in format_checker.checkers:
        print("note: URI formats not checked; install python3-rfc3987",
              file=sys.stderr)
    validator = validator_class(schema, format_checker=format_checker)

    status = 0
    for path in argv[2:]:
        document = load(path)
        errors = sorted(validator.iter_errors(document),
                        key=lambda e: list(map(str, e.absolute_path)))
        for error in errors:
            print(f"{path}: error: {json_path(error.absolute_path)}: "
                  f"{error.message}", file=sys.stderr)
        if errors:
            status = 1
        else:
            print(f"{path}: valid SARIF")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
