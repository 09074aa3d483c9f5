"""schemathesis checks registered by run.py (through SCHEMATHESIS_HOOKS) where a built-in check reads
a document otherwise than its specification does. Each is the built-in check plus one rule, for
every document; none names a document.
"""

import json
import os
import re
from collections.abc import Mapping

import schemathesis
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance


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
      document gives it some (the generator warns about such a document); nor does any reply
      without content to a status the document does not give (RFC 9110, 8.3: a media type
      describes content), such as the 200 an operation that documents only errors is read to
      answer (the generator warns there too).
    """
    raw = case.operation.schema.raw_schema
    definition = _documented(case, response)
    if not response.content and (response.status_code in NO_CONTENT or definition is None):
        return None
    if (
        raw.get("swagger") == "2.0"
        and isinstance(definition, dict)
        and "schema" not in definition
        and not response.content
    ):
        return None
    return content_type_conformance(ctx, response, case)


@schemathesis.check
def response_schema_conformance_http(ctx, response, case):
    """`response_schema_conformance`, reading HTTP as RFC 9110 does: a 204, 205 or 304 reply has
    no content, so an empty one has no body to check, even where a document gives it a schema
    (the generator warns about such a document).
    """
    if not response.content and response.status_code in NO_CONTENT:
        return None
    return response_schema_conformance(ctx, response, case)


# The range of the 64-bit integers the generated crates read every JSON integer into.
I64 = range(-(2**63), 2**63)


def _anywhere(value, test):
    """Whether `test` holds for `value` or for anything it holds, at any depth."""
    if test(value):
        return True
    if isinstance(value, Mapping):
        return any(_anywhere(v, test) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_anywhere(v, test) for v in value)
    return False


def _wide_integer(value):
    """Whether `value` holds an integer outside 64 bits, at any depth (in a parameter, as the text
    it is sent as)."""

    def wide(v):
        if isinstance(v, bool):
            return False
        if isinstance(v, int):
            return v not in I64
        # ASCII digits only: `str.isdigit` also takes `³`, which `int` refuses.
        return isinstance(v, str) and re.fullmatch(r"-?[0-9]+", v) is not None and int(v) not in I64

    return _anywhere(value, wide)


def _holds_empty(value):
    """Whether `value` holds, at any depth, what XML writes as an empty element or the text
    `null`: `None`, or an empty string, list or object."""
    return _anywhere(value, lambda v: v is None or (isinstance(v, (str, list, tuple, Mapping)) and len(v) == 0))


def _unwritable_in_xml(value):
    """Whether `value` holds, at any depth, text XML 1.0 cannot carry as it is: control characters
    (its serializer drops or escapes them), a carriage return (which XML reads as a line feed),
    or code points XML excludes."""

    def unwritable(c):
        return (ord(c) < 0x20 and c not in "\t\n") or 0xD800 <= ord(c) <= 0xDFFF or ord(c) in (0xFFFE, 0xFFFF)

    return _anywhere(value, lambda v: isinstance(v, str) and any(unwritable(c) for c in v))


def _resolved(root, node):
    """`node`, its local `$ref`s followed through the document `root`; `None` for another file's."""
    for _ in range(32):
        if not (isinstance(node, dict) and "$ref" in node):
            return node
        reference = node["$ref"]
        if not isinstance(reference, str) or not reference.startswith("#/"):
            return None
        node = root
        for part in reference[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            node = node.get(part) if isinstance(node, dict) else None
    return None


def _operation(case):
    """The document, and the path item and operation the case was made for, as written."""
    root = case.operation.schema.raw_schema
    path_item = _resolved(root, root.get("paths", {}).get(case.operation.path)) or {}
    return root, path_item, path_item.get(case.operation.method.lower()) or {}


def _parameters(case):
    """Each parameter the document gives the case's operation (path item's and operation's), with
    its schema (OpenAPI 3's `schema`, or Swagger 2.0's keywords on the parameter itself)."""
    root, path_item, operation = _operation(case)
    for parameter in list(path_item.get("parameters") or []) + list(operation.get("parameters") or []):
        parameter = _resolved(root, parameter)
        if isinstance(parameter, dict):
            schema = _resolved(root, parameter["schema"]) if "schema" in parameter else parameter
            yield parameter, schema if isinstance(schema, dict) else {}


def _sent(case, parameter):
    """The value the case sent for `parameter`, if any (header names compared without case)."""
    name, place = parameter.get("name"), parameter.get("in")
    sent = {"path": case.path_parameters, "query": case.query, "header": case.headers, "cookie": case.cookies}.get(place)
    if not sent or not isinstance(name, str):
        return None
    if place == "header":
        return next((v for k, v in sent.items() if k.lower() == name.lower()), None)
    return sent.get(name)


def _text_breaks(schema, value):
    """Why the text `value` breaks the string `schema`'s own keywords (`pattern`, lengths, an
    enum of strings), or `None`."""
    if not isinstance(value, str) or schema.get("type", "string") != "string":
        return None
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            if re.search(pattern, value) is None:
                return f"{value!r} does not match {pattern!r}"
        except re.error:
            pass
    if isinstance(schema.get("maxLength"), int) and len(value) > schema["maxLength"]:
        return f"{value!r} is longer than {schema['maxLength']}"
    if isinstance(schema.get("minLength"), int) and len(value) < schema["minLength"]:
        return f"{value!r} is shorter than {schema['minLength']}"
    listed = schema.get("enum")
    if isinstance(listed, list) and all(isinstance(v, str) for v in listed) and value not in listed:
        return f"{value!r} is not one of {listed}"
    return None


def _holds_object(value):
    """Whether `value` is, or is a list holding, an object."""
    if isinstance(value, Mapping):
        return True
    return isinstance(value, (list, tuple)) and any(isinstance(v, Mapping) for v in value)


def _is_object(root, schema, depth=0):
    """Whether `schema` describes objects: `type: object`, properties, an `allOf` of such, or a
    choice whose members are such or `null` (OpenAI's `anyOf: [{type: object}, {type: null}]`)."""
    schema = _resolved(root, schema)
    if not isinstance(schema, dict) or depth > 8:
        return False
    if schema.get("type") == "object" or "properties" in schema:
        return True
    if any(_is_object(root, member, depth + 1) for member in schema.get("allOf") or []):
        return True
    for keyword in ("anyOf", "oneOf"):
        members = [_resolved(root, m) for m in schema.get(keyword) or []]
        objects = [m for m in members if not (isinstance(m, dict) and m.get("type") == "null")]
        if objects and all(_is_object(root, m, depth + 1) for m in objects):
            return True
    return False


def _body_required(case):
    """Whether the document requires the case's operation's body (OpenAPI 3's `requestBody`, or a
    Swagger 2.0 `in: body` parameter)."""
    root, _, operation = _operation(case)
    body = _resolved(root, operation.get("requestBody"))
    if isinstance(body, dict):
        return body.get("required") is True
    return any(p.get("in") == "body" and p.get("required") is True for p, _ in _parameters(case))


def _fraction(value):
    """Whether `value` (text, or a number) is a number with a fraction."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return False
    return not isinstance(value, bool) and number == number and not number.is_integer()


def _scalar_fits(schema, item):
    """Whether the text of the scalar `item` is a value of the scalar `schema`: its type, bounds
    and the keywords of text."""
    if not isinstance(schema, dict) or isinstance(item, (list, tuple, Mapping)):
        return False
    kind = schema.get("type")
    if kind in ("integer", "number"):
        try:
            number = float(item)
        except (TypeError, ValueError):
            return False
        if isinstance(item, bool) or number != number or (kind == "integer" and not number.is_integer()):
            return False
        low, high = schema.get("minimum"), schema.get("maximum")
        below = isinstance(low, (int, float)) and (number < low or (number == low and schema.get("exclusiveMinimum") is True))
        above = isinstance(high, (int, float)) and (number > high or (number == high and schema.get("exclusiveMaximum") is True))
        return not below and not above and "multipleOf" not in schema
    if kind == "boolean":
        return str(item).lower() in ("true", "false")
    if kind == "string" and "format" not in schema:
        return _text_breaks(schema, str(item)) is None
    return False


def _carries_text(media_type):
    """Whether a message fits in `media_type`: JSON, YAML, XML, text or bytes."""
    essence = media_type.split(";")[0].strip().lower()
    return (
        essence.startswith("text/")
        or any(kind in essence for kind in ("json", "yaml", "xml"))
        or essence == "application/octet-stream"
    )


def _content_type(response):
    """The reply's Content-Type (schemathesis keeps each header as a list of values)."""
    value = response.headers.get("content-type") or ""
    return str(value[0] if isinstance(value, list) and value else value)


def _produces_no_text(case):
    """Whether the case's operation is Swagger 2.0's and `produces` (its own or the document's)
    only media types no message fits in."""
    root, _, operation = _operation(case)
    if root.get("swagger") != "2.0":
        return False
    produces = operation.get("produces") or root.get("produces") or []
    return bool(produces) and not any(_carries_text(p) for p in produces)


def _holds_no_structure(media_type):
    """Whether `media_type` has no form of its own for a structured value: neither JSON, YAML, XML,
    text, nor a form (an archive, a stream of frames, bytes), as the generator reads it."""
    essence = media_type.split(";")[0].strip().lower()
    structured = any(kind in essence for kind in ("json", "yaml", "xml"))
    return not (structured or essence.startswith(("text/", "multipart/")) or essence == "application/x-www-form-urlencoded")


def _structured_without_form(case, response):
    """Whether the document gives this reply's status a body whose schema is structured (an
    object or a list) only under media types with no form for it: the generator writes it as
    JSON, with a warning."""
    root, _, operation = _operation(case)
    definition = _resolved(root, _documented(case, response))
    if not isinstance(definition, dict):
        return False
    if "content" in definition:
        listed = [(ct, (m or {}).get("schema")) for ct, m in (definition.get("content") or {}).items()]
    else:
        produces = operation.get("produces") or root.get("produces") or []
        listed = [(ct, definition.get("schema")) for ct in produces]
    def structured(schema):
        schema = _resolved(root, schema)
        return _is_object(root, schema) or (isinstance(schema, dict) and schema.get("type") == "array")
    return bool(listed) and all(_holds_no_structure(ct) for ct, _ in listed) and any(structured(s) for _, s in listed)


def _named_by_own_value(case, failure):
    """Whether schemathesis' unknown discriminator value is one that a member it names allows as
    its own: a discriminator without `mapping` whose members each fix the property, which the
    generator reads by those values (JSON Schema's `oneOf` decides membership)."""
    found = re.search(r"property '([^']+)' with value '([^']*)'.*known schema values: (.*)", failure.message or "", re.S)
    if not found:
        return False
    prop, value, names = found.group(1), found.group(2), re.findall(r"'([^']+)'", found.group(3))
    root = case.operation.schema.raw_schema
    schemas = (root.get("components") or {}).get("schemas") or root.get("definitions") or {}
    for name in names:
        schema = _resolved(root, schemas.get(name)) or {}
        allowed = _resolved(root, (schema.get("properties") or {}).get(prop)) or {}
        if allowed.get("const") == value or value in (allowed.get("enum") or []):
            return True
    return False


# Where OpenAPI 3 and Swagger 2.0 put parameters.
LOCATIONS = {"path", "query", "header", "cookie", "body", "formData"}


def _parameters_break_rules(case):
    """Whether the operation's parameters break OpenAPI's own rules in a way the generator repairs
    with a note: a location no version has (`in: form`), or Swagger 2.0's `body` beside `formData`
    parameters. schemathesis reads such an operation otherwise."""
    places = {p.get("in") for p, _ in _parameters(case)}
    return bool(places - LOCATIONS) or {"body", "formData"} <= places


# RFC 3339's date-time, which `format: date-time` names.
DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def _somewhere(root, schema, value, test, depth=0):
    """Whether `test(schema, value)` holds for `value` or a part of it, each part with the schema
    `schema` gives it (through references, `allOf`/`anyOf`/`oneOf` members, properties, items)."""
    schema = _resolved(root, schema)
    if depth > 32 or not isinstance(schema, dict):
        return False
    if test(schema, value):
        return True
    members = [m for key in ("allOf", "anyOf", "oneOf") for m in schema.get(key) or []]
    if any(_somewhere(root, m, value, test, depth + 1) for m in members):
        return True
    if isinstance(value, Mapping):
        properties = schema.get("properties") or {}
        return any(_somewhere(root, properties.get(k), v, test, depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple)) and isinstance(schema.get("items"), dict):
        return any(_somewhere(root, schema["items"], v, test, depth + 1) for v in value)
    return False


def _at(root, schema, pointer):
    """The schema at the JSON `pointer` under `schema`, following `$ref`s on the way."""
    node = _resolved(root, schema)
    for part in [p for p in pointer.split("/") if p]:
        if not isinstance(node, (dict, list)):
            return None
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) and part.isdigit() and int(part) < len(node) else (node.get(part) if isinstance(node, dict) else None)
        node = _resolved(root, node)
    return node


