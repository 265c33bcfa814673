//! Unit tests of `experiments::run::storage`.

use std::io::{Read, Write};
use std::path::Path;

use experiments::run::storage::*;

fn read_all(path: &Path) -> (String, Tail) {
    let mut r = open(path).unwrap();
    let mut s = String::new();
    r.read_to_string(&mut s).unwrap();
    (s, r.tail().clone())
}

#[test]
fn complete_lines_drop_a_partial_last_line() {
    let d = crate::common::dir("storage");
    let p = d.join("a.csv");
    std::fs::write(&p, "h\n1\n2\n3x").unwrap();
    let (s, t) = read_all(&p);
    assert_eq!(s, "h\n1\n2\n");
    assert_eq!(t.partial, 2);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_synced_unfinished_gzip_member_reads_up_to_its_last_sync() {
    let d = crate::common::dir("storage-gz");
    let p = d.join("a.csv.gz");
    let mut s = Sink::create(&p, true).unwrap();
    s.write_all(b"h\n1\n").unwrap();
    s.sync().unwrap();
    s.write_all(b"2\n").unwrap();
    s.sync().unwrap();
    // Killed here: no trailer, and a line the compressor still holds.
    s.write_all(b"3\n").unwrap();
    std::mem::forget(s);
    let (text, t) = read_all(&p);
    assert_eq!(text, "h\n1\n2\n");
    assert!(t.broken.is_some(), "{t:?}");
    repair(&p).unwrap();
    let (text, t) = read_all(&p);
    assert_eq!((text.as_str(), t.dropped()), ("h\n1\n2\n", false));
    // An appended member reads as the continuation.
    let f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
    let mut s = Sink::new(f, true);
    s.write_all(b"3\n").unwrap();
    s.finish().unwrap();
    assert_eq!(read_all(&p).0, "h\n1\n2\n3\n");
    assert_eq!(read_to_string(&p).unwrap(), "h\n1\n2\n3\n");
    std::fs::remove_dir_all(&d).unwrap();
}

/// A compressed file reopened to append and closed with nothing written
/// keeps its bytes (an empty gzip member is 20 bytes; a complete
/// sequential block, resumed, reopened its file at each checkpoint); the
/// first byte written starts a member that reads on after the first.
#[test]
fn an_append_that_writes_nothing_leaves_a_compressed_file_as_it_was() {
    let d = crate::common::dir("storage-idle");
    let p = d.join("a.csv.gz");
    let mut s = Sink::create(&p, true).unwrap();
    s.write_all(b"h\n1\n").unwrap();
    s.finish().unwrap();
    let before = std::fs::read(&p).unwrap();
    let append = || {
        let f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        Sink::new(f, true)
    };
    for _ in 0..3 {
        let mut s = append();
        s.write_all(b"").unwrap();
        s.sync().unwrap();
        s.finish().unwrap();
    }
    assert_eq!(std::fs::read(&p).unwrap(), before);
    let mut s = append();
    s.write_all(b"2\n").unwrap();
    s.finish().unwrap();
    assert_eq!(read_to_string(&p).unwrap(), "h\n1\n2\n");
    assert!(std::fs::read(&p).unwrap().len() > before.len());
    std::fs::remove_dir_all(&d).unwrap();
}
