//! Where a run's games are stored: one file, plain or gzip-compressed.
//!
//! A tournament's games file is its CSV (`run::rows`): a path ending in
//! `.gz` (`top-plain.csv.gz`) is written through gzip, any other as plain
//! text. Compression happens in the run's one writer thread, never on a
//! worker's path: rows are buffered in the compressor and [`Sink::sync`]
//! pushes them to the file (a deflate sync flush, which keeps the
//! compression window) whenever the writer has no finished game waiting,
//! so a killed run loses at most the games of its last batch and a resumed
//! run keeps every game the file holds. A file that was appended to after
//! a resume is several gzip members one after the other, which gzip,
//! Python's `gzip` module and pandas read as one stream.
//!
//! Reading ([`open`]) yields complete lines only: a half-written last line,
//! and the unfinished end of a compressed stream that a killed run left,
//! are dropped and reported in [`Tail`].

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use anyhow::{Context, Result};
use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

/// Whether `path` names a gzip-compressed file (it ends in `.gz`).
pub fn is_compressed(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "gz")
}

/// `path` without a final `.gz`: the name files beside it are made from
/// (`top.csv.gz` has its configuration in `top.csv.config.json`).
pub fn base_name(path: &Path) -> &Path {
    if is_compressed(path) {
        // The stem of a path is itself a valid path.
        let s = path.as_os_str().to_str().unwrap_or_default();
        Path::new(&s[..s.len() - 3])
    } else {
        path
    }
}

/// The games file `DIR/STEM.csv.gz` a command names for its games,
/// compressed; `DIR/STEM.csv` where a run made before compression exists
/// there (it resumes as it was made).
pub fn games_file(dir: &Path, stem: &str) -> std::path::PathBuf {
    let plain = dir.join(format!("{stem}.csv"));
    if plain.exists() {
        plain
    } else {
        dir.join(format!("{stem}.csv.gz"))
    }
}

/// Refuses an output whose other form holds the run: `FILE.csv` when
/// `FILE.csv.gz` exists (a run compressed since, by the command or by
/// `scripts/compress-games`), or the other way round. Both share one
/// configuration file, so writing one would replace the other's.
///
/// # Errors
/// The twin exists.
pub fn check_no_twin(out: &Path) -> Result<()> {
    let twin = if is_compressed(out) {
        base_name(out).to_path_buf()
    } else {
        let mut p = out.as_os_str().to_owned();
        p.push(".gz");
        std::path::PathBuf::from(p)
    };
    if twin.exists() {
        anyhow::bail!(
            "{} holds this run's games; give --out {} (or another name)",
            twin.display(),
            twin.display()
        );
    }
    Ok(())
}

/// What a read left out at the end of a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tail {
    /// Bytes after the last newline (a half-written last line), as
    /// decompressed.
    pub partial: u64,
    /// The compressed stream ended before its end marker or was damaged
    /// there (a run killed while writing), with the decoder's message.
    pub broken: Option<String>,
}

impl Tail {
    /// Whether anything was dropped.
    pub fn dropped(&self) -> bool {
        self.partial > 0 || self.broken.is_some()
    }
}

/// A reader of the complete lines of a byte stream: it passes every byte
/// up to the last newline and keeps the rest, which it reports when the
/// stream ends. A decoding error of the inner reader ends the stream as if
/// the file ended there (the bytes before it are kept).
pub struct CompleteLines<R> {
    inner: R,
    /// Bytes read but not yet passed on: after `start`, the current chunk.
    buf: Vec<u8>,
    start: usize,
    /// End of the bytes that may be passed on (after the last newline).
    ready: usize,
    tail: Tail,
    done: bool,
}

impl<R: Read> CompleteLines<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> Self {
        CompleteLines {
            inner,
            buf: Vec::new(),
            start: 0,
            ready: 0,
            tail: Tail::default(),
            done: false,
        }
    }

    /// What was dropped at the end (complete once the reader returned 0).
    pub fn tail(&self) -> &Tail {
        &self.tail
    }

    /// Reads more of the inner stream until a newline arrives or it ends.
    fn refill(&mut self) -> io::Result<()> {
        // Keep the partial line, drop what was passed on.
        self.buf.drain(..self.start);
        self.ready -= self.start;
        self.start = 0;
        let mut chunk = [0u8; 64 * 1024];
        while self.ready == 0 && !self.done {
            match self.inner.read(&mut chunk) {
                Ok(0) => self.done = true,
                Ok(k) => {
                    let old = self.buf.len();
                    self.buf.extend_from_slice(&chunk[..k]);
                    if let Some(i) = self.buf[old..].iter().rposition(|&b| b == b'\n') {
                        self.ready = old + i + 1;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::UnexpectedEof
                            | io::ErrorKind::InvalidInput
                            | io::ErrorKind::InvalidData
                    ) =>
                {
                    self.tail.broken = Some(e.to_string());
                    self.done = true;
                }
                Err(e) => return Err(e),
            }
        }
        if self.done && self.ready == 0 {
            self.tail.partial = self.buf.len() as u64;
        }
        Ok(())
    }
}