def _disjoint_enums(root, schema):
    """Whether `schema` is an `allOf` of two or more `enum` lists that share no value."""
    members = [_resolved(root, m) for m in (schema or {}).get("allOf") or []] if isinstance(schema, dict) else []
    lists = [m["enum"] for m in members if isinstance(m, dict) and isinstance(m.get("enum"), list)]
    return len(lists) > 1 and not [v for v in lists[0] if all(v in other for other in lists[1:])]


def _not_a_date_time(schema, value):
    """Text that is no RFC 3339 date-time where `schema` says `format: date-time`."""
    return schema.get("format") == "date-time" and isinstance(value, str) and not DATE_TIME.match(value)


def _not_an_object(schema, value):
    """A value other than an object (`null` too) where `schema` has object keywords and no
    `type`: JSON Schema lets it through, and the generator reads such a schema as an object,
    saying so with a warning where the schema is."""
    object_keywords = any(k in schema for k in ("properties", "required", "additionalProperties"))
    nullable = schema.get("nullable") is True
    return object_keywords and "type" not in schema and not isinstance(value, Mapping) and not (value is None and nullable)


def _recursive_ref(schema, value):
    """A value at a `$recursiveRef` (JSON Schema 2019-09): 2020-12, which OpenAPI 3.1 uses, does
    not know the keyword and lets any value through, where the generator reads it as a reference
    to the schema it is in, saying so with a warning."""
    return "$recursiveRef" in schema


