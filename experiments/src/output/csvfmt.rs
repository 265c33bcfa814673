//! How the CSVs write numbers, so that pandas and R read each column as one
//! kind of value: rates and scores at 4 decimals, Elo at 1, means at 2,
//! counts as integers, and 64-bit seeds as `0x` hexadecimal text (a float64
//! keeps only 53 bits of them). Used through `#[serde(serialize_with)]`;
//! reading accepts what earlier files wrote (full-precision floats,
//! decimal seeds).

use serde::{Deserialize, Deserializer, Serializer};

fn fixed<S: Serializer>(v: f64, places: usize, s: S) -> Result<S::Ok, S::Error> {
    let text = format!("{v:.places$}");
    // "-0.0000" reads as a negative zero; write it as zero.
    if text
        .trim_start_matches('-')
        .bytes()
        .all(|b| b == b'0' || b == b'.')
    {
        s.serialize_str(&format!("{:.places$}", 0.0))
    } else {
        s.serialize_str(&text)
    }
}

/// A rate, probability or score: 4 decimals.
pub fn p4<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    fixed(*v, 4, s)
}

/// [`p4`], empty for `None`.
pub fn p4_opt<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(x) => fixed(*x, 4, s),
        None => s.serialize_none(),
    }
}

/// A small probability (a level α divided among many cells): 6 decimals.
pub fn p6<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    fixed(*v, 6, s)
}

/// A mean or standard deviation of plies, turns or moves: 2 decimals.
pub fn p2<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    fixed(*v, 2, s)
}

/// An Elo difference: 1 decimal.
pub fn p1<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    fixed(*v, 1, s)
}

/// [`p1`], empty for `None`.
pub fn p1_opt<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(x) => fixed(*x, 1, s),
        None => s.serialize_none(),
    }
}

/// A count kept as a float (wins, where a draw may count ½): an integer
/// when it is one, else 1 decimal.
pub fn count<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        s.serialize_i64(*v as i64)
    } else {
        fixed(*v, 1, s)
    }
}

/// [`count`], empty for `None`.
pub fn count_opt<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(x) => count(x, s),
        None => s.serialize_none(),
    }
}

/// A 64-bit seed as text: `0x` and 16 hexadecimal digits.
pub fn seed_text(seed: u64) -> String {
    format!("0x{seed:016x}")
}

/// Reads a seed as either writes it: `0x` and hexadecimal digits, or
/// decimal (files written before seeds were text).
///
/// # Errors
/// Anything else, or a number past 64 bits.
pub fn parse_seed(text: &str) -> anyhow::Result<u64> {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse::<u64>(),
    }
    .map_err(|_| {
        anyhow::anyhow!("seed {text:?} is not a 64-bit number (0x and hex digits, or decimal)")
    })
}

/// Serde for a `u64` seed field written as [`seed_text`] and read by
/// [`parse_seed`]: `#[serde(with = "crate::output::csvfmt::seed")]`.
pub mod seed {
    use super::*;

    /// Writes [`seed_text`].
    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&seed_text(*v))
    }

    /// Reads [`parse_seed`]'s forms.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        parse_seed(&text).map_err(serde::de::Error::custom)
    }
}
