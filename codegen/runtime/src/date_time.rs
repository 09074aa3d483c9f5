//! ISO 8601 date-times as services send them: with an offset, without one, or as a bare date.
//!
//! The forms are few and fixed, so they are read and written here rather than through a date-time
//! library, which every generated crate would otherwise compile. Feature `time` adds conversions to
//! and from the `time` crate's types.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An ISO 8601 date-time that keeps the exact text it was parsed from.
///
/// Accepts `2024-06-30T00:00:00Z`, `2024-06-30T00:00:00+10:00`, `2024-06-30T00:00:00` (no offset,
/// as .NET services often send) and `2024-06-30` (midnight), with optional fractional seconds.
/// Serializing writes back exactly the text that was parsed, so a value round-trips unchanged.
///
/// Values compare as instants: `2024-06-30T00:00:00Z` equals `2024-06-30T10:00:00+10:00` (though
/// each still writes its own text), and a value without an offset is compared as if it were UTC.
/// It is `Copy`: the text is held inline.
///
/// The parts as written are [`year`](Self::year) to [`nanosecond`](Self::nanosecond) and
/// [`offset_minutes`](Self::offset_minutes); [`SystemTime`] converts both ways, and with feature
/// `time`, so do `time`'s `OffsetDateTime`, `PrimitiveDateTime` and `Date`.
#[derive(Clone, Copy)]
pub struct DateTime {
    text: [u8; TEXT_CAPACITY],
    len: u8,
    local: Local,
    /// Minutes east of UTC, when the text has an offset.
    offset: Option<i16>,
}

/// Date and time of day as written, each part already checked against its range.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Local {
    year: u16,
    month: u8,
    day: u8,
    hour: u8,
    minute: u8,
    /// Up to 60: RFC 3339 allows a leap second.
    second: u8,
    nanosecond: u32,
}

impl Local {
    /// The second and its fraction, a leap second read as the last nanosecond of the second
    /// before it.
    fn second_and_nanos(&self) -> (u8, u32) {
        if self.second == 60 { (59, 999_999_999) } else { (self.second, self.nanosecond) }
    }
}

/// Room for the longest text accepted: nine fractional digits and an offset take 35 bytes.
const TEXT_CAPACITY: usize = 40;

const SECONDS_PER_DAY: i64 = 86_400;

/// Text that is not an ISO 8601 date-time, or a time outside the years 0000 to 9999.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateTimeError {
    text: String,
}

impl fmt::Display for DateTimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not an ISO 8601 date-time such as 2024-06-30T00:00:00Z", self.text)
    }
}

impl std::error::Error for DateTimeError {}

impl DateTime {
    /// Parses ISO 8601 text in any of the accepted forms.
    pub fn parse(text: &str) -> Result<Self, DateTimeError> {
        let err = || DateTimeError { text: text.to_string() };
        let (local, offset) = read(text.as_bytes()).ok_or_else(err)?;
        DateTime::with_text(text, local, offset).ok_or_else(err)
    }

    /// A value holding `text`, or `None` when the text is longer than any date-time.
    fn with_text(text: &str, local: Local, offset: Option<i16>) -> Option<Self> {
        let bytes = text.as_bytes();
        let mut inline = [0u8; TEXT_CAPACITY];
        inline.get_mut(..bytes.len())?.copy_from_slice(bytes);
        Some(DateTime { text: inline, len: bytes.len() as u8, local, offset })
    }

    /// A value written as RFC 3339 text (with an offset) or without one.
    fn formatted(local: Local, offset: Option<i16>) -> Self {
        let text = write(&local, offset);
        // The longest text written is 35 bytes, so this always fits; should it not, the value
        // keeps its parts and writes no text rather than a wrong one.
        DateTime::with_text(&text, local, offset).unwrap_or(DateTime {
            text: [0; TEXT_CAPACITY],
            len: 0,
            local,
            offset,
        })
    }

    /// The text this value was parsed from or formatted as.
    pub fn as_str(&self) -> &str {
        // Always whole UTF-8: it was copied from a `&str`.
        std::str::from_utf8(&self.text[..usize::from(self.len)]).unwrap_or_default()
    }

