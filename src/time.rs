//! Wall-clock time as RFC 3339 UTC strings, and parsing of `--since` values
//! (`2026-11-01`, an RFC 3339 instant, or a relative `30m`/`2h`/`7d`).

use std::time::{SystemTime, UNIX_EPOCH};

use time::format_description::well_known::Rfc3339;
use time::{Date, OffsetDateTime};

use crate::error::{Error, Result};

pub fn now_ms() -> i64 {
    #[cfg(test)]
    if let Some(t) = SIM_NOW.with(std::cell::Cell::get) {
        return t;
    }
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
        + test_skew_ms()
}

/// A debug build's pretend clock error (`CTXLAKE_TEST_CLOCK_SKEW_MS`), read once: the
/// integration tests run hosts an hour off to prove leases follow the lake's clock.
/// Release builds never read it.
#[cfg(debug_assertions)]
fn test_skew_ms() -> i64 {
    static SKEW: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *SKEW.get_or_init(|| {
        crate::paths::var(crate::paths::env::TEST_CLOCK_SKEW_MS)
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    })
}

#[cfg(not(debug_assertions))]
fn test_skew_ms() -> i64 {
    0
}

/// Exactly three fraction digits and `Z`: timestamps are compared as strings (the gate
/// orders events by them), so every writer must spell an instant the same way.
const FORMAT: &[time::format_description::BorrowedFormatItem<'static>] = time::macros::format_description!(
    "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
);

// The lake simulation (`services::sim`) runs each host on its own virtual clock, so a seed
// replays byte for byte; per thread, so other tests keep the wall clock.
#[cfg(test)]
thread_local! {
    static SIM_NOW: std::cell::Cell<Option<i64>> = const { std::cell::Cell::new(None) };
}

/// Pin this thread's clock (`None`: back to the wall clock). Test builds only.
#[cfg(test)]
pub(crate) fn set_sim_now(ms: Option<i64>) {
    SIM_NOW.with(|c| c.set(ms));
}

/// `2026-11-29T19:56:01.123Z`.
pub fn format_ms(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(FORMAT).ok())
        .unwrap_or_else(|| "1970-01-01T00:00:00.000Z".into())
}

pub fn now_rfc3339() -> String {
    format_ms(now_ms())
}

/// `2026-11-29`, for daily log files.
pub fn date_of(ms: i64) -> String {
    format_ms(ms)[..10].to_string()
}

/// Parse an RFC 3339 instant (`Z` or `±hh:mm`, optional fraction, `T`, `t` or a space
/// between date and time) or a bare date (midnight UTC). Impossible dates are refused.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    if s.len() == 10 {
        let d = Date::parse(s, time::macros::format_description!("[year]-[month]-[day]")).ok()?;
        return Some(d.midnight().assume_utc().unix_timestamp() * 1000);
    }
    let t = if s.as_bytes().get(10) == Some(&b' ') {
        OffsetDateTime::parse(&s.replacen(' ', "T", 1), &Rfc3339)
    } else {
        OffsetDateTime::parse(s, &Rfc3339)
    }
    .ok()?;
    i64::try_from(t.unix_timestamp_nanos().div_euclid(1_000_000)).ok()
}

/// `--since`: an instant, a date, or a duration back from `now_ms` (`90s`, `30m`, `2h`, `7d`, `2w`).
pub fn parse_since(s: &str, now_ms: i64) -> Result<i64> {
    let s = s.trim();
    if let Some(ms) = parse_rfc3339(s) {
        return Ok(ms);
    }
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit) = s.split_at(split);
    let unit_ms: i64 = match unit {
        "s" => 1000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        "w" => 7 * 86_400_000,
        _ => 0,
    };
    match n.parse::<i64>() {
        Ok(n) if unit_ms > 0 => Ok(now_ms - n.saturating_mul(unit_ms)),
        _ => Err(
            Error::bad_arguments("invalid_since", format!("cannot read `{s}` as a time")).hint(
                "use a date (`2026-11-01`), an RFC 3339 time, or an age like `30m`, `2h`, `7d`",
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for ms in [0, 1_764_446_161_123, 951_782_400_000, 4_102_444_799_999] {
            assert_eq!(parse_rfc3339(&format_ms(ms)), Some(ms), "{}", format_ms(ms));
        }
        assert_eq!(format_ms(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            parse_rfc3339("2026-11-29T20:00:00+01:00"),
            parse_rfc3339("2026-11-29T19:00:00Z")
        );
        assert_eq!(
            parse_rfc3339("2026-11-29"),
            parse_rfc3339("2026-11-29T00:00:00Z")
        );
        assert_eq!(parse_rfc3339("2026-13-01"), None);
        assert_eq!(parse_rfc3339("2026-02-31"), None, "no 31st of February");
        assert_eq!(parse_rfc3339("2026-02-30T10:00:00Z"), None);
        assert_eq!(
            parse_rfc3339("2026-11-29 19:00:00.5Z"),
            parse_rfc3339("2026-11-29T19:00:00.500Z")
        );
        assert_eq!(parse_rfc3339("yesterday"), None);
    }

    #[test]
    fn since_accepts_ages() {
        assert_eq!(
            parse_since("2h", 10_000_000).unwrap(),
            10_000_000 - 7_200_000
        );
        assert_eq!(parse_since("7d", 0).unwrap(), -7 * 86_400_000);
        assert!(parse_since("2 hours", 0).is_err());
        assert!(parse_since("h", 0).is_err());
    }
}
