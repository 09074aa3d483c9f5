"""schemathesis checks registered by run.py (through SCHEMATHESIS_HOOKS) where a built-in check reads
a document otherwise than its specification does. Each is the built-in check plus one rule, for
every document; none names a document.
"""

import schemathesis
from schemathesis.specs.openapi.checks import content_type_conformance


def _documented(case, response):
    """The response definition the document gives for this reply's status, as written."""
    found = case.operation.responses.find_by_status_code(response.status_code)
    return found.definition if found is not None else None


# Statuses HTTP gives no content (RFC 9110, 15.3.5, 15.3.6 and 15.4.5).
NO_CONTENT = {204, 205, 304}


@schemathesis.check
def content_type_conformance_swagger2(ctx, response, case):
    """`content_type_conformance`, with two rules the built-in check does not read:

    - Swagger 2.0's Response Object: a response without `schema` returns no content, so an empty
      reply to it has no media type to declare, whatever `produces` lists for the operation's
      other replies (the built-in check applies `produces` to every reply);
    - HTTP: a 204, 205 or 304 reply has no content, so it declares no media type even where a
      document gives it some (the generator warns about such a document).
    """
    raw = case.operation.schema.raw_schema
    definition = _documented(case, response)
    if not response.content and response.status_code in NO_CONTENT:
        return None
    if (
        raw.get("swagger") == "2.0"
        and isinstance(definition, dict)
        and "schema" not in definition
        and not response.content
    ):
        return None
    return content_type_conformance(ctx, response, case)


# The range of the 64-bit integers the generated crates read every JSON integer into.
I64 = range(-(2**63), 2**63)


def _wide_integer(value):
    """Whether `value` holds an integer outside 64 bits, at any depth (in a parameter, as the text
    it is sent as)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value not in I64
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value) not in I64
    if isinstance(value, dict):
        return any(_wide_integer(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_wide_integer(v) for v in value)
    return False


@schemathesis.hook
def filter_failure(ctx, failure, case, response):
    """Drops one kind of failure, for every document: a request refused with 400 because it carries
    an integer past 64 bits. The generated crates read an integer as `i64` (as other Rust
    generators do), and the generator says so with a located warning wherever a schema allows
    more; the oracle holds the server to that stated reading, not to unbounded integers.
    Everything else fails as schemathesis decides.
    """
    if failure.code != "ST202" or response.status_code != 400:
        return True
    parts = (case.path_parameters, case.query, case.headers, case.cookies, case.body)
    return not any(_wide_integer(part) for part in parts)
