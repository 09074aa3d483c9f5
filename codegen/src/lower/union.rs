//! `oneOf` and `anyOf` → [`UnionDef`]s, and how a reader tells their members apart: by the
//! `discriminator` when there is one, or by a property every member requires with a value of its
//! own; otherwise by the kind of JSON value, among several object members by a property only
//! one of them requires (one object member may have none: it is read when no other's is there),
//! and among several lists by reading their items, in turn.
//! Members that cannot be told apart make the union plain JSON, with a warning, rather than a
//! guess.

use openapiv3::{AnySchema, ReferenceOr, Schema, SchemaKind, Type};

use serde_json::Value;

use super::Lowerer;
use super::Naming;
use super::checks::as_json;
use crate::diagnostic::Pointer;
use crate::ir::{Dispatch, Shape, TypeDef, TypeRef, UnionDef, Variant};
use crate::naming::{Scope, camel};

impl Lowerer<'_> {
    /// The union of `members`, each merged with the `shared` schemas (as an `allOf`) when there
    /// are any.
    pub(crate) fn union(
        &mut self,
        schema: &Schema,
        members: &[ReferenceOr<Schema>],
        shared: &[ReferenceOr<Schema>],
        keyword: &str,
        ptr: &Pointer,
        naming: Naming,
    ) -> Option<TypeRef> {
        let with_shared = |member: &ReferenceOr<Schema>, doc: Option<String>| {
            let all_of = shared.iter().chain([member]).cloned().collect();
            let schema_data = openapiv3::SchemaData { description: doc, ..Default::default() };
            ReferenceOr::Item(Schema { schema_data, schema_kind: SchemaKind::AllOf { all_of } })
        };
        if let [only] = members {
            let only = if shared.is_empty() {
                only.clone()
            } else {
                with_shared(only, schema.schema_data.description.clone())
            };
            return self.lower_schema(&only, &ptr.push(keyword).push(0), naming);
        }
        if members.is_empty() {
            let message =
                format!("`{keyword}` lists no schemas, which JSON Schema forbids; the value is read as any JSON value");
            self.warn(&ptr.push(keyword), message);
            return Some(TypeRef::Json);
        }
        let name = self.claim(naming);
        let mut scope = Scope::default();
        let mut variants = Vec::new();
        let mut spec_names = Vec::new();
        // The property that tells the members apart: the discriminator's, else one every member
        // requires with a value of its own (an internally tagged enum written without one).
        let implicit = match &schema.schema_data.discriminator {
            Some(_) => None,
            None => self.implicit_tag(members),
        };
        let tag_property = schema.schema_data.discriminator.as_ref().map(|d| d.property_name.as_str());
        let tag_property = tag_property.or(implicit.as_ref().map(|(property, _)| property.as_str()));
        for (i, member) in members.iter().enumerate() {
            let spec_name = member_reference(member);
            let at = ptr.push(keyword).push(i);
            // An inline member is named by the discriminator values it allows (`Payment::Card` of
            // type `PaymentCard`, `AlarmOrAlert` for two), else by its place (`Option2`).
            let tag = tag_property.filter(|_| spec_name.is_none());
            let tags = tag.map(|property| self.listed_tags(member, property, 0)).unwrap_or_default();
            let tag =
                (1..=3).contains(&tags.len()).then(|| tags.iter().map(|t| camel(t)).collect::<Vec<_>>().join("Or"));
            let part = tag.filter(|t| t.starts_with(|c: char| c.is_ascii_alphabetic()));
            let (ty, wanted) = if shared.is_empty() {
                let inline = part.clone().unwrap_or_else(|| format!("Option{}", i + 1));
                let ty = self.lower_schema(member, &at, Naming::Derived(format!("{name}{inline}")))?;
                let wanted = if part.is_some() && self.is_named(&ty, &format!("{name}{inline}")) {
                    inline
                } else {
                    variant_name(self, &ty, &name)
                };
                (ty, wanted)
            } else {
                // A new type per member, named after the union and the member: `PetCat`.
                let part = part.or_else(|| spec_name.map(camel)).unwrap_or_else(|| format!("Option{}", i + 1));
                let doc = match spec_name {
                    Some(spec_name) => {
                        format!("A `{name}` that is a `{spec_name}`: its properties and those every `{name}` has.")
                    }
                    None => format!(
                        "The `{name}` of the `{keyword}` member {}, with the properties every `{name}` has.",
                        i + 1
                    ),
                };
                let ty =
                    self.lower_schema(&with_shared(member, Some(doc)), &at, Naming::Derived(format!("{name}{part}")))?;
                (ty, part)
            };
            let constraints = match member {
                ReferenceOr::Reference { reference } => self.referenced_constraints(reference),
                ReferenceOr::Item(member) if shared.is_empty() => self.constraints(member, &at),
                // Merged with the shared part into an object of its own, which checks its fields.
                ReferenceOr::Item(_) => Default::default(),
            };
            variants.push(Variant { name: scope.claim(&wanted), ty, constraints });
            spec_names.push(spec_name);
        }
        // A discriminator that does not name the members is set aside: they are read by shape.
        let tagged = match &schema.schema_data.discriminator {
            Some(d) => match self.discriminator_values(d, members, &variants, &spec_names, keyword, ptr) {
                Ok(values) => Some((d, values)),
                Err((at, why)) => {
                    self.warn(&at, format!("{why}; the discriminator is not used and the value is read by its shape"));
                    None
                }
            },
            None => None,
        };
        let dispatch = match tagged {
            Some((d, values)) => {
                // Members that carry the same value cannot be told apart by it: read by shape.
                let repeated = values.iter().enumerate().find_map(|(k, (value, i))| {
                    values[..k].iter().find(|(v, _)| v == value).map(|(_, first)| (value.clone(), *first, *i))
                });
                match repeated {
                    None => Dispatch::Tag { property: d.property_name.clone(), values },
                    Some((value, first, second)) => {
                        self.warn(
                            &ptr.push("discriminator"),
                            format!(
                                "members {first} and {second} both carry `{}` = {value:?}, so the discriminator cannot tell them apart; the value is read by its shape",
                                d.property_name
                            ),
                        );
                        self.pending_unions.push((name.clone(), ptr.clone(), whole(schema, members, shared, keyword)));
                        Dispatch::Shape(Vec::new())
                    }
                }
            }
            None => match implicit {
                Some((property, values)) => Dispatch::Tag { property, values },
                None => {
                    self.pending_unions.push((name.clone(), ptr.clone(), whole(schema, members, shared, keyword)));
                    Dispatch::Shape(Vec::new())
                }
            },
        };
        let doc = super::prose(&schema.schema_data.description);
        self.add_type(TypeDef::Union(UnionDef {
            name: name.clone(),
            doc,
            variants,
            dispatch,
            text: false,
            check: None,
        }));
        Some(self.named(&name))
    }

    /// The value of the discriminator's property that selects each member, or where and why the
    /// discriminator does not say.
    fn discriminator_values(
        &self,
        d: &openapiv3::Discriminator,
        members: &[ReferenceOr<Schema>],
        variants: &[Variant],
        spec_names: &[Option<&str>],
        keyword: &str,
        ptr: &Pointer,
    ) -> Result<Vec<(String, usize)>, (Pointer, String)> {
        let mut values = Vec::new();
        if d.mapping.is_empty() {
            // The values a member allows for the property (one, or one per member of a choice it
            // is) are what the wire carries for it; otherwise the implicit mapping: the name of
            // the schema referred to.
            let allowed: Vec<Option<Vec<String>>> =
                members.iter().map(|m| self.member_tags(m, &d.property_name, 0)).collect();
            // A member whose own `enum` lists several values, one of which another member
            // lists too, is selected by its name instead: the list is then no tag but a shared
            // property.
            let shared = |tags: &Vec<String>, i: usize| {
                allowed.iter().enumerate().any(|(j, other)| {
                    j != i && other.as_ref().is_some_and(|other| other.iter().any(|t| tags.contains(t)))
                })
            };
            for (i, spec_name) in spec_names.iter().enumerate() {
                let listed = self.listed_tags(&members[i], &d.property_name, 0).len();
                let own = allowed[i].clone().filter(|tags| listed < 2 || !shared(tags, i));
                let Some(tags) = own.or_else(|| spec_name.map(|n| vec![n.to_string()])) else {
                    let why = "with no `mapping`, every member must be a $ref or allow one value of the property";
                    return Err((ptr.push(keyword).push(i), why.to_string()));
                };
                values.extend(tags.into_iter().map(|tag| (tag, i)));
            }
            return Ok(values);
        }
        for (value, target) in &d.mapping {
            let spec_name = target.strip_prefix("#/components/schemas/").unwrap_or(target);
            // The member whose type that schema is, or (merged with a shared part into a type of
            // its own) the member that names it.
            let found = self
                .schema_names
                .get(spec_name)
                .and_then(|rust| variants.iter().position(|v| self.is_named(&v.ty, rust)))
                .or_else(|| spec_names.iter().position(|n| *n == Some(spec_name)));
            match found {
                Some(i) => values.push((value.clone(), i)),
                None => {
                    let at = ptr.push("discriminator").push("mapping").push(value);
                    return Err((at, format!("`{target}` is not one of the `{keyword}` members")));
                }
            }
        }
        // The schema's own name still selects a member the mapping names otherwise, when that
        // member's property allows it: a reader accepts both.
        for (i, spec_name) in spec_names.iter().enumerate() {
            let Some(name) = spec_name else { continue };
            let taken = values.iter().any(|(v, _)| v == name);
            if !taken && self.fixed_tag(&members[i], &d.property_name, 0).is_none() {
                values.push((name.to_string(), i));
            }
        }
        Ok(values)
    }
}

