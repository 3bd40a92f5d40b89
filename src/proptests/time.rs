//! `--since` and RFC 3339 parsing: no panic on any text, instants round-trip through
//! `format_ms`, formatted instants sort like the numbers (history filters compare strings),
//! and ages count back from now monotonically.

use proptest::prelude::*;

use super::{config, nasty_text};
use crate::time::{format_ms, parse_rfc3339, parse_since};

/// 0000-01-01T00:00:00Z ..= 9999-12-31T23:59:59.999Z: the four-digit years RFC 3339 writes.
const FIRST_MS: i64 = -62_167_219_200_000;
const LAST_MS: i64 = 253_402_300_799_999;

fn instant() -> impl Strategy<Value = i64> {
    FIRST_MS..=LAST_MS
}

/// Text shaped like the inputs: dates, times, offsets and ages, often slightly wrong.
fn since_text() -> impl Strategy<Value = String> {
    prop_oneof![
        nasty_text(),
        "[0-9]{0,20}[smhdwy ]?[0-9]{0,3}",
        "[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,9})?(Z|[+-][0-9]{2}:[0-9]{2})?)?",
        (instant(), "[ Zz+:.0-9-]{0,8}").prop_map(|(ms, tail)| format!("{}{tail}", format_ms(ms))),
    ]
}

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn parsing_any_text_never_panics(s in since_text(), now in 0..=i64::MAX) {
        let _ = parse_rfc3339(&s);
        if let Ok(at) = parse_since(&s, now) {
            // An age is never in the future; an instant is whatever it says.
            prop_assert!(parse_rfc3339(s.trim()).is_some() || at <= now);
        }
    }

    #[test]
    fn formatting_any_millisecond_never_panics(ms in any::<i64>()) {
        prop_assert!(format_ms(ms).ends_with('Z'));
        let _ = crate::time::date_of(ms);
    }

    #[test]
    fn an_instant_round_trips(ms in instant()) {
        prop_assert_eq!(parse_rfc3339(&format_ms(ms)), Some(ms));
        prop_assert_eq!(parse_since(&format_ms(ms), 0).ok(), Some(ms));
    }

    #[test]
    fn formatted_instants_sort_like_the_numbers(a in instant(), b in instant()) {
        prop_assert_eq!(format_ms(a).cmp(&format_ms(b)), a.cmp(&b));
    }

    #[test]
    fn an_offset_shifts_by_exactly_itself(ms in instant(), h in 0i64..24, m in 0i64..60, west: bool) {
        let z = format_ms(ms - ms.rem_euclid(1000));
        let sign = if west { '-' } else { '+' };
        let shifted = format!("{}{sign}{h:02}:{m:02}", &z[..19]);
        let delta = (h * 60 + m) * 60_000 * if west { 1 } else { -1 };
        prop_assert_eq!(parse_rfc3339(&shifted), parse_rfc3339(&z).map(|t| t + delta));
    }

    #[test]
    fn ages_count_back_from_now_monotonically(
        a in 0u32..1_000_000,
        b in 0u32..1_000_000,
        unit in prop::sample::select(&[("s", 1_000i64), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000), ("w", 604_800_000)][..]),
        now in 0i64..=4_102_444_800_000,
    ) {
        let at = |n: u32| parse_since(&format!(" {n}{} ", unit.0), now).ok();
        prop_assert_eq!(at(a), Some(now - i64::from(a) * unit.1));
        prop_assert_eq!(a <= b, at(a) >= at(b));
    }
}
