#!/usr/bin/env python3
"""Oracles nobody here wrote, on any document: schemathesis against the generated server of each
document, served by `cargo xtask serve-mock` (the real router and validation, answering with the
document's examples or values sampled from its schemas).

    codegen/tests/oracles/run.py [SPEC...]        these documents (default: the whole corpus)
    ORACLE_SAMPLE=N codegen/tests/oracles/run.py  N corpus documents, a different set each day
    ORACLE_EXAMPLES=N                             examples per operation (default 20)

Writes target/oracles/report.md (one row per document) and prints it. Exits 1 when a document's
mock does not build or start, or when schemathesis finds a failure in a check listed in GATED.
"""

import base64
import datetime
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "target" / "oracles"
SCHEMATHESIS = ROOT / ".venv" / "bin" / "schemathesis"
CHECKS = [
    "not_a_server_error",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
    "missing_required_header",
    "unsupported_method",
]
# The failures that fail the run; the others are reported per document until they hold
# everywhere (see the report).
GATED = {"ST100", "ST105"}


def corpus():
    specs = sorted(p for p in (ROOT / "codegen" / "tests" / "corpus").iterdir() if p.suffix in (".json", ".yaml", ".yml"))
    sample = int(os.environ.get("ORACLE_SAMPLE", "0"))
    if sample:
        start = datetime.date.today().timetuple().tm_yday * sample % len(specs)
        specs = [specs[(start + i) % len(specs)] for i in range(sample)]
    return specs


def credentials(spec):
    """Headers that satisfy the document's security schemes sent in headers or cookies."""
    try:
        doc = yaml.safe_load(spec.read_text())
    except Exception:
        return []
    schemes = {}
    if isinstance(doc, dict):
        schemes = (doc.get("components") or {}).get("securitySchemes") or doc.get("securityDefinitions") or {}
    headers, cookies = [], []
    for scheme in schemes.values() if isinstance(schemes, dict) else []:
        if not isinstance(scheme, dict):
            continue
        kind, where = scheme.get("type"), scheme.get("in")
        if kind == "apiKey" and where == "header":
            headers.append(f"{scheme.get('name')}: oracle-key")
        elif kind == "apiKey" and where == "cookie":
            cookies.append(f"{scheme.get('name')}=oracle-key")
        elif kind == "basic" or (kind == "http" and str(scheme.get("scheme", "")).lower() == "basic"):
            token = base64.b64encode(b"oracle:secret").decode()
            headers.append(f"Authorization: Basic {token}")
        elif kind in ("http", "oauth2", "openIdConnect"):
            headers.append("Authorization: Bearer oracle-token")
    # One Authorization header: the first scheme's.
    seen, unique = set(), []
    for header in headers:
        name = header.split(":", 1)[0].lower()
        if name not in seen:
            seen.add(name)
            unique.append(header)
    if cookies:
        unique.append("Cookie: " + "; ".join(cookies))
    return unique


def start_mock(spec, log):
    """Builds and starts the mock; returns the process and its base URL, or None and why."""
    xtask = ROOT / "target" / "release" / "xtask"
    process = subprocess.Popen(
        [str(xtask), "serve-mock", "--spec", str(spec), "--addr", "127.0.0.1:0", "--dir", str(OUT / "crates")],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        cwd=ROOT,
    )
    line = process.stdout.readline().strip()
    if not line.startswith("http://"):
        process.wait()
        return None, "did not build or start (see the log)"
    return process, line


def run_one(spec, examples):
    name = spec.stem
    log_path = OUT / f"{name}.log"
    with open(log_path, "w") as log:
        started = time.monotonic()
        process, url = start_mock(spec, log)
        if process is None:
            return {"name": name, "status": url, "failures": {}, "seconds": time.monotonic() - started}
        try:
            command = [
                str(SCHEMATHESIS), "run", str(spec), "--url", url,
                "--checks", ",".join(CHECKS), "--mode", "all", "--max-examples", str(examples),
                "--seed", "1", "--no-color", "--phases", "examples,coverage,fuzzing",
            ]
            for header in credentials(spec):
                command += ["-H", header]
            result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=900)
            output = result.stdout + result.stderr
        except subprocess.TimeoutExpired:
            output = "schemathesis timed out"
        finally:
            process.terminate()
            process.wait()
        log.write(output)
    failures = {}
    for code, title, count in re.findall(r"❌ (ST\d+) ([^:\n]+): (\d+)", output):
        failures[f"{code} {title.strip()}"] = int(count)
    tested = re.search(r"Tested: (\d+)", output)
    status = "ran" if tested else "schemathesis did not run (see the log)"
    return {
        "name": name,
        "status": status,
        "operations": tested.group(1) if tested else "-",
        "failures": failures,
        "seconds": time.monotonic() - started,
    }


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    specs = [Path(a).resolve() for a in sys.argv[1:]] or corpus()
    examples = int(os.environ.get("ORACLE_EXAMPLES", "20"))
    subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "xtask"], cwd=ROOT, check=True)
    rows, failed = [], False
    for spec in specs:
        row = run_one(spec, examples)
        rows.append(row)
        gated = {k: v for k, v in row["failures"].items() if k.split()[0] in GATED}
        failed |= row["status"] != "ran" or bool(gated)
        total = sum(row["failures"].values())
        print(f"{row['name']:<32} {row['status']:<10} failures {total:>3}  {row['seconds']:.0f} s", flush=True)
    lines = [
        "| document | run | operations | failures | by check |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        kinds = ", ".join(f"{k}: {v}" for k, v in sorted(row["failures"].items())) or "-"
        lines.append(
            f"| {row['name']} | {row['status']} | {row.get('operations', '-')} | {sum(row['failures'].values())} | {kinds} |"
        )
    clean = sum(1 for r in rows if r["status"] == "ran" and not r["failures"])
    lines.append("")
    lines.append(f"{clean} of {len(rows)} documents without a failure; gated checks: {', '.join(sorted(GATED))}.")
    report = "\n".join(lines) + "\n"
    (OUT / "report.md").write_text(report)
    print(report)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