/// The union as the JSON schema servers check a value of it against, should its members turn
/// out not to be told apart: the choice, the shared part, and whether `null` is allowed.
fn whole(schema: &Schema, members: &[ReferenceOr<Schema>], shared: &[ReferenceOr<Schema>], keyword: &str) -> Value {
    let mut whole = serde_json::json!({ keyword: as_json(&members) });
    if !shared.is_empty() {
        whole["allOf"] = as_json(&shared);
    }
    if schema.schema_data.nullable {
        whole["nullable"] = Value::Bool(true);
    }
    whole
}

/// The component schema a union member names: a `$ref`, or an `allOf` of one `$ref` with nothing
/// beside it but annotations and `type: object` (how a 3.1 `$ref` with a `description` beside it
/// reads in the 3.0 model).
fn member_reference(member: &ReferenceOr<Schema>) -> Option<&str> {
    match member {
        ReferenceOr::Reference { reference } => reference.strip_prefix("#/components/schemas/"),
        ReferenceOr::Item(Schema { schema_kind: SchemaKind::AllOf { all_of }, .. }) if all_of.len() == 1 => {
            member_reference(&all_of[0])
        }
        ReferenceOr::Item(Schema { schema_kind: SchemaKind::Any(any), .. })
            if any.all_of.len() == 1
                && *any
                    == AnySchema {
                        typ: any.typ.clone().filter(|t| t == "object"),
                        all_of: any.all_of.clone(),
                        ..AnySchema::default()
                    } =>
        {
            member_reference(&any.all_of[0])
        }
        ReferenceOr::Item(_) => None,
    }
}

