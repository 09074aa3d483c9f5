//! `with_<field>` setters for the optional fields of generated structs. The structs are
//! `#[non_exhaustive]`, so a field added to a schema is a compatible release of the crate, and
//! other crates build them with the constructor and these setters instead of a struct literal:
//! `Pet::new(id).with_tag(tag)`.

use crate::Nullable;

/// How a setter's value is stored in its field: present, and boxed where the field is.
pub trait Fill<T> {
    /// The field holding `value`.
    fn fill(value: T) -> Self;
}

impl<T> Fill<T> for Option<T> {
    fn fill(value: T) -> Self {
        Some(value)
    }
}

impl<T> Fill<T> for Option<Box<T>> {
    fn fill(value: T) -> Self {
        Some(Box::new(value))
    }
}

impl<T> Fill<T> for Nullable<T> {
    fn fill(value: T) -> Self {
        Nullable::Value(value)
    }
}

impl<T> Fill<T> for Nullable<Box<T>> {
    fn fill(value: T) -> Self {
        Nullable::Value(Box::new(value))
    }
}

/// `setters! { with_field(field: Type), … }` among a struct's methods writes each setter.
#[doc(hidden)]
#[macro_export]
macro_rules! __setters {
    ($($setter:ident($field:ident: $ty:ty)),* $(,)?) => {
        $(
            #[doc = concat!("Sets `", stringify!($field), "`, for building a value in one expression.")]
            #[must_use]
            pub fn $setter(mut self, value: $ty) -> Self {
                self.$field = $crate::codegen::setters::Fill::fill(value);
                self
            }
        )*
    };
}

#[doc(hidden)]
pub use crate::__setters as setters;