    /// The year as written (0 to 9999).
    pub fn year(&self) -> u16 {
        self.local.year
    }

    /// The month as written, 1 to 12.
    pub fn month(&self) -> u8 {
        self.local.month
    }

    /// The day of the month as written, from 1.
    pub fn day(&self) -> u8 {
        self.local.day
    }

    /// The hour as written, 0 to 23 (0 for a bare date).
    pub fn hour(&self) -> u8 {
        self.local.hour
    }

    /// The minute as written, 0 to 59.
    pub fn minute(&self) -> u8 {
        self.local.minute
    }

    /// The second as written, 0 to 60 (60 being a leap second).
    pub fn second(&self) -> u8 {
        self.local.second
    }

    /// The fraction of the second as written, in nanoseconds (digits past the ninth are dropped).
    pub fn nanosecond(&self) -> u32 {
        self.local.nanosecond
    }

    /// The offset from UTC in minutes (east is positive), when the text carried one.
    pub fn offset_minutes(&self) -> Option<i16> {
        self.offset
    }

    /// Seconds since 1970-01-01T00:00:00Z, reading a value without an offset as UTC.
    pub fn unix_timestamp(&self) -> i64 {
        self.instant().0
    }

    /// The current time in UTC, e.g. `2026-11-29T04:45:12.123456789Z`, from the system clock (a
    /// clock set past the year 9999 reads as its last nanosecond).
    pub fn now() -> DateTime {
        DateTime::try_from(SystemTime::now()).unwrap_or_else(|_| {
            let last =
                Local { year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59, nanosecond: 999_999_999 };
            DateTime::formatted(last, Some(0))
        })
    }

    /// The instant as a [`SystemTime`], reading a value without an offset as UTC.
    pub fn to_system_time(&self) -> SystemTime {
        let (seconds, nanos) = self.instant();
        let since = |seconds: u64| Duration::new(seconds, nanos);
        match u64::try_from(seconds) {
            Ok(after) => SystemTime::UNIX_EPOCH + since(after),
            // Before 1970: step back the whole seconds, then forward the fraction.
            Err(_) => {
                SystemTime::UNIX_EPOCH - Duration::from_secs(seconds.unsigned_abs())
                    + Duration::from_nanos(nanos.into())
            }
        }
    }

    /// Seconds since the Unix epoch and nanoseconds: what equality, ordering and hashing compare.
    /// A leap second counts as the last instant of the second before it.
    fn instant(&self) -> (i64, u32) {
        let l = &self.local;
        let (second, nanos) = l.second_and_nanos();
        let days = days_from_civil(i64::from(l.year), l.month, l.day);
        let seconds = days * SECONDS_PER_DAY + i64::from(l.hour) * 3600 + i64::from(l.minute) * 60 + i64::from(second);
        (seconds - i64::from(self.offset.unwrap_or(0)) * 60, nanos)
    }

    /// The UTC date-time `seconds` after the Unix epoch, written with `Z`.
    fn from_unix(seconds: i64, nanosecond: u32) -> Option<Self> {
        let (days, second_of_day) = (seconds.div_euclid(SECONDS_PER_DAY), seconds.rem_euclid(SECONDS_PER_DAY));
        let (year, month, day) = civil_from_days(days);
        let local = Local {
            year: u16::try_from(year).ok().filter(|year| *year <= 9999)?,
            month,
            day,
            hour: (second_of_day / 3600) as u8,
            minute: (second_of_day / 60 % 60) as u8,
            second: (second_of_day % 60) as u8,
            nanosecond,
        };
        Some(DateTime::formatted(local, Some(0)))
    }
}

impl From<DateTime> for SystemTime {
    /// The instant, reading a value without an offset as UTC (see [`DateTime::to_system_time`]).
    fn from(value: DateTime) -> SystemTime {
        value.to_system_time()
    }
}

impl TryFrom<SystemTime> for DateTime {
    type Error = DateTimeError;