impl Lowerer<'_> {
    /// A property every member requires and allows one value of, each member its own: the
    /// property and the member of each value.
    fn implicit_tag(&self, members: &[ReferenceOr<Schema>]) -> Option<(String, Vec<(String, usize)>)> {
        let first = self.resolve_schema(members.first()?)?;
        let candidates: Vec<&String> = match &first.schema_kind {
            SchemaKind::Type(Type::Object(o)) => o.required.iter().collect(),
            SchemaKind::Any(any) => any.required.iter().collect(),
            _ => return None,
        };
        candidates.into_iter().find_map(|property| {
            let mut values: Vec<(String, usize)> = Vec::new();
            for (i, member) in members.iter().enumerate() {
                let value = self.fixed_tag(member, property, 0).filter(|_| self.requires(member, property, 0))?;
                if values.iter().any(|(v, _)| *v == value) {
                    return None;
                }
                values.push((value, i));
            }
            Some((property.clone(), values))
        })
    }

    /// Whether `member` requires `property`, looking through `allOf` members.
    fn requires(&self, member: &ReferenceOr<Schema>, property: &str, depth: usize) -> bool {
        let Some(schema) = self.resolve_schema(member) else { return false };
        match &schema.schema_kind {
            SchemaKind::Type(Type::Object(o)) => o.required.iter().any(|r| r == property),
            SchemaKind::Any(any) => {
                any.required.iter().any(|r| r == property)
                    || (depth < 8 && any.all_of.iter().any(|m| self.requires(m, property, depth + 1)))
            }
            SchemaKind::AllOf { all_of } if depth < 8 => all_of.iter().any(|m| self.requires(m, property, depth + 1)),
            _ => false,
        }
    }

    /// The values of `property` that select `member`: those its `enum` lists, or, where it is
    /// itself a choice, those of each of its members.
    fn member_tags(&self, member: &ReferenceOr<Schema>, property: &str, depth: usize) -> Option<Vec<String>> {
        let listed = self.listed_tags(member, property, depth);
        if !listed.is_empty() {
            return Some(listed);
        }
        let schema = self.resolve_schema(member).filter(|_| depth < 8)?;
        let choices = match &schema.schema_kind {
            SchemaKind::OneOf { one_of } => one_of,
            SchemaKind::AnyOf { any_of } => any_of,
            // A reference with annotations beside it (a 3.1 `$ref` with a `title`).
            SchemaKind::AllOf { all_of } if all_of.len() == 1 => {
                return self.member_tags(&all_of[0], property, depth + 1);
            }
            SchemaKind::Any(any) if any.all_of.len() == 1 && any.properties.is_empty() => {
                return self.member_tags(&any.all_of[0], property, depth + 1);
            }
            // A choice beside `type: object`.
            SchemaKind::Any(any) if !any.one_of.is_empty() => &any.one_of,
            SchemaKind::Any(any) if !any.any_of.is_empty() => &any.any_of,
            _ => return None,
        };
        let nested: Option<Vec<Vec<String>>> =
            choices.iter().map(|m| self.member_tags(m, property, depth + 1)).collect();
        nested.map(|tags| tags.into_iter().flatten().collect()).filter(|tags: &Vec<String>| !tags.is_empty())
    }

    /// The one value `member` allows for `property` (a one-value `enum`, as a `const` becomes),
    /// looking through `allOf` members.
    fn fixed_tag(&self, member: &ReferenceOr<Schema>, property: &str, depth: usize) -> Option<String> {
        let mut listed = self.listed_tags(member, property, depth);
        if listed.len() == 1 { listed.pop() } else { None }
    }

    /// The text values `member`'s `enum` lists for `property` (none when it has no such list),
    /// looking through `allOf` members.
    fn listed_tags(&self, member: &ReferenceOr<Schema>, property: &str, depth: usize) -> Vec<String> {
        let Some(schema) = self.resolve_schema(member) else { return Vec::new() };
        let properties = match &schema.schema_kind {
            SchemaKind::Type(Type::Object(o)) => &o.properties,
            SchemaKind::Any(any) if any.all_of.is_empty() => &any.properties,
            SchemaKind::AllOf { all_of } if depth < 8 => {
                let mut found = all_of.iter().map(|m| self.listed_tags(m, property, depth + 1));
                return found.find(|tags| !tags.is_empty()).unwrap_or_default();
            }
            _ => return Vec::new(),
        };
        let Some(value) = properties.get(property).and_then(|p| self.resolve_schema(p)) else { return Vec::new() };
        match &value.schema_kind {
            SchemaKind::Type(Type::String(s)) => s.enumeration.iter().flatten().cloned().collect(),
            SchemaKind::Any(any) => any.enumeration.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
            _ => Vec::new(),
        }
    }
}

