//! ISO 8601 date-times as services send them: with an offset, without one, or as a bare date.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::format_description::well_known::Rfc3339;
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

/// An ISO 8601 date-time that keeps the exact text it was parsed from.
///
/// Accepts `2024-06-30T00:00:00Z`, `2024-06-30T00:00:00+10:00`, `2024-06-30T00:00:00` (no offset,
/// as .NET services often send) and `2024-06-30` (midnight), with optional fractional seconds.
/// Serializing writes back exactly the text that was parsed, so a value round-trips unchanged.
///
/// Values compare as instants: `2024-06-30T00:00:00Z` equals `2024-06-30T10:00:00+10:00` (though
/// each still writes its own text), and a value without an offset is compared as if it were UTC.
/// It is `Copy`: the text is held inline.
#[derive(Clone, Copy)]
pub struct DateTime {
    text: [u8; TEXT_CAPACITY],
    len: u8,
    local: PrimitiveDateTime,
    offset: Option<UtcOffset>,
}

/// Room for the longest text accepted: nine fractional digits and an offset take 35 bytes.
const TEXT_CAPACITY: usize = 40;

/// Text that is not an ISO 8601 date-time.
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
        // RFC 3339 is the one format `time` reads without its macros: a text without an offset is
        // read with `Z` appended, and a date with midnight and `Z`.
        let rfc3339 = |text: &str| OffsetDateTime::parse(text, &Rfc3339).ok();
        let (local, offset) = if let Some(t) = rfc3339(text) {
            (PrimitiveDateTime::new(t.date(), t.time()), Some(t.offset()))
        } else if text.len() > 10 {
            let t = rfc3339(&format!("{text}Z")).ok_or_else(err)?;
            (PrimitiveDateTime::new(t.date(), t.time()), None)
        } else {
            let t = rfc3339(&format!("{text}T00:00:00Z")).ok_or_else(err)?;
            (PrimitiveDateTime::new(t.date(), Time::MIDNIGHT), None)
        };
        DateTime::with_text(text, local, offset).ok_or_else(err)
    }

    /// A value holding `text`, or `None` when the text is longer than any date-time.
    fn with_text(text: &str, local: PrimitiveDateTime, offset: Option<UtcOffset>) -> Option<Self> {
        let bytes = text.as_bytes();
        let mut inline = [0u8; TEXT_CAPACITY];
        inline.get_mut(..bytes.len())?.copy_from_slice(bytes);
        Some(DateTime { text: inline, len: bytes.len() as u8, local, offset })
    }

    /// A value from text this module formatted, which always fits (at most 35 bytes); should it
    /// not, the value keeps its date and time and writes no text rather than a wrong one.
    fn formatted(text: &str, local: PrimitiveDateTime, offset: Option<UtcOffset>) -> Self {
        DateTime::with_text(text, local, offset).unwrap_or(DateTime { text: [0; TEXT_CAPACITY], len: 0, local, offset })
    }

    /// The text this value was parsed from or formatted as.
    pub fn as_str(&self) -> &str {
        // Always whole UTF-8: it was copied from a `&str`.
        std::str::from_utf8(&self.text[..usize::from(self.len)]).unwrap_or_default()
    }

    /// The instant this value stands for, reading a value without an offset as UTC; what
    /// equality, ordering and hashing compare.
    fn instant(&self) -> OffsetDateTime {
        self.assume_utc()
    }

    /// Date and time of day as written, without regard to the offset.
    pub fn local(&self) -> PrimitiveDateTime {
        self.local
    }

    /// The offset, when the text carried one.
    pub fn offset(&self) -> Option<UtcOffset> {
        self.offset
    }

    /// The instant, when the text carried an offset.
    pub fn to_offset_date_time(&self) -> Option<OffsetDateTime> {
        self.offset.map(|offset| self.local.assume_offset(offset))
    }

    /// The instant, reading a value without an offset as UTC.
    pub fn assume_utc(&self) -> OffsetDateTime {
        self.local.assume_offset(self.offset.unwrap_or(UtcOffset::UTC))
    }
}