    /// Formats as RFC 3339 in UTC, e.g. `2024-06-30T00:00:00Z`; refuses a time outside the years
    /// 0000 to 9999.
    fn try_from(value: SystemTime) -> Result<Self, Self::Error> {
        let (seconds, nanos) = match value.duration_since(SystemTime::UNIX_EPOCH) {
            Ok(after) => (i64::try_from(after.as_secs()).ok(), after.subsec_nanos()),
            Err(before) => {
                let before = before.duration();
                // A fraction before the epoch is a whole second back plus the rest forward.
                let whole = i64::try_from(before.as_secs()).ok().map(|s| -s - i64::from(before.subsec_nanos() > 0));
                (whole, (1_000_000_000 - before.subsec_nanos()) % 1_000_000_000)
            }
        };
        seconds
            .and_then(|seconds| DateTime::from_unix(seconds, nanos))
            .ok_or_else(|| DateTimeError { text: format!("{value:?} (outside the years 0000 to 9999)") })
    }
}

/// Reads `YYYY-MM-DD`, optionally followed by `THH:MM:SS`, a fraction and `Z` or `±HH:MM`.
fn read(text: &[u8]) -> Option<(Local, Option<i16>)> {
    let number = |at: usize, len: usize| -> Option<u32> {
        let digits = text.get(at..at + len)?;
        digits.iter().try_fold(0u32, |n, d| d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0')))
    };
    let separator = |at: usize, expected: u8| text.get(at) == Some(&expected);
    if !(separator(4, b'-') && separator(7, b'-')) {
        return None;
    }
    let (year, month, day) = (number(0, 4)?, number(5, 2)?, number(8, 2)?);
    let month = u8::try_from(month).ok().filter(|m| (1..=12).contains(m))?;
    let day = u8::try_from(day).ok().filter(|d| *d >= 1 && *d <= days_in_month(year, month))?;
    let mut local = Local { year: year as u16, month, day, hour: 0, minute: 0, second: 0, nanosecond: 0 };
    if text.len() == 10 {
        return Some((local, None));
    }
    if !(matches!(text.get(10), Some(b'T' | b't')) && separator(13, b':') && separator(16, b':')) {
        return None;
    }
    local.hour = u8::try_from(number(11, 2)?).ok().filter(|h| *h <= 23)?;
    local.minute = u8::try_from(number(14, 2)?).ok().filter(|m| *m <= 59)?;
    local.second = u8::try_from(number(17, 2)?).ok().filter(|s| *s <= 59 || (*s == 60 && local.minute == 59))?;
    let mut rest = &text[19..];
    if let Some(fraction) = rest.strip_prefix(b".") {
        let digits = fraction.iter().take_while(|d| d.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        let kept = &fraction[..digits.min(9)];
        let value = kept.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        local.nanosecond = value * 10u32.pow(9 - kept.len() as u32);
        rest = &fraction[digits..];
    }
    let offset = match rest {
        [] => None,
        [b'Z' | b'z'] => Some(0),
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let two = |a: u8, b: u8| {
                (a.is_ascii_digit() && b.is_ascii_digit()).then(|| i16::from(a - b'0') * 10 + i16::from(b - b'0'))
            };
            let (hours, minutes) = (two(*h1, *h2).filter(|h| *h <= 23)?, two(*m1, *m2).filter(|m| *m <= 59)?);
            let minutes = hours * 60 + minutes;
            Some(if *sign == b'-' { -minutes } else { minutes })
        }
        _ => return None,
    };
    Some((local, offset))
}

/// RFC 3339 text of `local`, with the offset when there is one and the fraction only when it is
/// not zero, without trailing zeros.
fn write(local: &Local, offset: Option<i16>) -> String {
    use fmt::Write;
    let Local { year, month, day, hour, minute, second, nanosecond } = *local;
    let mut text = format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}");
    if nanosecond > 0 {
        let digits = format!("{nanosecond:09}");
        let _ = write!(text, ".{}", digits.trim_end_matches('0'));
    }
    match offset {
        None => {}
        Some(0) => text.push('Z'),
        Some(minutes) => {
            let sign = if minutes < 0 { '-' } else { '+' };
            let _ = write!(text, "{sign}{:02}:{:02}", minutes.unsigned_abs() / 60, minutes.unsigned_abs() % 60);
        }
    }
    text
}