/// Decides how each union without a discriminator is read, once every type is known; a union
/// whose members cannot be told apart becomes an alias of JSON, with a warning.
pub(crate) fn finish_unions(lowerer: &mut Lowerer) {
    for (name, ptr, schema) in std::mem::take(&mut lowerer.pending_unions) {
        let Some(index) = lowerer.index_of(&name) else { continue };
        let TypeDef::Union(union) = &lowerer.types[index] else { continue };
        match shapes(lowerer, union) {
            Ok(order) => {
                let text = union.variants.iter().all(|v| lowerer.is_simple(&v.ty, false));
                let exclusive = schema.get("oneOf").is_some() && may_overlap(lowerer, union);
                let check = exclusive.then(|| lowerer.register_check(schema, &ptr));
                if let TypeDef::Union(union) = &mut lowerer.types[index] {
                    union.dispatch = Dispatch::Shape(order);
                    union.text = text;
                    union.check = check;
                }
            }
            Err(why) => {
                let doc = union.doc.clone();
                let message = format!(
                    "{why}; without a `discriminator` the value is kept as untyped JSON, which servers check against the schema"
                );
                lowerer.warn(&ptr, message);
                let check = Some(lowerer.register_check(schema, &ptr));
                lowerer.types[index] = TypeDef::Alias { name, doc, target: TypeRef::Json, check, merged: false };
            }
        }
    }
}