impl<R: Read> Read for CompleteLines<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.start == self.ready {
            self.refill()?;
        }
        let k = out.len().min(self.ready - self.start);
        out[..k].copy_from_slice(&self.buf[self.start..self.start + k]);
        self.start += k;
        Ok(k)
    }
}

/// The complete lines of `path`, decompressed if it is compressed.
///
/// # Errors
/// A file that cannot be opened.
pub fn open(path: &Path) -> Result<CompleteLines<Box<dyn Read + Send>>> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let inner: Box<dyn Read + Send> = if is_compressed(path) {
        Box::new(MultiGzDecoder::new(BufReader::new(file)))
    } else {
        Box::new(BufReader::new(file))
    };
    Ok(CompleteLines::new(inner))
}

/// Rewrites `path` with its complete lines only (a compressed file in one
/// gzip member), through a file beside it that replaces it when complete.
///
/// # Errors
/// A file that cannot be read or written.
pub fn repair(path: &Path) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".repair");
    let tmp = std::path::PathBuf::from(tmp);
    let mut lines = open(path)?;
    let mut sink = Sink::create(&tmp, is_compressed(path))?;
    io::copy(&mut lines, &mut sink)
        .with_context(|| format!("cannot rewrite {}", path.display()))?;
    sink.finish()?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))
}

/// A file being written, plain or through gzip.
pub enum Sink {
    /// Plain text, buffered.
    Plain(io::BufWriter<File>),
    /// A gzip member being written (boxed: the encoder's state is large).
    Gzip(Box<GzEncoder<io::BufWriter<File>>>),
    /// A compressed file before its first byte: the gzip member starts
    /// with the first write, so that a run that writes nothing (a resumed
    /// run with no game left, one stretch of a sequential block) appends
    /// nothing. An empty member is 20 bytes, and a sequential block
    /// resumed complete reopened its file at each of its checkpoints.
    Idle(Option<io::BufWriter<File>>),
}

impl Sink {
    /// A sink over `file`, compressing if `compressed`.
    pub fn new(file: File, compressed: bool) -> Sink {
        let file = io::BufWriter::with_capacity(256 * 1024, file);
        if compressed {
            Sink::Idle(Some(file))
        } else {
            Sink::Plain(file)
        }
    }

    /// The gzip member over `file`. Level 2 of zlib-rs: 100,000 random
    /// Catapult games (79 MB of CSV) compress to 23.5 MB at about 70,000
    /// games/s; level 6 of miniz_oxide, used before, gave 20.9 MB but kept
    /// up with fewer than 10,000 games/s, so the writer, not the games, set
    /// the pace of a cheap run.
    fn gzip(file: io::BufWriter<File>) -> Sink {
        Sink::Gzip(Box::new(GzEncoder::new(file, Compression::new(2))))
    }

    /// Creates (or truncates) `path`.
    ///
    /// # Errors
    /// A file that cannot be created.
    pub fn create(path: &Path, compressed: bool) -> Result<Sink> {
        let file =
            File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(Sink::new(file, compressed))
    }

    /// Pushes everything written so far to the file, so that a reader (or
    /// a resumed run) sees it: a sync flush of the compressor, then the
    /// buffer.
    ///
    /// # Errors
    /// An I/O error.
    pub fn sync(&mut self) -> io::Result<()> {
        match self {
            Sink::Plain(w) => w.flush(),
            Sink::Gzip(w) => {
                w.flush()?;
                w.get_mut().flush()
            }
            Sink::Idle(_) => Ok(()),
        }
    }

    /// Ends the file: the gzip trailer, then every buffer flushed.
    ///
    /// # Errors
    /// An I/O error.
    pub fn finish(self) -> Result<()> {
        match self {
            Sink::Plain(mut w) => w.flush()?,
            Sink::Gzip(w) => w.finish()?.flush()?,
            Sink::Idle(_) => {}
        }
        Ok(())
    }
}

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        if b.is_empty() {
            return Ok(0);
        }
        if let Sink::Idle(file) = self {
            let file = file.take().expect("an idle sink holds its file");
            *self = Sink::gzip(file);
        }
        match self {
            Sink::Plain(w) => w.write(b),
            Sink::Gzip(w) => w.write(b),
            Sink::Idle(_) => unreachable!("started above"),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.sync()
    }
}

/// Reads all of `path` (decompressed if it is compressed) into a string.
///
/// # Errors
/// A file that cannot be read or decompressed, or that is not UTF-8.
pub fn read_to_string(path: &Path) -> Result<String> {
    let mut text = String::new();
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    if is_compressed(path) {
        MultiGzDecoder::new(BufReader::new(file)).read_to_string(&mut text)
    } else {
        BufReader::new(file).read_to_string(&mut text)
    }
    .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(text)
}

/// The lines of `path` (decompressed if it is compressed), each with its
/// number from 1; a last line without a newline is a line too.
///
/// # Errors
/// A file that cannot be opened.
pub fn lines(path: &Path) -> Result<impl Iterator<Item = (usize, io::Result<String>)>> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let inner: Box<dyn Read + Send> = if is_compressed(path) {
        Box::new(MultiGzDecoder::new(BufReader::new(file)))
    } else {
        Box::new(file)
    };
    Ok(BufReader::new(inner)
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l)))
}
