//! The breaking-change check's classification: one spec, changed one way at a time, and for each
//! change whom it breaks and how far each generated crate moves.

use portfolio_codegen::diff::{Change, Semver, compare};
use portfolio_codegen::{Config, load, lower};

mod common;

const BASE: &str = r##"
openapi: 3.0.3
info: {title: Shop, version: "1"}
paths:
  /orders:
    get:
      operationId: listOrders
      parameters:
        - {name: limit, in: query, schema: {type: integer, format: int32, maximum: 100}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Order"}}
    post:
      operationId: placeOrder
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/NewOrder"}
      responses:
        "201":
          description: placed
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Order"}
  /orders/{id}:
    delete:
      operationId: cancelOrder
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "204": {description: cancelled}
components:
  schemas:
    NewOrder:
      type: object
      required: [item, quantity]
      properties:
        item: {type: string, maxLength: 40}
        quantity: {type: integer, format: int32, minimum: 1}
        note: {type: string}
        speed: {$ref: "#/components/schemas/Speed"}
    Order:
      type: object
      required: [id, item, state]
      properties:
        id: {type: string}
        item: {type: string}
        state: {$ref: "#/components/schemas/State"}
        total: {type: number}
    State:
      type: string
      enum: [open, shipped]
    Speed:
      type: string
      enum: [normal, express]
"##;

fn changes(new: &str) -> Vec<Change> {
    let config = Config { strict: false, ..common::config("shop", "openapi.yaml") };
    let api = |text: &str| lower(&load(text).expect("loads").doc, &config).expect("lowers");
    compare(&api(BASE), &api(new)).changes
}

/// Applies `from → to` to the base spec, once.
fn changed(from: &str, to: &str) -> String {
    assert_eq!(BASE.matches(from).count(), 1, "`{from}` is in the base spec once");
    BASE.replacen(from, to, 1)
}

/// Whom each change breaks: `c` clients, `s` servers, `cs` both, `-` neither.
fn whom(change: &Change) -> &'static str {
    match (change.breaks_clients, change.breaks_servers) {
        (true, true) => "cs",
        (true, false) => "c",
        (false, true) => "s",
        (false, false) => "-",
    }
}

