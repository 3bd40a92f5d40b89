//! PLACEHOLDER until the sanitizer branch lands: same API.

pub const MAX_FIELD_CHARS: usize = 4000;
pub const TRUNCATED_MARKER: &str = "…[truncated]";

pub fn clean(text: &str, max_chars: usize) -> String {
    let s: String = text
        .chars()
        .filter(|c| !(c.is_control() && *c != '\n' && *c != '\t'))
        .collect();
    if s.chars().count() > max_chars {
        let mut t: String = s.chars().take(max_chars.saturating_sub(12)).collect();
        t.push_str(TRUNCATED_MARKER);
        t
    } else {
        s
    }
}

pub fn clean_value(value: &mut serde_json::Value, max_chars: usize) -> usize {
    match value {
        serde_json::Value::String(s) => {
            *s = clean(s, max_chars);
            0
        }
        serde_json::Value::Array(a) => a.iter_mut().map(|v| clean_value(v, max_chars)).sum(),
        serde_json::Value::Object(o) => o.values_mut().map(|v| clean_value(v, max_chars)).sum(),
        _ => 0,
    }
}
