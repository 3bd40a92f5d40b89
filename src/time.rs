//! Wall-clock time as RFC 3339 UTC strings, and parsing of `--since` values
//! (`2026-11-01`, an RFC 3339 instant, or a relative `30m`/`2h`/`7d`).

use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result};

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// `2026-11-29T19:56:01.123Z`.
pub fn format_ms(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
    let rem = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms.rem_euclid(1000)
    )
}

pub fn now_rfc3339() -> String {
    format_ms(now_ms())
}

/// `2026-11-29`, for daily log files.
pub fn date_of(ms: i64) -> String {
    format_ms(ms)[..10].to_string()
}

/// Parse an RFC 3339 instant (`Z` or `±hh:mm`, optional fraction) or a bare date.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let t = s.get(r)?;
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) {
        return None;
    }
    let days = days_from_civil(y, mo as u32, d as u32);
    if b.len() == 10 {
        return Some(days * 86_400_000);
    }
    if !matches!(b[10], b'T' | b't' | b' ') || b.len() < 19 || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if h > 23 || mi > 59 || se > 60 {
        return None;
    }
    let mut i = 19;
    let mut frac_ms = 0i64;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = s.get(start..i)?;
        if digits.is_empty() {
            return None;
        }
        let padded: String = digits.chars().chain("000".chars()).take(3).collect();
        frac_ms = padded.parse().ok()?;
    }
    let offset_min = match s.get(i..)? {
        "Z" | "z" => 0,
        tz if tz.len() == 6 && (tz.starts_with('+') || tz.starts_with('-')) => {
            let sign = if tz.starts_with('-') { -1 } else { 1 };
            sign * (num(i + 1..i + 3)? * 60 + num(i + 4..i + 6)?)
        }
        _ => return None,
    };
    Some((days * 86_400 + h * 3600 + mi * 60 + se - offset_min * 60) * 1000 + frac_ms)
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

// Howard Hinnant's civil-calendar algorithms (public domain), proleptic Gregorian.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
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