#[test]
fn each_change_breaks_whom_it_should() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // Request: narrowing breaks clients, widening breaks servers.
        ("required: [item, quantity]", "required: [item, quantity, note]", "NewOrder.note: field made required", "c"),
        ("required: [item, quantity]", "required: [item]", "NewOrder.quantity: field made optional", "s"),
        ("        note: {type: string}\n", "", "NewOrder.note: field removed", "-"),
        (
            "required: [item, quantity]\n      properties:\n        item: {type: string, maxLength: 40}\n        quantity: {type: integer, format: int32, minimum: 1}\n",
            "required: [item]\n      properties:\n        item: {type: string, maxLength: 40}\n",
            "NewOrder.quantity: field removed",
            "s",
        ),
        (
            "        note: {type: string}\n",
            "        note: {type: string}\n        gift: {type: boolean}\n",
            "NewOrder.gift: optional field added",
            "-",
        ),
        (
            "item: {type: string, maxLength: 40}",
            "item: {type: string, maxLength: 20}",
            "NewOrder.item: maxLength changed from 40 to 20",
            "c",
        ),
        ("item: {type: string, maxLength: 40}", "item: {type: string}", "NewOrder.item: maxLength 40 dropped", "s"),
        ("minimum: 1}", "minimum: 2}", "NewOrder.quantity: minimum changed from 1 to 2", "c"),
        ("enum: [normal, express]", "enum: [normal]", "Speed: value \"express\" removed", "c"),
        ("enum: [normal, express]", "enum: [normal, express, drone]", "Speed: value \"drone\" added", "s"),
        (
            "quantity: {type: integer, format: int32, minimum: 1}",
            "quantity: {type: integer, format: int64, minimum: 1}",
            "NewOrder.quantity: type changed from 32-bit integer to 64-bit integer",
            "s",
        ),
        (
            "quantity: {type: integer, format: int32, minimum: 1}",
            "quantity: {type: string}",
            "NewOrder.quantity: type changed from 32-bit integer to string",
            "cs",
        ),
        ("maximum: 100}}", "maximum: 50}}", "GET /orders › query limit: maximum changed from 100 to 50", "c"),
        (
            "{name: limit, in: query, schema",
            "{name: limit, in: query, required: true, schema",
            "GET /orders › query limit: parameter made required",
            "c",
        ),
        (
            "        - {name: limit, in: query, schema: {type: integer, format: int32, maximum: 100}}\n",
            "        - {name: limit, in: query, schema: {type: integer, format: int32, maximum: 100}}\n        - {name: page, in: query, required: true, schema: {type: integer}}\n",
            "GET /orders › query page: required parameter added",
            "c",
        ),
        (
            "        - {name: limit, in: query, schema: {type: integer, format: int32, maximum: 100}}\n",
            "        - {name: limit, in: query, schema: {type: integer, format: int32, maximum: 100}}\n        - {name: page, in: query, schema: {type: integer}}\n",
            "GET /orders › query page: optional parameter added",
            "-",
        ),
        (
            "      requestBody:\n        required: true\n",
            "      requestBody:\n        required: false\n",
            "POST /orders › body: request body made optional",
            "s",
        ),
        // Reply: widening breaks clients, narrowing breaks servers.
        ("        total: {type: number}\n", "", "Order.total: field removed", "c"),
        ("required: [id, item, state]", "required: [id, state]", "Order.item: field made optional", "c"),
        ("required: [id, item, state]", "required: [id, item, state, total]", "Order.total: field made required", "s"),
        (
            "        total: {type: number}\n",
            "        total: {type: number}\n        carrier: {type: string}\n",
            "Order.carrier: optional field added",
            "-",
        ),
        ("enum: [open, shipped]", "enum: [open, shipped, lost]", "State: value \"lost\" added", "c"),
        ("enum: [open, shipped]", "enum: [open]", "State: value \"shipped\" removed", "s"),
        (
            "        total: {type: number}\n",
            "        total: {type: number, nullable: true}\n",
            "Order.total: may be null",
            "c",
        ),
        (
            "        \"201\":\n          description: placed",
            "        \"200\":\n          description: placed",
            "POST /orders › reply: status changed from 201 to 200",
            "cs",
        ),
        // Operations.
        (
            "    delete:\n      operationId: cancelOrder",
            "    put:\n      operationId: cancelOrder",
            "DELETE /orders/{}: operation `cancelOrder` removed",
            "c",
        ),
        ("  /orders/{id}:\n", "  /orders/{orderId}:\n", "", ""),
    ];
    let mut wrong = Vec::new();
    for (from, to, id, expected) in cases {
        let found = changes(&changed(from, to));
        if id.is_empty() {
            // Renaming a path parameter is no change on the wire.
            let on_wire: Vec<_> = found.iter().filter(|c| c.breaks()).map(|c| &c.id).collect();
            if !on_wire.is_empty() {
                wrong.push(format!("`{from}` → `{to}`: expected no breaking change, found {on_wire:?}"));
            }
            continue;
        }
        match found.iter().find(|c| c.id == *id) {
            Some(change) if whom(change) == *expected => {}
            Some(change) => wrong.push(format!("{id}: breaks `{}`, expected `{expected}`", whom(change))),
            None => wrong.push(format!("{id}: not found among {:?}", found.iter().map(|c| &c.id).collect::<Vec<_>>())),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_schema_reached_from_several_operations_is_one_change_naming_them() {
    let found = changes(&changed(
        "required: [id, item, state]\n      properties:\n        id: {type: string}\n",
        "required: [item, state]\n      properties:\n",
    ));
    let removed = found.iter().find(|c| c.id == "Order.id: field removed").expect("found");
    assert_eq!(removed.reached_from, ["GET /orders (reply)", "POST /orders (reply)"]);
    assert_eq!(found.iter().filter(|c| c.id == removed.id).count(), 1);
}

#[test]
fn the_rust_api_moves_with_each_change() {
    let added = changes(&changed(
        "components:\n",
        "  /health:\n    get:\n      operationId: health\n      responses:\n        \"204\": {description: up}\ncomponents:\n",
    ));
    let operation = added.iter().find(|c| c.id == "GET /health: operation `health` added").expect("found");
    assert!(!operation.breaks());
    // A new client method; a new trait method every server must write.
    assert_eq!((operation.rust.client, operation.rust.server), (Semver::Minor, Semver::Major));

    let limit = changes(&changed("maximum: 100}}", "maximum: 50}}"));
    assert_eq!(limit[0].rust.types, Semver::Patch, "a limit changes no signature");
    assert!(changes(BASE).is_empty(), "a spec compared with itself has no changes");
}