impl From<OffsetDateTime> for DateTime {
    /// Formats as RFC 3339, e.g. `2024-06-30T00:00:00Z`.
    fn from(value: OffsetDateTime) -> Self {
        let text = value.format(&Rfc3339).unwrap_or_else(|_| value.to_string());
        DateTime::formatted(&text, PrimitiveDateTime::new(value.date(), value.time()), Some(value.offset()))
    }
}

impl From<PrimitiveDateTime> for DateTime {
    /// Formats without an offset, e.g. `2024-06-30T00:00:00`.
    fn from(value: PrimitiveDateTime) -> Self {
        // RFC 3339 at UTC, without its `Z`: the subsecond digits only when there are some.
        let text = value.assume_utc().format(&Rfc3339).map(|mut text| {
            text.pop();
            text
        });
        let text = text.unwrap_or_else(|_| value.to_string());
        DateTime::formatted(&text, value, None)
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
        value.local
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
        ] {
            let value = DateTime::parse(text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(value.as_str(), text);
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(json, format!("\"{text}\""));
            assert_eq!(serde_json::from_str::<DateTime>(&json).unwrap(), value);
        }
    }

    #[test]
    fn offsets_are_kept_apart_from_local_time() {
        let with = DateTime::parse("2024-06-30T00:00:00+10:00").unwrap();
        assert_eq!(with.offset(), Some(UtcOffset::from_hms(10, 0, 0).unwrap()));
        assert_eq!(with.assume_utc().unix_timestamp(), 1_719_669_600);
        let without = DateTime::parse("2024-06-30T00:00:00").unwrap();
        assert_eq!(without.offset(), None);
        assert_eq!(without.to_offset_date_time(), None);
        assert_eq!(without.local(), with.local());
    }

    #[test]
    fn values_compare_as_instants_and_convert_both_ways() {
        let utc = DateTime::parse("2024-06-30T00:00:00Z").unwrap();
        let sydney = DateTime::parse("2024-06-30T10:00:00+10:00").unwrap();
        assert_eq!(utc, sydney, "the same instant");
        assert_ne!(utc.as_str(), sydney.as_str(), "each keeps its text");
        let later = DateTime::parse("2024-06-30T00:00:01Z").unwrap();
        assert!(utc < later && later > sydney);
        assert_eq!(DateTime::parse("2024-06-30").unwrap(), utc, "no offset compares as UTC");
        let copy = utc;
        assert_eq!(copy.as_str(), utc.as_str());
        let instant = OffsetDateTime::try_from(sydney).unwrap();
        assert_eq!(instant.offset(), UtcOffset::from_hms(10, 0, 0).unwrap());
        assert!(OffsetDateTime::try_from(DateTime::parse("2024-06-30T00:00:00").unwrap()).is_err());
        assert_eq!(PrimitiveDateTime::from(sydney), sydney.local());
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
            "2024-06-30 00:00:00 +00:00",
            "2024-06-30T25:00:00",
            "2024-06-30T10:00",
            "2024-6-30",
            "2024-06-30T",
            "2024-06-30Z",
            "2024-06-30T10:00:00ZZ",
        ] {
            assert!(DateTime::parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn formats_with_a_t_separator() {
        let date = Date::from_calendar_date(2022, time::Month::September, 26).unwrap();
        assert_eq!(DateTime::from(date).as_str(), "2022-09-26T00:00:00");
        let instant = date.with_time(Time::MIDNIGHT).assume_utc();
        assert_eq!(DateTime::from(instant).as_str(), "2022-09-26T00:00:00Z");
        let precise = date.with_hms_nano(13, 45, 10, 123_400_000).unwrap();
        assert_eq!(DateTime::from(precise).as_str(), "2022-09-26T13:45:10.1234", "no trailing zeros");
        assert_eq!(DateTime::parse("2022-09-26T13:45:10.1234").unwrap().local(), precise);
    }
}