/// Whether two members may accept one value: both of one kind of JSON value (two lists both
/// accept `[]`, two open objects a value with both markers, an integer is also a number), or one
/// a choice or any value. A reader takes the first that fits; `oneOf` refuses such a value.
fn may_overlap(lowerer: &Lowerer, union: &UnionDef) -> bool {
    let groups: Vec<u8> = union.variants.iter().map(|v| classify(lowerer, &v.ty).0).collect();
    groups.iter().enumerate().any(|(i, g)| *g == ANY || groups[i + 1..].contains(g))
}

/// The order in which a reader tries the members, or why they cannot be told apart.
fn shapes(lowerer: &Lowerer, union: &UnionDef) -> Result<Vec<(Shape, usize)>, String> {
    // (group, rank within the group, variant): a lower rank is more specific and tried first;
    // two members of the same group and rank would be indistinguishable.
    let mut ranked: Vec<(u8, u8, usize)> = Vec::new();
    for (i, v) in union.variants.iter().enumerate() {
        let (group, rank) = classify(lowerer, &v.ty);
        ranked.push((group, rank, i));
    }
    ranked.sort();
    let objects: Vec<usize> = ranked.iter().filter(|(g, _, _)| *g == OBJECT).map(|(_, _, i)| *i).collect();
    let mut order = Vec::new();
    for pair in ranked.windows(2) {
        let ((g1, r1, a), (g2, r2, b)) = (pair[0], pair[1]);
        // Lists are told apart by reading their items: each is tried in turn.
        let by_reading = matches!(g1, OBJECT | ARRAY) || (matches!(g1, STRING | NUMBER) && r1 == 0);
        if g1 == g2 && r1 == r2 && !by_reading {
            return Err(format!(
                "members `{}` and `{}` accept the same JSON values",
                union.variants[a].name, union.variants[b].name
            ));
        }
    }
    // A reader tries lists in turn and takes the first that reads, which any list does when it is
    // empty: lists of the same items, or lists with limits on their length, are told apart only
    // by those limits, which a reader does not see.
    let lists: Vec<usize> = ranked.iter().filter(|(g, _, _)| *g == ARRAY).map(|(_, _, i)| *i).collect();
    let limited = |i: usize| {
        let c = &union.variants[i].constraints;
        c.min_items.is_some() || c.max_items.is_some() || c.unique_items
    };
    for (k, &a) in lists.iter().enumerate() {
        let same =
            lists[k + 1..].iter().find(|&&b| union.variants[b].ty == union.variants[a].ty || limited(a) || limited(b));
        if let Some(&b) = same {
            return Err(format!(
                "members `{}` and `{}` are lists told apart only by their items' types and their limits",
                union.variants[a].name, union.variants[b].name
            ));
        }
    }
    // One object member may go without a marker: a value with no other member's marker can only
    // be that one, so it is tried after them.
    let mut unmarked: Option<(usize, String)> = None;
    for (group, _, i) in ranked {
        let shape = match group {
            STRING => Shape::String,
            NUMBER => Shape::Number,
            BOOL => Shape::Bool,
            ARRAY => Shape::Array,
            OBJECT if objects.len() == 1 => Shape::Object { marker: None },
            OBJECT => match marker(lowerer, union, &objects, i) {
                Ok(marker) => Shape::Object { marker: Some(marker) },
                Err(why) => match unmarked {
                    None => {
                        unmarked = Some((i, why));
                        continue;
                    }
                    Some((_, first)) => return Err(format!("{first}, nor does `{}`", union.variants[i].name)),
                },
            },
            _ => Shape::Any,
        };
        order.push((shape, i));
    }
    if let Some((i, _)) = unmarked {
        let after_objects = order.iter().position(|(shape, _)| matches!(shape, Shape::Any)).unwrap_or(order.len());
        order.insert(after_objects, (Shape::Object { marker: None }, i));
    }
    Ok(order)
}