def _body_schema(case):
    """The schema the document gives the case's body in its media type, if any."""
    root, _, operation = _operation(case)
    body = _resolved(root, operation.get("requestBody"))
    if isinstance(body, dict):
        media = (body.get("content") or {}).get(case.media_type or "") or {}
        return media.get("schema")
    return next((p.get("schema") for p, _ in _parameters(case) if p.get("in") == "body"), None)


def _rule(ctx, failure, case, response):
    """The rule that reads this failure as the oracle's own, or `None` when it stands."""
    if failure.code in ("ST201", "ST202") and _parameters_break_rules(case):
        return "parameters breaking OpenAPI's rules"
    # OpenAPI says a header parameter named Accept, Content-Type or Authorization is ignored;
    # schemathesis sends its values anyway, in place of the body's own media type.
    ignored = {"accept", "content-type"}
    declared = {str(p.get("name")).lower() for p, _ in _parameters(case) if p.get("in") == "header"} & ignored
    sent = {str(k).lower() for k in (case.headers or {})}
    if failure.code == "ST202" and declared & sent:
        return "header parameter OpenAPI ignores"
    # The server's own rejection, for a status the document does not give, of an operation whose
    # `produces` lists only media types no message fits in: problem details, as the generator
    # warns where it reads the operation.
    if failure.code == "ST105" and "problem+json" in _content_type(response) and _documented(case, response) is None and _produces_no_text(case):
        return "rejection no produced type carries"
    # A documented error body whose schema is structured, listed only under media types with no
    # form for it (an archive, a stream): the generator writes it as JSON, with a warning.
    if failure.code == "ST105" and "json" in _content_type(response) and _structured_without_form(case, response):
        return "error body no listed type can hold"
    if failure.code == "ST111" and _named_by_own_value(case, failure):
        return "discriminator read by its members' own values"
    parts = (case.path_parameters, case.query, case.headers, case.cookies, case.body)
    if failure.code == "ST202" and response.status_code == 400 and any(_wide_integer(p) for p in parts):
        return "wide integer"
    # XML has no `null` and no types: schemathesis writes `None` as the text "null", and `None`,
    # `""`, `[]` and `{}` alike as an empty element, which is valid text (or an empty list) where
    # a string or a list belongs, so the bytes it sends are a valid request.
    if failure.code == "ST201" and "xml" in (case.media_type or "") and _holds_empty(case.body):
        return "XML null or empty"
    # Nor can XML carry every character: the bytes sent are not the value the case was judged by.
    if failure.code == "ST201" and "xml" in (case.media_type or "") and _unwritable_in_xml(case.body):
        return "text XML cannot carry"
    # OpenAPI's style table writes an empty list in the query as `name=`, which schemathesis
    # means as one empty item.
    if failure.code == "ST201":
        for parameter, schema in _parameters(case):
            empty = _sent(case, parameter) in ("", [""], ("",))
            if parameter.get("in") == "query" and schema.get("type") == "array" and not schema.get("minItems") and empty:
                return "empty query list"
    # A list of one item in the query is written as that item alone: where the parameter is not
    # a list, schemathesis judges a list it did not send. The request stands only when the item's
    # text is a value of the parameter (an integer as the generated servers read one: a zero
    # fraction allowed, as JSON Schema counts from draft 6).
    if failure.code == "ST201":
        root = case.operation.schema.raw_schema
        for parameter, schema in _parameters(case):
            sent = _sent(case, parameter)
            one = isinstance(sent, (list, tuple)) and len(sent) == 1
            if parameter.get("in") == "query" and one and _scalar_fits(_resolved(root, schema), sent[0]):
                return "one-item list written as its item"
    # An `allOf` whose `enum` lists share no value allows nothing as written; the generator reads
    # it as allowing the values of every list, with a warning, and a value of one list is sent.
    if failure.code == "ST201":
        root, body = case.operation.schema.raw_schema, _body_schema(case)
        for pointer in re.findall(r"body: violates `enum` at (\S+)/allOf/\d+", failure.message or ""):
            if _disjoint_enums(root, _at(root, body, pointer)):
                return "allOf of enums sharing no value"
    # An object nested in a query parameter has no form in OpenAPI's style table: what
    # schemathesis writes for it (`name[key]=value`) is not the document's.
    if failure.code == "ST201":
        deep = any(p.get("in") == "query" and p.get("style") == "deepObject" for p, _ in _parameters(case))
        bracketed = not deep and any("[" in str(k) for k in (case.query or {}))
        if bracketed or any(_holds_object(v) for v in (case.query or {}).values()):
            return "object in a form or query list"
    # An object exploded into the query (`style: form`, the default) is written as its
    # properties alone: its own name never appears. A single value under that name is a parameter
    # the operation does not declare, which a server ignores, so the request is a valid one.
    if failure.code == "ST201":
        root = case.operation.schema.raw_schema
        for parameter, schema in _parameters(case):
            exploded = parameter.get("style", "form") == "form" and parameter.get("explode", True) is not False
            sent = _sent(case, parameter)
            if parameter.get("in") == "query" and exploded and _is_object(root, schema) and sent is not None and not isinstance(sent, Mapping):
                return "exploded object sent as one value"
    # HTTP lets any client or proxy add headers, so a server cannot refuse one it does not know.
    if failure.code == "ST201" and "in header" in failure.message and "unexpected properties" in failure.message:
        return "unknown header"
    if failure.code == "ST202" and response.status_code == 400:
        # The HTTP library adds `Accept-Encoding: gzip, deflate` on its own where the case sets
        # none: against a document that constrains that header, the request is the library's.
        text = getattr(response, "text", "") or ""
        if "Accept-Encoding" in text and not any(k.lower() == "accept-encoding" for k in (case.headers or {})):
            return "library's Accept-Encoding"
        # Text that is no RFC 3339 date-time where the schema says `format: date-time`, which
        # schemathesis asserts beside one `type` but not beside a list of them (`[string, null]`).
        root, schema = case.operation.schema.raw_schema, _body_schema(case)
        if _somewhere(root, schema, case.body, _not_a_date_time):
            return "date-time format schemathesis leaves unchecked"
        if _somewhere(root, schema, case.body, _not_an_object):
            return "object keywords without type, read as an object"
        if _somewhere(root, schema, case.body, _recursive_ref):
            return "$recursiveRef read as its schema"
        # An optional body schemathesis sends as JSON `null`: not a value of the body's schema.
        if case.body is None and "json" in (case.media_type or "") and not _body_required(case):
            return "optional body as null"
        # An object in a form field or in a query list: schemathesis writes its entries as
        # fields of their own, or its keys as the items; OpenAPI gives neither a form.
        form = "x-www-form-urlencoded" in (case.media_type or "")
        if form and isinstance(case.body, Mapping) and any(_holds_object(v) for v in case.body.values()):
            return "object in a form or query list"
        if any(isinstance(v, (list, tuple)) and _holds_object(v) for v in (case.query or {}).values()):
            return "object in a form or query list"
        # A request called valid although a text parameter breaks its own schema's keywords, or
        # a number parameter whose `format: int32`/`int64` (OpenAPI's format registry: an integer
        # of that width, for JSON numbers) it does not meet, which schemathesis leaves unchecked.
        for parameter, schema in _parameters(case):
            sent = _sent(case, parameter)
            if _text_breaks(schema, sent):
                return "parameter outside its schema"
            if _fraction(sent) and re.search(r'"format": "int(32|64)"', json.dumps(schema)):
                return "integer format on a number"
    return None


