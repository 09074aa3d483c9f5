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