const STRING: u8 = 0;
const NUMBER: u8 = 1;
const BOOL: u8 = 2;
const ARRAY: u8 = 3;
const OBJECT: u8 = 4;
const ANY: u8 = 5;

/// The group of JSON values a type accepts, and its rank: closed sets (enums) first, then
/// formats, then anything of the kind.
fn classify(lowerer: &Lowerer, ty: &TypeRef) -> (u8, u8) {
    match ty {
        TypeRef::Uuid => (STRING, 1),
        TypeRef::DateTime => (STRING, 2),
        TypeRef::String => (STRING, 3),
        TypeRef::I32 | TypeRef::I64 => (NUMBER, 1),
        TypeRef::F32 | TypeRef::F64 => (NUMBER, 2),
        TypeRef::Bool => (BOOL, 0),
        TypeRef::Vec(_) => (ARRAY, 0),
        TypeRef::Nullable(inner) => classify(lowerer, inner),
        TypeRef::Map(_) => (OBJECT, 1),
        TypeRef::Json | TypeRef::Bytes | TypeRef::File | TypeRef::BodyChoice(_) => (ANY, 0),
        TypeRef::Named(id) => match lowerer.def(*id) {
            Some(TypeDef::StringEnum(_)) => (STRING, 0),
            Some(TypeDef::IntEnum(_)) => (NUMBER, 0),
            Some(TypeDef::Struct(_)) => (OBJECT, 0),
            Some(TypeDef::Alias { target, .. }) => classify(lowerer, &target.clone()),
            Some(TypeDef::Union(_)) | None => (ANY, 0),
        },
    }
}

/// A property the object member `i` requires and no other object member declares.
fn marker(lowerer: &Lowerer, union: &UnionDef, objects: &[usize], i: usize) -> Result<String, String> {
    let fields_of = |j: usize| match &union.variants[j].ty {
        TypeRef::Named(id) => match lowerer.def(*id) {
            Some(TypeDef::Struct(s)) => Some(s),
            _ => None,
        },
        _ => None,
    };
    let Some(own) = fields_of(i) else {
        return Err(format!("member `{}` is a map beside other object members", union.variants[i].name));
    };
    own.fields
        .iter()
        .filter(|f| f.required)
        .find(|f| {
            objects
                .iter()
                .filter(|&&j| j != i)
                .all(|&j| fields_of(j).is_some_and(|s| s.fields.iter().all(|g| g.wire != f.wire)))
        })
        .map(|f| f.wire.clone())
        .ok_or_else(|| {
            format!(
                "object member `{}` requires no property that the other object members lack",
                union.variants[i].name
            )
        })
}

/// A variant's name from its type: the type's own name (without the union's prefix for inline
/// members), or the JSON kind.
fn variant_name(lowerer: &Lowerer, ty: &TypeRef, union: &str) -> String {
    match ty {
        TypeRef::Named(id) => {
            let name = lowerer.name_of(*id);
            let inline = name.strip_prefix(union).filter(|rest| rest.starts_with("Option"));
            camel(inline.unwrap_or(name))
        }
        TypeRef::String => "String".into(),
        TypeRef::Bool => "Bool".into(),
        TypeRef::I32 | TypeRef::I64 => "Integer".into(),
        TypeRef::F32 | TypeRef::F64 => "Number".into(),
        TypeRef::Uuid => "Uuid".into(),
        TypeRef::DateTime => "DateTime".into(),
        TypeRef::Json => "Value".into(),
        TypeRef::Bytes => "Bytes".into(),
        TypeRef::File => "File".into(),
        TypeRef::BodyChoice(name) => name.clone(),
        TypeRef::Vec(item) => format!("{}List", variant_name(lowerer, item, union)),
        TypeRef::Map(value) => format!("{}Map", variant_name(lowerer, value, union)),
        TypeRef::Nullable(inner) => variant_name(lowerer, inner, union),
    }
}
