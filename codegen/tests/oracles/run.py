#!/usr/bin/env python3
"""Oracles nobody here wrote, on any document:

- schemathesis against the generated server of each document, served by `cargo xtask serve-mock`
  (the real router and validation, answering with the document's examples or values sampled
  from its schemas);
- the generated client of each document, calling every operation with arguments sampled from
  the document (`cargo xtask client-probe`), against Prism's mock of the same document: every
  request must be one Prism accepts and every reply must decode into the operation's type.

    codegen/tests/oracles/run.py [SPEC...]        these documents (default: the whole corpus)
    ORACLE_SAMPLE=N codegen/tests/oracles/run.py  N corpus documents up to 300 KB (whose servers
                                                  build in a minute), a different set each day
    ORACLE_EXAMPLES=N                             examples per operation (default 20)
    ORACLE_TIMEOUT=S                              seconds each oracle may take per document
                                                  (default 900; the largest documents need more)
    ORACLE_PHASES=P                               schemathesis' phases (default: see `phases`)

Writes target/oracles/report.md (one row per document) and prints it. Exits 1 when a document's
mock does not build or start, or when schemathesis finds a failure in a check listed in GATED.
"""

import json
import datetime
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "target" / "oracles"
SCHEMATHESIS = ROOT / ".venv" / "bin" / "schemathesis"
PRISM = Path(os.environ.get("PRISM", ROOT / ".tools" / "node_modules" / ".bin" / "prism"))
TIMEOUT = int(os.environ.get("ORACLE_TIMEOUT", "900"))
CHECKS = [
    "not_a_server_error",
    # content_type_conformance, reading Swagger 2.0 replies without a schema as its specification
    # does (hooks.py).
    "content_type_conformance_swagger2",
    "response_headers_conformance",
    # response_schema_conformance, with HTTP's empty 204, 205 and 304 replies (hooks.py).
    "response_schema_conformance_http",
    "negative_data_rejection",
    "positive_data_acceptance",
    "missing_required_header",
    "unsupported_method",
]
# The failures that fail the run (a 5xx for a request the server should have answered); the
# others are reported per document until they hold everywhere (see REPORT.md).
GATED = {"ST101"}


# Documents past this size are large: they are left out of the daily sample and run without
# schemathesis' coverage phase.
LARGE = 300 * 1024


def phases(spec):
    """schemathesis' phases for a document. The coverage phase writes a variant of every keyword
    of every property of a body; on a large document that is hours (one operation of Argo CD's
    took over five minutes), so large documents have their examples tried and are fuzzed."""
    return os.environ.get("ORACLE_PHASES") or (
        "examples,coverage,fuzzing" if spec.stat().st_size <= LARGE else "examples,fuzzing"
    )


def corpus():
    specs = sorted(p for p in (ROOT / "codegen" / "tests" / "corpus").iterdir() if p.suffix in (".json", ".yaml", ".yml"))
    sample = int(os.environ.get("ORACLE_SAMPLE", "0"))
    if sample:
        specs = [p for p in specs if p.stat().st_size <= LARGE]
        start = datetime.date.today().timetuple().tm_yday * sample % len(specs)
        specs = [specs[(start + i) % len(specs)] for i in range(sample)]
    return specs


def load(spec):
    try:
        doc = yaml.safe_load(spec.read_text())
    except Exception:
        return {}
    return doc if isinstance(doc, dict) else {}


