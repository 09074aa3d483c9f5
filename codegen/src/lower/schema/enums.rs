//! `enum` schemas → integer and string enums, their variants named from `x-enum-varnames` or
//! their values.

use openapiv3::Schema;

use crate::diagnostic::Pointer;
use crate::ir::{IntEnumDef, StringEnumDef, TypeDef, TypeRef};
use crate::lower::Lowerer;
use crate::lower::Naming;
use crate::naming::{Scope, camel};

impl<'a> Lowerer<'a> {
    pub(super) fn int_enum(
        &mut self,
        schema: &Schema,
        values: &[Option<i64>],
        ptr: &Pointer,
        naming: Naming,
    ) -> Option<TypeRef> {
        // The loader reads `null` among other values as `nullable: true`, so none is left here.
        let values: Vec<i64> = values.iter().flatten().copied().collect();
        let names = self.enum_names(schema, values.len(), ptr);
        let mut scope = Scope::default();
        let variants = values
            .iter()
            .enumerate()
            .map(|(i, value)| {
                let wanted = match &names {
                    Some(names) => camel(&names[i]),
                    None if *value < 0 => format!("ValueMinus{}", value.unsigned_abs()),
                    None => format!("Value{value}"),
                };
                (scope.claim(&wanted), *value)
            })
            .collect();
        let name = self.claim(naming);
        self.add_type(TypeDef::IntEnum(IntEnumDef {
            name: name.clone(),
            doc: crate::lower::prose(&schema.schema_data.description),
            variants,
            unlisted: scope.claim_first(Self::UNLISTED),
        }));
        Some(self.named(&name))
    }

    /// Variant names from `x-enum-varnames` (or NSwag's `x-enumNames`), checked against the values.
    fn enum_names(&mut self, schema: &Schema, count: usize, ptr: &Pointer) -> Option<Vec<String>> {
        let ext = &schema.schema_data.extensions;
        let (key, names) = ["x-enum-varnames", "x-enumNames"].iter().find_map(|k| ext.get(*k).map(|v| (*k, v)))?;
        let names: Option<Vec<String>> =
            names.as_array().and_then(|a| a.iter().map(|n| n.as_str().map(str::to_string)).collect());
        // Names that do not fit the values are not guessed at: the values name the variants.
        match names {
            Some(names) if names.len() == count => Some(names),
            Some(names) => {
                let message =
                    format!("{} names for {count} enum values; the variants are named by their values", names.len());
                self.warn(&ptr.push(key), message);
                None
            }
            None => {
                self.warn(&ptr.push(key), "not a list of strings; the variants are named by their values");
                None
            }
        }
    }

    pub(super) fn string_enum(
        &mut self,
        schema: &Schema,
        values: &[Option<String>],
        ptr: &Pointer,
        naming: Naming,
    ) -> Option<TypeRef> {
        // The loader reads `null` among other values as `nullable: true`, so none is left here.
        let values: Vec<&String> = values.iter().flatten().collect();
        let names = self.enum_names(schema, values.len(), ptr);
        let mut scope = Scope::default();
        let variants = values
            .iter()
            .enumerate()
            .map(|(i, value)| {
                let wanted = camel(names.as_ref().map_or(value.as_str(), |n| n[i].as_str()));
                (scope.claim(&wanted), value.to_string())
            })
            .collect();
        let name = self.claim(naming);
        self.add_type(TypeDef::StringEnum(StringEnumDef {
            name: name.clone(),
            doc: crate::lower::prose(&schema.schema_data.description),
            variants,
            unlisted: scope.claim_first(Self::UNLISTED),
        }));
        Some(self.named(&name))
    }
}
