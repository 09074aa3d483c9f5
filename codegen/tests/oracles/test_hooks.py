"""The rules of hooks.py, each on a small document of its own (none from the corpus): what a rule
drops, and what it must leave standing.

    .venv/bin/python -m unittest discover -s codegen/tests/oracles -p 'test_*.py'
"""

import unittest
from types import SimpleNamespace

import hooks

SWAGGER = {
    "swagger": "2.0",
    "paths": {
        "/speech": {"post": {"produces": ["audio/x-wav"], "responses": {"200": {"description": "ok"}}}},
        "/archive": {
            "get": {
                "produces": ["application/x-tar"],
                "responses": {"404": {"description": "none", "schema": {"$ref": "#/definitions/Error"}}},
            }
        },
        "/mixed": {
            "post": {
                "parameters": [
                    {"in": "formData", "name": "model", "type": "string"},
                    {"in": "body", "name": "request", "schema": {"type": "object"}},
                ]
            }
        },
    },
    "definitions": {"Error": {"type": "object", "properties": {"message": {"type": "string"}}}},
}

OPENAPI = {
    "openapi": "3.1.0",
    "paths": {
        "/files": {
            "get": {
                "parameters": [
                    {"$ref": "#/components/parameters/Range"},
                    {"in": "query", "name": "tags", "schema": {"type": "array", "items": {"enum": ["a"]}}},
                    {"in": "query", "name": "some", "schema": {"type": "array", "minItems": 1, "items": {}}},
                    {"in": "query", "name": "size", "schema": {"type": "number", "format": "int32"}},
                    {"in": "query", "name": "count", "schema": {"type": "integer", "minimum": 0, "maximum": 100}},
                    {"in": "header", "name": "Content-Type", "schema": {"type": "string"}},
                    {"in": "query", "name": "window", "schema": {"$ref": "#/components/schemas/Window"}},
                    {"in": "query", "name": "joined", "explode": False, "schema": {"$ref": "#/components/schemas/Window"}},
                    {"in": "query", "name": "labels", "schema": {"$ref": "#/components/schemas/Labels"}},
                    {"in": "query", "name": "either", "schema": {"anyOf": [{"type": "object"}, {"type": "string"}]}},
                ]
            },
            "post": {
                "requestBody": {
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Token"}},
                        "application/xml": {"schema": {"$ref": "#/components/schemas/Token"}},
                    }
                }
            },
        }
    },
    "components": {
        "parameters": {"Range": {"in": "header", "name": "Range", "schema": {"type": "string", "pattern": "^bytes="}}},
        "schemas": {
            "Kind": {"type": "string", "enum": ["host", "subnet"]},
            "Window": {"allOf": [{"type": "object", "properties": {"from": {"type": "string"}}}]},
            "Labels": {"anyOf": [{"type": "object", "additionalProperties": {"type": "string"}}, {"type": "null"}]},
            "Token": {
                "type": "object",
                "properties": {
                    "expires": {"type": ["string", "null"], "format": "date-time"},
                    "owner": {"properties": {"name": {"type": "string"}}},
                    "kind": {"allOf": [{"$ref": "#/components/schemas/Kind"}, {"enum": ["peer"]}]},
                    "mode": {"allOf": [{"enum": ["a", "b"]}, {"enum": ["b"]}]},
                    "filters": {"type": "array", "items": {"oneOf": [{"$ref": "#/components/schemas/Kind"}, {"$recursiveRef": "#"}]}},
                },
            }
        },
    },
}


def case(document, path, method, **parts):
    operation = SimpleNamespace(schema=SimpleNamespace(raw_schema=document), path=path, method=method)
    defaults = dict(path_parameters=None, query=None, headers=None, cookies=None, body=None, media_type=None)
    return SimpleNamespace(operation=operation, **{**defaults, **parts})


def failure(code, message=""):
    return SimpleNamespace(code=code, message=message)


def response(status, text="", content_type=""):
    return SimpleNamespace(status_code=status, text=text, headers={"content-type": [content_type]})


def rule(failed, on, answered=None):
    return hooks._rule(None, failed, on, answered or response(400))


