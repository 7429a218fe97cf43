#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# kcidb_validate.py SCHEMA REPORT...: check KCIDB reports against the I/O
# schema with a Draft-07 validator (Debian's python3-jsonschema), formats
# (uri, date-time, email) included.  One line per report, "REPORT: valid"
# or "REPORT: invalid: WHERE: WHAT" for each error.  Exit status: 0 when
# every report is valid, 1 when one is not, 2 when the schema or a report
# cannot be read.
import json
import sys

import jsonschema


def where(err):
    return "/".join(str(p) for p in err.absolute_path) or "(top level)"


def main(argv):
    if len(argv) < 3:
        print("usage: kcidb_validate.py SCHEMA REPORT...", file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            schema = json.load(f)
        jsonschema.Draft7Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"kcidb_validate.py: {argv[1]}: not a usable schema: {e}", file=sys.stderr)
        return 2
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    status = 0
    for path in argv[2:]:
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            print(f"kcidb_validate.py: {path}: cannot read a report: {e}", file=sys.stderr)
            return 2
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
        if not errors:
            print(f"{path}: valid")
            continue
        status = 1
        for err in errors:
            print(f"{path}: invalid: {where(err)}: {err.message}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