@schemathesis.hook
def filter_failure(ctx, failure, case, response):
    """Drops the failures a rule reads as the oracle's own, for every document, and records which
    rule each time in the file ORACLE_DROPS names (run.py reports them per document):

    - a request refused with 400 because it carries an integer past 64 bits: the generated crates
      read an integer as `i64` (as other Rust generators do), and the generator says so with a
      located warning wherever a schema allows more; the oracle holds the server to that stated
      reading, not to unbounded integers;
    - a "schema-violating" XML body whose violation is a `null` or an empty value, which XML
      writes as text or an empty element that a string or a list takes, or in text XML cannot
      carry as it is (control characters, a carriage return);
    - a request "accepted" or "rejected" by an operation whose parameters break OpenAPI's own
      rules (a location no version has, Swagger 2.0's `body` beside `formData`), which the
      generator repairs with a note and schemathesis reads otherwise;
    - a "valid" request refused for the value of an Accept or Content-Type header parameter,
      which OpenAPI says is ignored;
    - the server's own problem details for a status the document does not give, where Swagger
      2.0's `produces` lists only media types no message fits in (the generator warns);
    - an unknown header "accepted", which HTTP allows any sender to add;
    - a query list sent as `name=`, which OpenAPI's style table reads as the empty list;
    - a "valid" request refused for the `Accept-Encoding` schemathesis' HTTP library adds, for a
      text parameter that breaks its own schema's `pattern`, length or enum (or a number one its
      `format: int32` or `int64`, which schemathesis does not check), for an optional body
      sent as JSON `null`, for an object in a form field or a query list, which schemathesis
      writes as fields of their own or as its keys, or for text that is no date-time where the
      schema says `format: date-time` beside a list of types, which schemathesis does not check
      there (it does beside one type), or for a value other than an object where a schema has
      object keywords and no `type`, which the generator reads as an object (and warns).

    Everything else fails as schemathesis decides.
    """
    rule = _rule(ctx, failure, case, response)
    if rule is None:
        return True
    drops = os.environ.get("ORACLE_DROPS")
    if drops:
        with open(drops, "a") as out:
            out.write(f"{rule}\t{case.operation.method.upper()} {case.operation.path}\n")
    return False