fn is_leap_year(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

fn days_in_month(year: u32, month: u8) -> u8 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to the given proleptic Gregorian date. Counting years from March makes
/// the leap day the last day of its year, so each 400-year era has a fixed shape.
pub(crate) fn days_from_civil(year: i64, month: u8, day: u8) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (i64::from(month) + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    // 719,468 days lie between 0000-03-01 and 1970-01-01.
    era * 146_097 + day_of_era - 719_468
}

/// The date `days` after 1970-01-01: the inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u8;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 } as u8;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

impl PartialEq for DateTime {
    fn eq(&self, other: &Self) -> bool {
        self.instant() == other.instant()
    }
}

impl Eq for DateTime {}

impl PartialOrd for DateTime {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for DateTime {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.instant().cmp(&other.instant())
    }
}

impl std::hash::Hash for DateTime {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.instant().hash(state);
    }
}

impl FromStr for DateTime {
    type Err = DateTimeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DateTime::parse(s)
    }
}

impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for DateTime {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for DateTime {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        DateTime::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Conversions to and from the `time` crate's types.
#[cfg(feature = "time")]
mod with_time {
    use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

    use super::{DateTime, DateTimeError, Local};

    impl DateTime {
        /// Date and time of day as written, without regard to the offset; a leap second reads as
        /// the last nanosecond of the second before it.
        pub fn local(&self) -> PrimitiveDateTime {
            let l = &self.local;
            let (second, nanos) = l.second_and_nanos();
            // Every part was checked when it was read, so these cannot fail.
            let date = Month::try_from(l.month).and_then(|month| Date::from_calendar_date(l.year.into(), month, l.day));
            let time = Time::from_hms_nano(l.hour, l.minute, second, nanos);
            PrimitiveDateTime::new(date.unwrap_or(Date::MIN), time.unwrap_or(Time::MIDNIGHT))
        }

        /// The offset, when the text carried one.
        pub fn offset(&self) -> Option<UtcOffset> {
            self.offset.and_then(|minutes| UtcOffset::from_whole_seconds(i32::from(minutes) * 60).ok())
        }

        /// The instant, when the text carried an offset.
        pub fn to_offset_date_time(&self) -> Option<OffsetDateTime> {
            self.offset().map(|offset| self.local().assume_offset(offset))
        }

        /// The instant, reading a value without an offset as UTC.
        pub fn assume_utc(&self) -> OffsetDateTime {
            self.local().assume_offset(self.offset().unwrap_or(UtcOffset::UTC))
        }

        fn from_parts(value: PrimitiveDateTime, offset: Option<i16>) -> Self {
            let local = Local {
                // `time` allows years beyond four digits; the text keeps them as written.
                year: value.year().clamp(0, 9999) as u16,
                month: value.month().into(),
                day: value.day(),
                hour: value.hour(),
                minute: value.minute(),
                second: value.second(),
                nanosecond: value.nanosecond(),
            };
            DateTime::formatted(local, offset)
        }
    }

    impl From<OffsetDateTime> for DateTime {
        /// Formats as RFC 3339, e.g. `2024-06-30T00:00:00Z`. The offset's seconds, which RFC 3339
        /// cannot write, are left out.
        fn from(value: OffsetDateTime) -> Self {
            let minutes = value.offset().whole_minutes();
            DateTime::from_parts(PrimitiveDateTime::new(value.date(), value.time()), Some(minutes))
        }
    }

    impl From<PrimitiveDateTime> for DateTime {
        /// Formats without an offset, e.g. `2024-06-30T00:00:00`.
        fn from(value: PrimitiveDateTime) -> Self {
            DateTime::from_parts(value, None)
        }
    }

    impl From<Date> for DateTime {
        /// Midnight at the start of the date, without an offset, e.g. `2024-06-30T00:00:00`.
        fn from(value: Date) -> Self {
            DateTime::from(PrimitiveDateTime::new(value, Time::MIDNIGHT))
        }
    }

    impl From<DateTime> for PrimitiveDateTime {
        /// The date and time of day as written, without the offset.
        fn from(value: DateTime) -> Self {
            value.local()
        }
    }

    impl TryFrom<DateTime> for OffsetDateTime {
        type Error = DateTimeError;

        /// The instant; a value written without an offset is refused rather than guessed (see
        /// [`DateTime::assume_utc`] to read it as UTC).
        fn try_from(value: DateTime) -> Result<Self, Self::Error> {
            value
                .to_offset_date_time()
                .ok_or_else(|| DateTimeError { text: format!("{} (it has no offset)", value.as_str()) })
        }
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn now_is_the_system_clock_in_utc_and_system_time_converts_both_ways() {
            let before = std::time::SystemTime::now();
            let now = super::DateTime::now();
            let after = std::time::SystemTime::now();
            assert_eq!(now.offset_minutes(), Some(0));
            let instant = std::time::SystemTime::from(now);
            assert!(before <= instant && instant <= after, "{now}");
            assert_eq!(super::DateTime::try_from(instant).unwrap(), now);
            let text = now.to_string();
            assert!(text.ends_with('Z') && text.len() >= 20, "{text}");
        }

        use super::*;

        #[test]
        fn converts_both_ways() {
            let sydney = DateTime::parse("2024-06-30T10:00:00+10:00").unwrap();
            assert_eq!(sydney.offset(), Some(UtcOffset::from_hms(10, 0, 0).unwrap()));
            assert_eq!(sydney.assume_utc().unix_timestamp(), sydney.unix_timestamp());
            let instant = OffsetDateTime::try_from(sydney).unwrap();
            assert_eq!(DateTime::from(instant), sydney);
            assert!(OffsetDateTime::try_from(DateTime::parse("2024-06-30T00:00:00").unwrap()).is_err());
            let date = Date::from_calendar_date(2022, Month::September, 26).unwrap();
            assert_eq!(DateTime::from(date).as_str(), "2022-09-26T00:00:00");
            let precise = date.with_hms_nano(13, 45, 10, 123_400_000).unwrap();
            assert_eq!(DateTime::from(precise).as_str(), "2022-09-26T13:45:10.1234");
            assert_eq!(DateTime::parse("2022-09-26T13:45:10.1234").unwrap().local(), precise);
            let west = date.with_time(Time::MIDNIGHT).assume_offset(UtcOffset::from_hms(-5, -30, 0).unwrap());
            assert_eq!(DateTime::from(west).as_str(), "2022-09-26T00:00:00-05:30");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_every_form_and_keeps_the_text() {
        for text in [
            "2024-06-30T00:00:00Z",
            "2024-06-30T00:00:00+10:00",
            "2024-06-30T00:00:00",
            "2024-06-30T13:45:10.1234567",
            "2024-06-30",
            "2024-06-30t00:00:00z",
            "2016-12-31T23:59:60Z",
        ] {
            let value = DateTime::parse(text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(value.as_str(), text);
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(json, format!("\"{text}\""));
            assert_eq!(serde_json::from_str::<DateTime>(&json).unwrap(), value);
        }
    }

    #[test]
    fn parts_are_read_as_written() {
        let value = DateTime::parse("2024-02-29T13:45:10.25-03:30").unwrap();
        let parts = (value.year(), value.month(), value.day(), value.hour(), value.minute(), value.second());
        assert_eq!(parts, (2024, 2, 29, 13, 45, 10));
        assert_eq!(value.nanosecond(), 250_000_000);
        assert_eq!(value.offset_minutes(), Some(-210));
        assert_eq!(DateTime::parse("2024-06-30T00:00:00").unwrap().offset_minutes(), None);
        let long = DateTime::parse("2024-06-30T00:00:00.1234567891234Z").unwrap();
        assert_eq!(long.nanosecond(), 123_456_789, "digits past the ninth are dropped");
    }

    #[test]
    fn instants_match_the_unix_clock() {
        let at = |text: &str| DateTime::parse(text).unwrap().unix_timestamp();
        assert_eq!(at("1970-01-01T00:00:00Z"), 0);
        assert_eq!(at("2024-06-30T00:00:00+10:00"), 1_719_669_600);
        assert_eq!(at("2000-03-01"), 951_868_800, "the day after a leap day in a year divisible by 400");
        assert_eq!(at("1900-03-01T00:00:00Z"), -2_203_891_200, "1900 has no leap day");
        assert_eq!(at("0000-01-01T00:00:00Z"), -62_167_219_200);
        assert_eq!(at("9999-12-31T23:59:59Z"), 253_402_300_799);
        let leap = DateTime::parse("2016-12-31T23:59:60Z").unwrap();
        assert!(leap > DateTime::parse("2016-12-31T23:59:59.5Z").unwrap());
        assert!(leap < DateTime::parse("2017-01-01T00:00:00Z").unwrap());
    }

    #[test]
    fn system_time_converts_both_ways() {
        for text in
            ["2024-06-30T10:00:00.5Z", "1969-12-31T23:59:59.25Z", "1970-01-01T00:00:00Z", "1066-10-14T09:00:00Z"]
        {
            let value = DateTime::parse(text).unwrap();
            let back = DateTime::try_from(value.to_system_time()).unwrap();
            assert_eq!(back.as_str(), text);
        }
        let sydney = DateTime::parse("2024-06-30T10:00:00+10:00").unwrap();
        assert_eq!(DateTime::try_from(sydney.to_system_time()).unwrap().as_str(), "2024-06-30T00:00:00Z");
        let far = SystemTime::UNIX_EPOCH + Duration::from_secs(300_000_000_000);
        assert!(DateTime::try_from(far).is_err(), "after the year 9999");
    }

    #[test]
    fn days_round_trip_through_the_calendar() {
        for days in (-800_000..800_000).step_by(997) {
            let (year, month, day) = civil_from_days(days);
            assert_eq!(days_from_civil(year, month, day), days, "{year}-{month}-{day}");
            assert!((1..=12).contains(&month) && day >= 1 && day <= days_in_month(year.rem_euclid(400) as u32, month));
        }
    }

    #[test]
    fn values_compare_as_instants() {
        let utc = DateTime::parse("2024-06-30T00:00:00Z").unwrap();
        let sydney = DateTime::parse("2024-06-30T10:00:00+10:00").unwrap();
        assert_eq!(utc, sydney, "the same instant");
        assert_ne!(utc.as_str(), sydney.as_str(), "each keeps its text");
        let later = DateTime::parse("2024-06-30T00:00:01Z").unwrap();
        assert!(utc < later && later > sydney);
        assert_eq!(DateTime::parse("2024-06-30").unwrap(), utc, "no offset compares as UTC");
        let copy = utc;
        assert_eq!(copy.as_str(), utc.as_str());
        assert!(
            DateTime::parse(&format!("2024-06-30T00:00:00.{}Z", "1".repeat(40))).is_err(),
            "longer than any date-time"
        );
    }

    #[test]
    fn rejects_what_is_not_a_date_time() {
        for text in [
            "",
            "yesterday",
            "2024-13-01",
            "2024-02-30",
            "2023-02-29",
            "2024-06-31",
            "2024-06-00",
            "2024-06-30 00:00:00 +00:00",
            "2024-06-30T25:00:00",
            "2024-06-30T10:60:00",
            "2024-06-30T10:58:60Z",
            "2024-06-30T10:00",
            "2024-6-30",
            "2024-06-30T",
            "2024-06-30Z",
            "2024-06-30T10:00:00ZZ",
            "2024-06-30T10:00:00.Z",
            "2024-06-30T10:00:00+24:00",
            "2024-06-30T10:00:00+1000",
            "+2024-06-30",
            "２０２４-06-30",
        ] {
            assert!(DateTime::parse(text).is_err(), "{text}");
        }
    }
}