class Rules(unittest.TestCase):
    def test_integers_past_64_bits_in_any_part(self):
        wide = case(OPENAPI, "/files", "GET", headers={"l": str(2**64)})
        self.assertEqual(rule(failure("ST202"), wide), "wide integer")
        narrow = case(OPENAPI, "/files", "GET", headers={"l": str(2**62)})
        self.assertIsNone(rule(failure("ST202"), narrow))
        # A digit that is not ASCII is text, not an integer.
        self.assertIsNone(rule(failure("ST202"), case(OPENAPI, "/files", "GET", headers={"l": "³"})))

    def test_xml_null_empty_and_unwritable_text(self):
        xml = dict(media_type="application/xml")
        self.assertEqual(rule(failure("ST201"), case(OPENAPI, "/files", "POST", body={"a": None}, **xml)), "XML null or empty")
        self.assertEqual(rule(failure("ST201"), case(OPENAPI, "/files", "POST", body={"a": {}}, **xml)), "XML null or empty")
        control = case(OPENAPI, "/files", "POST", body={"a": "x\x01"}, **xml)
        self.assertEqual(rule(failure("ST201"), control), "text XML cannot carry")
        # The same values in JSON stand.
        self.assertIsNone(rule(failure("ST201"), case(OPENAPI, "/files", "POST", body={"a": None}, media_type="application/json")))
        self.assertIsNone(rule(failure("ST201"), case(OPENAPI, "/files", "POST", body={"a": "long"}, **xml)))

    def test_empty_query_lists_and_objects_in_the_query(self):
        self.assertEqual(rule(failure("ST201"), case(OPENAPI, "/files", "GET", query={"tags": ""})), "empty query list")
        # A list that must hold an item is not emptied by the rule.
        self.assertIsNone(rule(failure("ST201"), case(OPENAPI, "/files", "GET", query={"some": ""})))
        nested = case(OPENAPI, "/files", "GET", query={"filter[key]": 2.5})
        self.assertEqual(rule(failure("ST201"), nested), "object in a form or query list")
        # An exploded object's name is not on the wire; a joined one's is, so a value there stands.
        exploded = case(OPENAPI, "/files", "GET", query={"window": False})
        self.assertEqual(rule(failure("ST201"), exploded), "exploded object sent as one value")
        self.assertIsNone(rule(failure("ST201"), case(OPENAPI, "/files", "GET", query={"joined": False})))
        # So is a choice of an object or `null`; one that may be text is on the wire as text.
        labels = case(OPENAPI, "/files", "GET", query={"labels": 6.5e34})
        self.assertEqual(rule(failure("ST201"), labels), "exploded object sent as one value")
        self.assertIsNone(rule(failure("ST201"), case(OPENAPI, "/files", "GET", query={"either": 6.5})))

    def test_a_one_item_list_in_the_query_is_its_item(self):
        for item in (0.0, 7, "100"):
            sent = case(OPENAPI, "/files", "GET", query={"count": [item]})
            self.assertEqual(rule(failure("ST201"), sent), "one-item list written as its item", item)
        # Items that are no value of the parameter, and lists of more than one, stand.
        for query in ({"count": [0.5]}, {"count": [101]}, {"count": ["x"]}, {"count": [1, 2]}, {"count": [[1]]}):
            self.assertIsNone(rule(failure("ST201"), case(OPENAPI, "/files", "GET", query=query)), query)

    def test_enum_lists_sharing_no_value(self):
        sent = case(OPENAPI, "/files", "POST", body={"kind": "peer"}, media_type="application/json")
        disjoint = failure("ST201", "Invalid component:\n  - body: violates `enum` at /properties/kind/allOf/0")
        self.assertEqual(rule(disjoint, sent), "allOf of enums sharing no value")
        # Lists that meet allow a value: a request outside it stands.
        shared = failure("ST201", "Invalid component:\n  - body: violates `enum` at /properties/mode/allOf/1")
        self.assertIsNone(rule(shared, case(OPENAPI, "/files", "POST", body={"mode": "a"}, media_type="application/json")))

    def test_parameters_outside_their_schema_and_integer_formats(self):
        self.assertEqual(rule(failure("ST202"), case(OPENAPI, "/files", "GET", headers={"range": "0"})), "parameter outside its schema")
        self.assertIsNone(rule(failure("ST202"), case(OPENAPI, "/files", "GET", headers={"Range": "bytes=0-1"})))
        self.assertEqual(rule(failure("ST202"), case(OPENAPI, "/files", "GET", query={"size": "5.5"})), "integer format on a number")
        self.assertIsNone(rule(failure("ST202"), case(OPENAPI, "/files", "GET", query={"size": "5"})))

    def test_ignored_header_parameters_and_the_librarys_accept_encoding(self):
        sent = case(OPENAPI, "/files", "GET", headers={"Content-Type": "x/y"})
        self.assertEqual(rule(failure("ST202"), sent, response(415)), "header parameter OpenAPI ignores")
        library = case(OPENAPI, "/files", "GET", headers={})
        answered = response(400, text="`Accept-Encoding` is invalid")
        self.assertEqual(rule(failure("ST202"), library, answered), "library's Accept-Encoding")
        chosen = case(OPENAPI, "/files", "GET", headers={"Accept-Encoding": "br"})
        self.assertIsNone(rule(failure("ST202"), chosen, answered))

    def test_bodies_date_times_beside_type_lists_and_objects_without_type(self):
        json = dict(media_type="application/json")
        empty = case(OPENAPI, "/files", "POST", body={"expires": ""}, **json)
        self.assertEqual(rule(failure("ST202"), empty), "date-time format schemathesis leaves unchecked")
        dated = case(OPENAPI, "/files", "POST", body={"expires": "2024-06-30T00:00:00Z"}, **json)
        self.assertIsNone(rule(failure("ST202"), dated))
        untyped = case(OPENAPI, "/files", "POST", body={"owner": True}, **json)
        self.assertEqual(rule(failure("ST202"), untyped), "object keywords without type, read as an object")
        self.assertEqual(rule(failure("ST202"), case(OPENAPI, "/files", "POST", body=None, **json)), "optional body as null")
        # What 2020-12 lets through where `$recursiveRef` is; elsewhere in the body it stands.
        recursive = case(OPENAPI, "/files", "POST", body={"filters": [{}]}, **json)
        self.assertEqual(rule(failure("ST202"), recursive), "$recursiveRef read as its schema")
        self.assertIsNone(rule(failure("ST202"), case(OPENAPI, "/files", "POST", body={"mode": "a"}, **json)))

    def test_swagger_2_operations_the_generator_repairs(self):
        mixed = case(SWAGGER, "/mixed", "POST", body={"model": "m"}, media_type="multipart/form-data")
        self.assertEqual(rule(failure("ST202"), mixed), "parameters breaking OpenAPI's rules")
        speech = case(SWAGGER, "/speech", "POST")
        speech.operation.responses = SimpleNamespace(find_by_status_code=lambda status: None)
        problem = response(401, content_type="application/problem+json")
        self.assertEqual(rule(failure("ST105"), speech, problem), "rejection no produced type carries")
        self.assertIsNone(rule(failure("ST105"), speech, response(401, content_type="audio/x-wav")))

    def test_structured_error_bodies_under_a_media_type_without_their_form(self):
        archive = case(SWAGGER, "/archive", "GET")
        documented = SWAGGER["paths"]["/archive"]["get"]["responses"]["404"]
        archive.operation.responses = SimpleNamespace(find_by_status_code=lambda status: SimpleNamespace(definition=documented))
        answered = response(404, content_type="application/json")
        self.assertEqual(rule(failure("ST105"), archive, answered), "error body no listed type can hold")
        # A reply in another media type, or a status documented without a structured body, stands.
        self.assertIsNone(rule(failure("ST105"), archive, response(404, content_type="text/html")))
        archive.operation.responses = SimpleNamespace(find_by_status_code=lambda status: SimpleNamespace(definition={"description": "none"}))
        self.assertIsNone(rule(failure("ST105"), archive, answered))

    def test_a_discriminator_without_mapping_read_by_its_members_own_values(self):
        document = {"openapi": "3.1.0", "paths": {"/s": {"get": {}}}, "components": {"schemas": {
            "Active": {"type": "object", "properties": {"type": {"const": "active"}}},
            "Closed": {"type": "object", "properties": {"type": {"enum": ["closed"]}}},
        }}}
        said = "Response contains discriminator property 'type' with value '{}',\nwhich does not match any of the known schema values: 'Active', 'Closed'"
        on = case(document, "/s", "GET")
        self.assertEqual(rule(failure("ST111", said.format("closed")), on), "discriminator read by its members' own values")
        self.assertIsNone(rule(failure("ST111", said.format("open")), on))

    def test_other_failures_stand(self):
        self.assertIsNone(rule(failure("ST101"), case(OPENAPI, "/files", "GET", headers={"l": str(2**64)}), response(500)))
        self.assertIsNone(rule(failure("ST108"), case(OPENAPI, "/files", "POST", body={"a": None}, media_type="application/xml")))


if __name__ == "__main__":
    unittest.main()