def config(doc):
    """A schemathesis.toml for the document: credentials for each security scheme, and the checks
    a rule (never a document) turns off for an operation where the oracle cannot tell right from
    wrong:

    - form and multipart bodies carry text, so a field "of the wrong JSON type" arrives as valid
      text: negative_data_rejection is off for operations with such bodies;
    - an operation that only switches protocols (101) cannot be completed by an HTTP fuzzer:
      positive_data_acceptance is off for it.

    And the statuses schemathesis leaves out of the rejections negative_data_rejection accepts
    that answer a request past the server's size limits: 413 (a body), 414 (a request target) and
    431 (the headers, or a head too large to read), each as much a refusal as a 400.
    """
    lines = ["[checks]", "enabled = false"] + [f"{check}.enabled = true" for check in CHECKS]
    rejections = ["400", "401", "403", "404", "405", "406", "409", "413", "414", "415", "422", "428", "429", "431", "5xx"]
    lines += [f"negative_data_rejection.expected-statuses = {json.dumps(rejections)}", ""]
    components = doc.get("components") or {}
    schemes = components.get("securitySchemes") or doc.get("securityDefinitions") or {}
    for name, scheme in (schemes.items() if isinstance(schemes, dict) else []):
        if not isinstance(scheme, dict):
            continue
        kind = scheme.get("type")
        lines.append(f"[auth.openapi.{json.dumps(name)}]")
        if kind == "apiKey":
            lines.append('api_key = "oracle-key"')
        elif kind == "basic" or (kind == "http" and str(scheme.get("scheme", "")).lower() == "basic"):
            lines += ['username = "oracle"', 'password = "secret"']
        else:
            lines.append('bearer = "oracle-token"')
    for path, item in (doc.get("paths") or {}).items():
        if not isinstance(item, dict):
            continue
        for method, op in item.items():
            if method not in ("get", "put", "post", "delete", "options", "head", "patch", "trace") or not isinstance(op, dict):
                continue
            label = json.dumps(f"{method.upper()} {path}")
            body = op.get("requestBody") or {}
            content = body.get("content") or {} if isinstance(body, dict) else {}
            consumes = op.get("consumes") or doc.get("consumes") or []
            params = op.get("parameters") or []
            textual = any(ct.startswith(("multipart/", "application/x-www-form-urlencoded")) for ct in list(content) + list(consumes))
            textual |= any(isinstance(p, dict) and p.get("in") == "formData" for p in params)
            if textual:
                lines += ["", "[[operations]]", f"include-name = {label}", "checks.negative_data_rejection.enabled = false"]
            statuses = [str(code) for code in (op.get("responses") or {})]
            if statuses and all(code == "101" or not code.startswith(("1", "2", "3")) for code in statuses) and "101" in statuses:
                lines += ["", "[[operations]]", f"include-name = {label}", "checks.positive_data_acceptance.enabled = false"]
    return "\n".join(lines) + "\n"


def start_mock(spec, log):
    """Builds and starts the mock; returns the process and its base URL, or None and why."""
    xtask = ROOT / "target" / "release" / "xtask"
    process = subprocess.Popen(
        [str(xtask), "serve-mock", "--spec", str(spec), "--addr", "127.0.0.1:0", "--dir", str(OUT / "crates")],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        cwd=ROOT,
        # Its own process group, so that stopping it stops the mock server it starts too.
        start_new_session=True,
    )
    line = process.stdout.readline().strip()
    if not line.startswith("http://"):
        process.wait()
        return None, "did not build or start (see the log)"
    return process, line


