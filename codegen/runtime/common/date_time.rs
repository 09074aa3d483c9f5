//! ISO 8601 date-times as services send them: with an offset, without one, or as a bare date.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

/// An ISO 8601 date-time that keeps the exact text it was parsed from.
///
/// Accepts `2024-06-30T00:00:00Z`, `2024-06-30T00:00:00+10:00`, `2024-06-30T00:00:00` (no offset,
/// as .NET services often send) and `2024-06-30` (midnight), with optional fractional seconds.
/// Serializing writes back exactly the text that was parsed, so a value round-trips unchanged;
/// two values are equal when their text is.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct DateTime {
    text: Box<str>,
    local: PrimitiveDateTime,
    offset: Option<UtcOffset>,
}

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
        let (local, offset) = if let Ok(t) = OffsetDateTime::parse(text, &Rfc3339) {
            (PrimitiveDateTime::new(t.date(), t.time()), Some(t.offset()))
        } else if text.len() > 10 {
            let format = format_description!(version = 2, "[year]-[month]-[day]T[hour]:[minute]:[second][optional [.[subsecond]]]");
            (PrimitiveDateTime::parse(text, format).map_err(|_| err())?, None)
        } else {
            let date = Date::parse(text, format_description!("[year]-[month]-[day]")).map_err(|_| err())?;
            (PrimitiveDateTime::new(date, Time::MIDNIGHT), None)
        };
        Ok(DateTime { text: text.into(), local, offset })
    }

    /// The text this value was parsed from or formatted as.
    pub fn as_str(&self) -> &str {
        &self.text
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
        DateTime { text: text.into(), local: PrimitiveDateTime::new(value.date(), value.time()), offset: Some(value.offset()) }
    }
}

impl From<PrimitiveDateTime> for DateTime {
    /// Formats without an offset, e.g. `2024-06-30T00:00:00`.
    fn from(value: PrimitiveDateTime) -> Self {
        let format = format_description!(version = 2, "[year]-[month]-[day]T[hour]:[minute]:[second][optional [.[subsecond]]]");
        let text = if value.nanosecond() == 0 {
            value.format(format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]"))
        } else {
            value.format(format)
        };
        let text = text.unwrap_or_else(|_| value.to_string());
        DateTime { text: text.into(), local: value, offset: None }
    }
}

impl From<Date> for DateTime {
    /// Midnight at the start of the date, without an offset, e.g. `2024-06-30T00:00:00`.
    fn from(value: Date) -> Self {
        DateTime::from(PrimitiveDateTime::new(value, Time::MIDNIGHT))
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
        f.write_str(&self.text)
    }
}

impl fmt::Debug for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.text, f)
    }
}

impl Serialize for DateTime {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
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
    fn rejects_what_is_not_a_date_time() {
        for text in ["", "yesterday", "2024-13-01", "2024-06-30 00:00:00 +00:00", "2024-06-30T25:00:00"] {
            assert!(DateTime::parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn formats_with_a_t_separator() {
        let date = Date::from_calendar_date(2022, time::Month::September, 26).unwrap();
        assert_eq!(DateTime::from(date).as_str(), "2022-09-26T00:00:00");
        let instant = date.with_time(Time::MIDNIGHT).assume_utc();
        assert_eq!(DateTime::from(instant).as_str(), "2022-09-26T00:00:00Z");
    }
}
