//! Unit tests of `experiments::output::csvfmt`.

use experiments::output::csvfmt::*;

#[test]
fn seeds_round_trip_as_text_and_read_old_decimal() {
    for s in [0, 1, 8_699_989_649_721_214_301, u64::MAX] {
        assert_eq!(parse_seed(&seed_text(s)).unwrap(), s);
        assert_eq!(parse_seed(&s.to_string()).unwrap(), s);
    }
    assert_eq!(seed_text(255), "0x00000000000000ff");
    assert!(parse_seed("1.5e18").is_err());
    assert!(parse_seed("0x1ffffffffffffffff").is_err());
}

#[derive(serde::Serialize)]
struct Row {
    #[serde(serialize_with = "p4")]
    rate: f64,
    #[serde(serialize_with = "p1")]
    elo: f64,
    #[serde(serialize_with = "count")]
    wins: f64,
    #[serde(serialize_with = "p4_opt")]
    none: Option<f64>,
}

#[test]
fn floats_are_written_at_fixed_precision() {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(Row {
        rate: 0.458_668_596_197_695_73,
        elo: 218.197_898_792_780_34,
        wins: 203.0,
        none: None,
    })
    .unwrap();
    w.serialize(Row {
        rate: -8.67e-19,
        elo: -0.04,
        wins: 202.5,
        none: Some(1.0),
    })
    .unwrap();
    let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
    assert_eq!(
        text,
        "rate,elo,wins,none\n0.4587,218.2,203,\n0.0000,0.0,202.5,1.0000\n"
    );
}
