//! An operation's parameters: path, query, header and cookie, their styles, defaults and the
//! path template they fill.

use std::borrow::Cow;

use openapiv3::{Parameter, ParameterSchemaOrContent, PathStyle, QueryStyle, ReferenceOr, Schema};
use serde_json::Value;

use super::bodies::{is_json, unwritten_schema};
use super::{OpContext, non_null};

use crate::diagnostic::Pointer;
use crate::ir::{
    CommonHeader, Constraints, DefaultValue, Dispatch, Location, ObjectStyle, Param, Reply, TypeDef, TypeRef,
};
use crate::lower::Lowerer;
use crate::lower::Naming;
use crate::naming::{Scope, camel, snake};

/// Names a request builder uses for itself, and `clone`, which a paged walk calls on it.
const RESERVED_PARAM_NAMES: &[&str] =
    &["body", "client", "clone", "into_future", "into_stream", "new", "send", "timeout"];

/// Headers OpenAPI says to ignore when declared as parameters.
const IGNORED_HEADERS: &[&str] = &["accept", "content-type", "authorization"];

/// Where a parameter goes and how its style spells it.
struct Placement {
    location: Location,
    explode: bool,
    /// `style: deepObject`, in the query.
    deep: bool,
    /// What joins a list's items: `,`, or ` ` and `|` for the delimited styles.
    delimiter: char,
    /// `allowEmptyValue` on an optional query parameter: `name=` is read as absent.
    empty_is_absent: bool,
}

/// A protocol switch needs the request's `Upgrade` header to name the protocol: a required header
/// parameter of its own, unless the operation declares one.
pub(super) fn upgrade_header(mut params: Vec<Param>, reply: &Reply) -> Vec<Param> {
    let declared = params.iter().any(|p| p.location == Location::Header && p.wire.eq_ignore_ascii_case("upgrade"));
    if !matches!(reply, Reply::Upgrade { .. }) || declared {
        return params;
    }
    let taken = |name: &str| name == "body" || params.iter().any(|p| p.name == name);
    let name = ["protocol", "upgrade", "upgrade_protocol"].into_iter().find(|n| !taken(n)).unwrap_or("upgrade_to");
    params.push(Param {
        wire: "Upgrade".to_string(),
        name: name.to_string(),
        location: Location::Header,
        ty: TypeRef::String,
        required: true,
        default: None,
        explode: false,
        delimiter: ',',
        constraints: Constraints::default(),
        object_style: None,
        json: false,
        path_prefix: String::new(),
        empty_is_absent: false,
        doc: Some("The protocol to switch the connection to, sent in `Upgrade` (`websocket`, `h2c`, ...).".to_string()),
    });
    params
}

impl<'a> Lowerer<'a> {
    pub(super) fn params(
        &mut self,
        ctx: &OpContext,
        path_level: &[ReferenceOr<Parameter>],
        op_level: &[ReferenceOr<Parameter>],
        common: &[CommonHeader],
    ) -> (Vec<Param>, Vec<usize>) {
        let merged = self.merged_params(ctx, path_level, op_level);
        // Path parameters the spec declares, lowered or not (one refused is reported already).
        let declared: Vec<String> = merged
            .iter()
            .filter(|(_, p)| matches!(p, Parameter::Path { .. }))
            .map(|(_, p)| p.parameter_data_ref().name.clone())
            .collect();
        let mut scope = Scope::with_reserved(RESERVED_PARAM_NAMES);
        let mut params = Vec::new();
        let mut common_used = Vec::new();
        for (ptr, param) in merged {
            let Some(placement) = self.placement(&ptr, param, common, &mut common_used) else { continue };
            if let Some(param) = self.param(ctx, &ptr, param, placement, &mut scope) {
                params.push(param);
            }
        }
        self.check_path_template(ctx, &mut params, &declared, &mut scope);
        common_used.sort();
        (params, common_used)
    }

