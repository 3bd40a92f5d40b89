//! A strict JSON document as the install guard reads it when it is large: serde_json
//! checks the whole text, but keeps each top-level member as its raw text instead of
//! building a value of every string and number in it. A 5 MB `~/.claude.json` is almost
//! all `projects`, which no edit of ours touches: the guard compares that member's text
//! old against new, and parses into values only the members that differ or hold our
//! entries. Equal text is an equal value, so the comparison is the full one's.

use std::collections::HashMap;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The top-level members of a JSON object, in the order `serde_json::Map` keeps them (a
/// repeated key keeps its first place and its last value, as the map's insert does).
#[derive(Debug, Default)]
pub(crate) struct Members {
    members: Vec<(String, Box<RawValue>)>,
    index: HashMap<String, usize>,
}

impl Members {
    /// `text` read as an object; `Ok(None)` when it is valid JSON but not an object.
    pub(crate) fn parse(text: &str) -> serde_json::Result<Option<Members>> {
        let mut de = serde_json::Deserializer::from_str(text);
        let m = (&mut de).deserialize_any(Top)?;
        de.end()?;
        Ok(m)
    }

    /// The raw text of member `key`.
    pub(crate) fn raw(&self, key: &str) -> Option<&str> {
        self.index.get(key).map(|&i| self.members[i].1.get())
    }

    /// Member `key` as a value (its text was checked by `parse`).
    pub(crate) fn value(&self, key: &str) -> Option<Value> {
        self.raw(key).and_then(|r| serde_json::from_str(r).ok())
    }

    /// The object holding only the members named by `keep`, as values, in order.
    pub(crate) fn subset(&self, keep: &dyn Fn(&str) -> bool) -> Value {
        let mut m = Map::new();
        for (k, raw) in self.members.iter().filter(|(k, _)| keep(k)) {
            if let Ok(v) = serde_json::from_str(raw.get()) {
                m.insert(k.clone(), v);
            }
        }
        Value::Object(m)
    }

    /// The whole document as a value.
    pub(crate) fn into_value(self) -> Value {
        self.subset(&|_| true)
    }
}

struct Top;

impl<'de> Visitor<'de> for Top {
    type Value = Option<Members>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Members::default();
        while let Some((k, v)) = map.next_entry::<String, Box<RawValue>>()? {
            match out.index.get(&k) {
                Some(&i) => out.members[i].1 = v,
                None => {
                    out.index.insert(k.clone(), out.members.len());
                    out.members.push((k, v));
                }
            }
        }
        Ok(Some(out))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}