def free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_client(spec, log):
    """The client probe against Prism; returns (operations that worked, failed, skipped, those
    whose reply Prism made outside the document's schema, those refused where the document
    allows no value as written, and those whose reply the client refused where the generator
    warned it reads a schema narrower than written)."""
    port = free_port()
    prism = subprocess.Popen([str(PRISM), "mock", "-p", str(port), str(spec)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        # Prism reads a large document for minutes on this machine; without its word that it
        # listens, every call would fail for want of a server, not for the client.
        deadline = time.monotonic() + 300
        listening, said = False, []
        while time.monotonic() < deadline and not listening:
            line = prism.stdout.readline()
            if not line:
                break
            said.append(line)
            listening = "Prism is listening" in line
        if not listening or prism.poll() is not None:
            # Prism refuses some documents outright (a reference to nothing); what it said is kept.
            log.write("\n== client probe not run: Prism did not start listening\n" + "".join(said[-5:]))
            return None
        # What Prism logs for each request is read and dropped, so that a full pipe never stalls it.
        threading.Thread(target=lambda: [None for _ in prism.stdout], daemon=True).start()
        xtask = ROOT / "target" / "release" / "xtask"
        result = subprocess.run(
            [str(xtask), "client-probe", "--spec", str(spec), "--url", f"http://127.0.0.1:{port}", "--dir", str(OUT / "probes")],
            capture_output=True, text=True, cwd=ROOT, timeout=TIMEOUT,
        )
        log.write("\n== client probe against Prism\n" + result.stdout + result.stderr)
        lines = result.stdout.splitlines()
        ok = sum(1 for l in lines if l.startswith("ok "))
        failed = sum(1 for l in lines if l.startswith("FAIL "))
        skipped = sum(1 for l in lines if l.startswith("skipped "))
        # Replies Prism made outside the document's own schema, which the client rightly refuses.
        mock = sum(1 for l in lines if l.startswith("mock "))
        # Requests refused where the document allows no value as written (warned by the generator).
        document = sum(1 for l in lines if l.startswith("document "))
        # Replies the document allows and the generator said it would refuse: a schema without
        # `type` read as its keywords' type, with a warning.
        narrowed = sum(1 for l in lines if l.startswith("narrowed "))
        if not lines:
            return None
        return ok, failed, skipped, mock, document, narrowed
    except subprocess.TimeoutExpired:
        return None
    finally:
        prism.terminate()
        prism.wait()


def run_one(spec, examples):
    name = spec.stem
    run_phases = phases(spec)
    log_path = OUT / f"{name}.log"
    with open(log_path, "w") as log:
        started = time.monotonic()
        process, url = start_mock(spec, log)
        if process is None:
            return {"name": name, "status": url, "failures": {}, "client": None, "seconds": time.monotonic() - started}
        try:
            command = [
                str(SCHEMATHESIS), "run", str(spec), "--url", url,
                "--mode", "all", "--max-examples", str(examples),
                "--seed", "1", "--no-color", "--phases", run_phases,
            ]
            config_path = OUT / f"{name}.toml"
            config_path.write_text(config(load(spec)))
            command[1:1] = ["--config-file", str(config_path)]
            drops_path = OUT / f"{name}.drops"
            drops_path.unlink(missing_ok=True)
            hooks = {**os.environ, "SCHEMATHESIS_HOOKS": "hooks", "ORACLE_DROPS": str(drops_path)}
            hooks["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))
            result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=TIMEOUT, env=hooks)
            output = result.stdout + result.stderr
        except subprocess.TimeoutExpired as timeout:
            # What it printed before, to see where it stalled (bytes, whatever `text` asked).
            partial = timeout.stdout or b""
            partial = partial.decode(errors="replace") if isinstance(partial, bytes) else partial
            output = partial + "\nschemathesis timed out"
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()
        log.write(output)
        client = run_client(spec, log) if PRISM.exists() else None
    failures = {}
    for code, title, count in re.findall(r"❌ (ST\d+) ([^:\n]+): (\d+)", output):
        failures[f"{code} {title.strip()}"] = int(count)
    tested = re.search(r"Tested: (\d+)", output)
    dropped = re.search(r"Filtered: (\d+) \(dropped by `filter_failure`\)", output)
    # Which rule dropped failures of how many operations.
    drops_path = OUT / f"{name}.drops"
    seen = set(drops_path.read_text().splitlines()) if drops_path.exists() else set()
    rules = {}
    for line in seen:
        rule = line.split("\t")[0]
        rules[rule] = rules.get(rule, 0) + 1
    status = "ran" if tested else "schemathesis did not run (see the log)"
    return {
        "name": name,
        "status": status,
        "coverage": "coverage" in run_phases,
        "operations": tested.group(1) if tested else "-",
        "failures": failures,
        "dropped": int(dropped.group(1)) if dropped else 0,
        "rules": rules,
        "client": client,
        "seconds": time.monotonic() - started,
    }


def status_text(row):
    return row["status"] if row.get("coverage", True) else f"{row['status']}, no coverage phase"


def dropped_text(row):
    rules = row.get("rules") or {}
    named = ", ".join(f"{rule} {count}" for rule, count in sorted(rules.items()))
    return f"{row.get('dropped', 0)} ({named})" if named else str(row.get("dropped", 0))


def client_text(client):
    return "not run" if client is None else " / ".join(str(n) for n in client)


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
        client = client_text(row["client"])
        print(f"{row['name']:<32} {status_text(row):<10} failures {total:>3}  client {client:<22} {row['seconds']:.0f} s", flush=True)
    lines = [
        "| document | server run | operations | schemathesis failures | by check | dropped by a rule of hooks.py (operations per rule) | client against Prism (ok / failed / skipped / Prism's reply outside the schema / refused where the document allows no value / reply refused where the generator narrowed a schema, with a warning) |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        kinds = ", ".join(f"{k}: {v}" for k, v in sorted(row["failures"].items())) or "-"
        lines.append(
            f"| {row['name']} | {status_text(row)} | {row.get('operations', '-')} | {sum(row['failures'].values())} | {kinds} | {dropped_text(row)} | {client_text(row['client'])} |"
        )
    clean = sum(1 for r in rows if r["status"] == "ran" and not r["failures"])
    client_clean = sum(1 for r in rows if r["client"] and r["client"][1] == 0)
    lines.append("")
    lines.append(f"schemathesis: {clean} of {len(rows)} documents without a failure; gated checks: {', '.join(sorted(GATED))}.")
    lines.append(f"client against Prism: {client_clean} of {len(rows)} documents where every call made worked.")
    report = "\n".join(lines) + "\n"
    (OUT / "report.md").write_text(report)
    print(report)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