    /// The operation's parameters and its path's, resolved: operation-level ones override
    /// path-level ones with the same name and location.
    fn merged_params<'p>(
        &mut self,
        ctx: &OpContext,
        path_level: &'p [ReferenceOr<Parameter>],
        op_level: &'p [ReferenceOr<Parameter>],
    ) -> Vec<(Pointer, &'p Parameter)>
    where
        'a: 'p,
    {
        let mut merged: Vec<(Pointer, &Parameter)> = Vec::new();
        let levels = [(ctx.ptr.clone(), op_level), (Pointer::root().push("paths").push(ctx.path), path_level)];
        for (base, list) in levels {
            for (i, p) in list.iter().enumerate() {
                let ptr = base.push("parameters").push(i);
                let Some(param) = self.resolve_parameter(p) else {
                    self.unresolved(&ptr, p, "a parameter in #/components/parameters", "the parameter is left out");
                    continue;
                };
                let key = (param.parameter_data_ref().name.clone(), std::mem::discriminant(param));
                if !merged.iter().any(|(_, m)| (m.parameter_data_ref().name.clone(), std::mem::discriminant(*m)) == key)
                {
                    merged.push((ptr, param));
                }
            }
        }
        merged
    }

    /// Where a parameter goes and how its style spells it; `None` for a header OpenAPI says to
    /// ignore, or one of the document's common headers (whose index goes into `common_used`).
    fn placement(
        &mut self,
        ptr: &Pointer,
        param: &Parameter,
        common: &[CommonHeader],
        common_used: &mut Vec<usize>,
    ) -> Option<Placement> {
        let data = param.parameter_data_ref();
        let mut placement = Placement {
            location: Location::Path,
            explode: data.explode.unwrap_or(false),
            deep: false,
            delimiter: ',',
            empty_is_absent: false,
        };
        match param {
            Parameter::Path { .. } => {}
            Parameter::Query { style, allow_reserved, allow_empty_value, .. } => {
                placement.location = Location::Query;
                placement.deep = matches!(style, QueryStyle::DeepObject);
                // `name=` says "no value": read as absent, as no value of most types is spelled
                // by empty text.
                placement.empty_is_absent = allow_empty_value.unwrap_or(false) && !data.required;
                // Reserved characters may go unencoded; encoded, they mean the same to any
                // server, so they are.
                if *allow_reserved {
                    self.warn(
                        &ptr.push("allowReserved"),
                        "`allowReserved` is honoured by percent-encoding reserved characters anyway, which servers decode alike",
                    );
                }
                // Only `form` explodes unless told otherwise.
                placement.explode = data.explode.unwrap_or(matches!(style, QueryStyle::Form));
                match style {
                    QueryStyle::SpaceDelimited => placement.delimiter = ' ',
                    QueryStyle::PipeDelimited => placement.delimiter = '|',
                    QueryStyle::Form | QueryStyle::DeepObject => {}
                }
            }
            Parameter::Header { .. } => {
                let lower = data.name.to_ascii_lowercase();
                if IGNORED_HEADERS.contains(&lower.as_str()) {
                    let instead = match lower.as_str() {
                        "accept" => "the replies' media types say what the client accepts",
                        "content-type" => "the request body's media type says it",
                        _ => "credentials are sent as the operation's `security` says",
                    };
                    self.warn(ptr, format!("header parameter `{}` is ignored, as OpenAPI says: {instead}", data.name));
                    return None;
                }
                if let Some(i) = common.iter().position(|c| c.header.eq_ignore_ascii_case(&data.name)) {
                    common_used.push(i);
                    return None;
                }
                placement.location = Location::Header;
            }
            Parameter::Cookie { .. } => {
                placement.location = Location::Cookie;
                placement.explode = false;
            }
        }
        Some(placement)
    }

    /// One parameter, placed; `None` when its schema cannot be lowered or its style cannot
    /// carry it (reported).
    fn param(
        &mut self,
        ctx: &OpContext,
        ptr: &Pointer,
        param: &Parameter,
        placement: Placement,
        scope: &mut Scope,
    ) -> Option<Param> {
        let data = param.parameter_data_ref();
        let Placement { location, mut explode, deep, mut delimiter, empty_is_absent } = placement;
        // `label` (`.a`) and `matrix` (`;id=a`) spell even one value differently: a prefix in the
        // segment.
        let path_prefix = match param {
            Parameter::Path { style: PathStyle::Label, .. } => ".".to_string(),
            Parameter::Path { style: PathStyle::Matrix, .. } => format!(";{}=", data.name),
            _ => String::new(),
        };
        let (schema, schema_ptr, mut json) = self.param_schema(ptr, data);
        let naming = Naming::Derived(format!("{}{}", ctx.type_name, camel(&data.name)));
        let ty = self.lower_schema(&schema, &schema_ptr, naming)?;
        let ty = self.param_type(ty, location);
        // A delimiter joins the items of a list; one value has none to join, and is `form`.
        if delimiter != ',' && !matches!(self.unaliased(&ty), TypeRef::Vec(_)) {
            let style = if delimiter == '|' { "pipeDelimited" } else { "spaceDelimited" };
            self.warn(&ptr.push("style"), format!("style `{style}` applies only to lists; read as `form`"));
            delimiter = ',';
        }
        let mut wire = data.name.clone();
        let object_style = self.object_style(ptr, &data.name, (location, deep), &ty, &mut explode, &mut wire);
        self.warn_nested_in_query(object_style, &ty, &schema_ptr, &data.name);
        // A prefix spells one value or a list; objects in those styles are not written yet.
        if !path_prefix.is_empty() && (json || object_style.is_some() || !self.is_simple(&ty, true)) {
            let style = if path_prefix == "." { "label" } else { "matrix" };
            self.report(
                &ptr.push("style"),
                format!("an object in a path parameter of style `{style}` is not supported yet"),
            );
            return None;
        }
        let lists = matches!(location, Location::Query | Location::Header | Location::Path);
        if object_style.is_none() && !json && !self.is_simple(&ty, lists) {
            // A value with no plain-text form (a list of objects, a union of shapes) still has a
            // JSON one (percent-encoded in a cookie, as every cookie value is).
            let each = if location == Location::Query && matches!(self.unaliased(&ty), TypeRef::Vec(_)) {
                ", each item a `name=<JSON>` pair"
            } else {
                ""
            };
            self.warn(
                &schema_ptr,
                format!("parameter `{}` has no plain-text form; it is written as its JSON text{each}", data.name),
            );
            json = true;
        }
        let resolved = self.resolve_schema(&schema).cloned();
        let default = match resolved.as_ref().and_then(|s| s.schema_data.default.clone()) {
            Some(value) => match self.default_value(&ty, &value) {
                Some(d) => Some(d),
                None => {
                    self.warn(
                        &schema_ptr.push("default"),
                        format!("default {value} does not fit the parameter's type and is ignored"),
                    );
                    None
                }
            },
            None => None,
        };
        let constraints = match &*schema {
            ReferenceOr::Item(schema) => self.constraints(schema, &schema_ptr),
            ReferenceOr::Reference { reference } => self.referenced_constraints(reference),
        };
        // A parameter cannot spell `null` but by its absence: one that is required and may be
        // `null` is one that may be left out.
        let mut required = data.required || location == Location::Path;
        if required && location != Location::Path && resolved.as_ref().is_some_and(|s| s.schema_data.nullable) {
            self.warn(
                &ptr.push("required"),
                format!(
                    "`{}` is required and may be `null`, which a parameter says by being left out: it is optional",
                    data.name
                ),
            );
            required = false;
        }
        Some(Param {
            wire,
            name: scope.claim(&snake(&data.name)),
            location,
            ty,
            required,
            default,
            explode,
            delimiter,
            constraints,
            object_style: object_style.filter(|_| !json),
            json,
            path_prefix,
            empty_is_absent,
            doc: crate::lower::described(&data.description, data.example.as_ref(), true),
        })
    }

    /// A parameter's schema, where it is, and whether its value is JSON text: `content` names the
    /// media type of the value's text, JSON written as JSON text and anything else read by its
    /// schema as usual. A media type without a schema carries text, or any JSON value for JSON.
    fn param_schema<'p>(
        &mut self,
        ptr: &Pointer,
        data: &'p openapiv3::ParameterData,
    ) -> (Cow<'p, ReferenceOr<Schema>>, Pointer, bool) {
        match &data.format {
            ParameterSchemaOrContent::Schema(s) => (Cow::Borrowed(s), ptr.push("schema"), false),
            ParameterSchemaOrContent::Content(content) => match content.iter().next() {
                None => {
                    self.warn(&ptr.push("content"), "`content` names no media type; the value is read as text");
                    (Cow::Owned(unwritten_schema(false)), ptr.push("content"), false)
                }
                Some((media_type, media)) => {
                    let json = is_json(media_type);
                    let schema = match &media.schema {
                        Some(schema) => Cow::Borrowed(schema),
                        None => {
                            let read = if json { "any JSON value" } else { "text" };
                            self.warn(
                                &ptr.push("content").push(media_type),
                                format!("the media type has no schema; the value is read as {read}"),
                            );
                            Cow::Owned(unwritten_schema(json))
                        }
                    };
                    (schema, ptr.push("content").push(media_type).push("schema"), json)
                }
            },
        }
    }

    /// A parameter's type as it is carried: a list behind a reference (`$ref:
    /// '#/components/schemas/Ids'`) as the same list written inline, its items never `null` (a
    /// parameter cannot carry `null`), and one value or many in a query or header.
    fn param_type(&self, ty: TypeRef, location: Location) -> TypeRef {
        let ty = match self.unaliased(&ty) {
            TypeRef::Vec(_) => self.unaliased(&ty).clone(),
            _ => ty,
        };
        let ty = match ty {
            TypeRef::Vec(item) => TypeRef::Vec(Box::new(non_null(*item))),
            other => other,
        };
        match location {
            Location::Query | Location::Header => self.one_or_many(ty),
            Location::Path | Location::Cookie => ty,
        }
    }

    /// How an object (or a map) is spelled where the parameter goes: in the query its properties
    /// as `name[property]` pairs (deepObject) or as parameters of their own (form, exploded), a
    /// map's entries as `name[key]` pairs; in a path or a header, properties of one value each.
    /// A `deepObject` list changes `wire` to `name[]`.
    fn object_style(
        &mut self,
        ptr: &Pointer,
        name: &str,
        (location, deep): (Location, bool),
        ty: &TypeRef,
        explode: &mut bool,
        wire: &mut String,
    ) -> Option<ObjectStyle> {
        let map = matches!(self.unaliased(ty), TypeRef::Map(_));
        match (location, deep, *explode, self.is_struct(ty) || map) {
            (Location::Query, true, _, true) => Some(ObjectStyle::Deep),
            (Location::Query, false, true, true) if !map => Some(ObjectStyle::Exploded),
            (Location::Query, false, true, true) => {
                self.warn(
                    ptr,
                    format!(
                        "map `{name}` is exploded into the query (`style: form`): each entry is a parameter of its own, and the server reads every query parameter the operation does not declare as an entry"
                    ),
                );
                Some(ObjectStyle::Exploded)
            }
            (Location::Path | Location::Header, _, _, true) if !map && self.simple_fields(ty) => {
                Some(ObjectStyle::Simple)
            }
            // OpenAPI leaves a `deepObject` list undefined; `name[]=a&name[]=b` is the form the
            // servers that take one read (Stripe's `expand[]`, Rails, PHP).
            (Location::Query, true, _, false) if matches!(self.unaliased(ty), TypeRef::Vec(_)) => {
                *wire = format!("{name}[]");
                *explode = true;
                self.warn(&ptr.push("style"), format!("`deepObject` list `{name}` is sent as `{wire}=a&{wire}=b`"));
                None
            }
            // One value has no properties to spell as `name[property]`: it is `name=value`.
            (Location::Query, true, _, false) => {
                let message = format!("`deepObject` applies to objects, and `{name}` is none; read as `form`");
                self.warn(&ptr.push("style"), message);
                None
            }
            _ => None,
        }
    }

    /// OpenAPI's styles spell an object's properties as text; one that is itself an object (or a
    /// list of them) has no form there, and is written as its JSON text, which is said once.
    fn warn_nested_in_query(&mut self, style: Option<ObjectStyle>, ty: &TypeRef, schema_ptr: &Pointer, name: &str) {
        if !matches!(style, Some(ObjectStyle::Exploded | ObjectStyle::Deep)) {
            return;
        }
        let Some(fields) = self.struct_named(self.unaliased(ty)) else { return };
        let nested: Vec<String> =
            fields.fields.iter().filter(|f| !self.is_simple(&f.ty, true)).map(|f| format!("`{}`", f.wire)).collect();
        if !nested.is_empty() {
            self.warn(
                schema_ptr,
                format!(
                    "in query object `{name}`, {} {} no form in OpenAPI's styles (an object or list of objects inside an object); each is written as its JSON text",
                    nested.join(", "),
                    if nested.len() == 1 { "has" } else { "have" }
                ),
            );
        }
    }

    fn check_path_template(
        &mut self,
        ctx: &OpContext,
        params: &mut Vec<Param>,
        declared: &[String],
        scope: &mut Scope,
    ) {
        let mut names = Vec::new();
        let mut rest = ctx.path;
        while let Some(start) = rest.find('{') {
            let Some(len) = rest[start..].find('}') else {
                self.report(ctx.ptr, "the path template has an unclosed `{`");
                return;
            };
            names.push(&rest[start + 1..start + len]);
            rest = &rest[start + len + 1..];
        }
        let is_path = |p: &Param| p.location == Location::Path;
        for name in &names {
            // A parameter spelled with other letter case than the template is unambiguous.
            if !params.iter().any(|p| is_path(p) && p.wire == *name)
                && let Some(p) = params
                    .iter_mut()
                    .find(|p| is_path(p) && p.wire.eq_ignore_ascii_case(name) && !names.contains(&p.wire.as_str()))
            {
                self.warn(
                    ctx.ptr,
                    format!("path parameter `{}` is spelled `{{{name}}}` in the path template, which is used", p.wire),
                );
                p.wire = name.to_string();
            }
            // A segment nobody declared (a slip large documents make) can only be text.
            if !params.iter().any(|p| is_path(p) && p.wire == *name)
                && !declared.iter().any(|d| d.eq_ignore_ascii_case(name))
            {
                self.warn(
                    ctx.ptr,
                    format!(
                        "the path template names `{{{name}}}` but no path parameter is called `{name}`; it is read as a required string"
                    ),
                );
                params.push(Param {
                    wire: name.to_string(),
                    name: scope.claim(&snake(name)),
                    location: Location::Path,
                    ty: TypeRef::String,
                    required: true,
                    default: None,
                    explode: false,
                    delimiter: ',',
                    constraints: Constraints::default(),
                    object_style: None,
                    json: false,
                    path_prefix: String::new(),
                    empty_is_absent: false,
                    doc: None,
                });
            }
        }
        // A path parameter the template has no place for cannot be sent: it is no part of the
        // operation (a slip of documents that share parameters between paths).
        let (unplaced, kept): (Vec<Param>, Vec<Param>) =
            std::mem::take(params).into_iter().partition(|p| is_path(p) && !names.contains(&p.wire.as_str()));
        *params = kept;
        for p in unplaced {
            self.warn(
                ctx.ptr,
                format!(
                    "path parameter `{}` does not appear in the path template {}; it is left out of the operation",
                    p.wire, ctx.path
                ),
            );
        }
    }

    /// Whether a type can be written as text in a parameter: scalars, enums, and (in a query) arrays
    /// of them.
    pub(crate) fn is_simple(&self, ty: &TypeRef, allow_array: bool) -> bool {
        match ty {
            TypeRef::String
            | TypeRef::Bool
            | TypeRef::I32
            | TypeRef::I64
            | TypeRef::F32
            | TypeRef::F64
            | TypeRef::Uuid
            | TypeRef::DateTime => true,
            TypeRef::Vec(item) => allow_array && self.is_simple(item, false),
            TypeRef::Named(id) => match self.def(*id) {
                Some(TypeDef::IntEnum(_) | TypeDef::StringEnum(_)) => true,
                // A union without a discriminator whose members are all single values.
                Some(TypeDef::Union(u)) => {
                    !matches!(u.dispatch, Dispatch::Tag { .. })
                        && u.variants.iter().all(|v| self.is_simple(&v.ty, false))
                }
                Some(TypeDef::Alias { target, .. }) => self.is_simple(&target.clone(), allow_array),
                _ => false,
            },
            TypeRef::Json
            | TypeRef::Map(_)
            | TypeRef::Bytes
            | TypeRef::File
            | TypeRef::Nullable(_)
            | TypeRef::BodyChoice(_) => false,
        }
    }

    pub(crate) fn default_value(&self, ty: &TypeRef, value: &Value) -> Option<DefaultValue> {
        match (ty, value) {
            (TypeRef::Bool, Value::Bool(b)) => Some(DefaultValue::Bool(*b)),
            (TypeRef::I32, Value::Number(n)) => n.as_i64().filter(|v| i32::try_from(*v).is_ok()).map(DefaultValue::Int),
            (TypeRef::I64, Value::Number(n)) => n.as_i64().map(DefaultValue::Int),
            (TypeRef::F32 | TypeRef::F64, Value::Number(n)) => n.as_f64().map(DefaultValue::Float),
            (TypeRef::String, Value::String(s)) => Some(DefaultValue::String(s.clone())),
            (TypeRef::Vec(item), Value::Array(items)) => {
                items.iter().map(|v| self.default_value(item, v)).collect::<Option<_>>().map(DefaultValue::List)
            }
            (TypeRef::Map(item), Value::Object(map)) => map
                .iter()
                .map(|(k, v)| Some((k.clone(), self.default_value(item, v)?)))
                .collect::<Option<_>>()
                .map(DefaultValue::Map),
            (TypeRef::Json, value) => Some(DefaultValue::Json(value.clone())),
            (TypeRef::Named(id), _) => match self.def(*id)? {
                TypeDef::IntEnum(e) => {
                    let v = value.as_i64()?;
                    let (variant, _) = e.variants.iter().find(|(_, wire)| *wire == v)?;
                    Some(DefaultValue::Variant { ty: *id, variant: variant.clone() })
                }
                TypeDef::StringEnum(e) => {
                    let v = value.as_str()?;
                    let (variant, _) = e.variants.iter().find(|(_, wire)| wire == v)?;
                    Some(DefaultValue::Variant { ty: *id, variant: variant.clone() })
                }
                TypeDef::Alias { target, .. } => self.default_value(&target.clone(), value),
                TypeDef::Struct(_) | TypeDef::Union(_) => None,
            },
            _ => None,
        }
    }
}
