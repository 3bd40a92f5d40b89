//! The read boundary, by construction: every value read from the cache is decoded
//! through [`from_slice`], a deserializer that cleans and bounds each string it hands to
//! serde (`sanitize::clean_cow`), so no field of any read type, present or added later,
//! can skip it (another agent wrote the text). The snapshot's rows get the same through
//! their column reader (`snapshot::columns::Cols`).

use std::borrow::Cow;
use std::fmt;

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

use crate::sanitize::{MAX_FIELD_CHARS, clean_cow};

/// What the boundary does to one string: returns it borrowed when it is already fine.
pub type Scrub = for<'a> fn(&'a str) -> Cow<'a, str>;

/// The default [`Scrub`]: sanitized and bounded to a field's length.
pub fn field(s: &str) -> Cow<'_, str> {
    clean_cow(s, MAX_FIELD_CHARS)
}

/// Decode JSON with every string (values, keys, at any depth) cleaned on the way in.
/// Text that is already clean stays borrowed from `bytes` (the common case costs a scan).
pub fn from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> serde_json::Result<T> {
    from_slice_with(bytes, field)
}

/// [`from_slice`] with each string passed through `scrub` instead (which must clean, and
/// may bound further: the briefing's lines).
pub fn from_slice_with<'de, T: Deserialize<'de>>(
    bytes: &'de [u8],
    scrub: Scrub,
) -> serde_json::Result<T> {
    // One UTF-8 check of the whole text (a vectorized scan) instead of one per string: the
    // hook reads a whole roster here on every edit.
    let text = std::str::from_utf8(bytes).map_err(serde::de::Error::custom)?;
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Cleaning(&mut de, scrub))?;
    de.end()?;
    Ok(value)
}

/// Clean one string in place; no allocation when nothing changes (the common case).
pub(crate) fn clean_str(s: &mut String) {
    scrub_str(s, field);
}

fn scrub_str(s: &mut String, scrub: Scrub) {
    if let Cow::Owned(c) = scrub(s) {
        *s = c;
    }
}

/// A deserializer whose every visitor sees cleaned strings.
struct Cleaning<D>(D, Scrub);
/// A visitor that cleans the strings it is given before passing them on.
struct Clean<V>(V, Scrub);

macro_rules! forward {
    ($($method:ident $(($($arg:ident: $ty:ty),*))?;)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($($arg: $ty,)*)? visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method($($($arg,)*)? Clean(visitor, self.1))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Cleaning<D> {
    type Error = D::Error;

    forward! {
        deserialize_any; deserialize_bool; deserialize_i8; deserialize_i16; deserialize_i32;
        deserialize_i64; deserialize_i128; deserialize_u8; deserialize_u16; deserialize_u32;
        deserialize_u64; deserialize_u128; deserialize_f32; deserialize_f64; deserialize_char;
        deserialize_str; deserialize_string; deserialize_bytes; deserialize_byte_buf;
        deserialize_option; deserialize_unit; deserialize_seq; deserialize_map;
        deserialize_identifier; deserialize_ignored_any;
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Clean<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        match (self.1)(v) {
            Cow::Borrowed(s) => self.0.visit_str(s),
            Cow::Owned(s) => self.0.visit_string(s),
        }
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        match (self.1)(v) {
            Cow::Borrowed(s) => self.0.visit_borrowed_str(s),
            Cow::Owned(s) => self.0.visit_string(s),
        }
    }
    fn visit_string<E: de::Error>(self, mut v: String) -> Result<V::Value, E> {
        scrub_str(&mut v, self.1);
        self.0.visit_string(v)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        self.0.visit_bool(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.0.visit_i64(v)
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<V::Value, E> {
        self.0.visit_i128(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.0.visit_u64(v)
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<V::Value, E> {
        self.0.visit_u128(v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.0.visit_f64(v)
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<V::Value, E> {
        self.visit_str(v.encode_utf8(&mut [0u8; 4]))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        self.0.visit_bytes(v)
    }
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.0.visit_borrowed_bytes(v)
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        self.0.visit_byte_buf(v)
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Cleaning(d, self.1))
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Cleaning(d, self.1))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Cleaning(seq, self.1))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Cleaning(map, self.1))
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Cleaning(data, self.1))
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Clean<S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Cleaning(d, self.1))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Cleaning<A> {
    type Error = A::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Clean(seed, self.1))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Cleaning<A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Clean(seed, self.1))
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Clean(seed, self.1))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Cleaning<A> {
    type Error = A::Error;
    type Variant = Cleaning<A::Variant>;
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        let (v, variant) = self.0.variant_seed(Clean(seed, self.1))?;
        Ok((v, Cleaning(variant, self.1)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Cleaning<A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Clean(seed, self.1))
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Clean(visitor, self.1))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Clean(visitor, self.1))
    }
}

#[cfg(test)]
#[path = "clean_tests.rs"]
mod tests;
