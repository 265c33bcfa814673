//! A repetition history of Zobrist keys that is cheap to clone: the keys of
//! the positions since the last irreversible move, the newest
//! [`RECENT`] inline and older ones in shared, immutable chunks, so a clone
//! copies at most 128 bytes and bumps one reference count. Games with a
//! repetition draw (Andalusia's A-R3 i, Line Up's U-6 option) keep one.

use std::sync::Arc;

/// Keys kept inline before older ones move to a shared chunk.
pub const RECENT: usize = 16;

/// A full chunk of older keys, shared between clones.
#[derive(Debug)]
struct Chunk {
    keys: [u64; RECENT],
    prev: Option<Arc<Chunk>>,
}

/// Unlinks the chain a chunk owns alone one chunk at a time, so that
/// dropping a long window (a game without a quiet-move rule) does not
/// recurse once per chunk.
impl Drop for Chunk {
    fn drop(&mut self) {
        let mut next = self.prev.take();
        while let Some(mut chunk) = next.and_then(Arc::into_inner) {
            next = chunk.prev.take();
        }
    }
}

/// The Zobrist keys of earlier positions in a repetition window, oldest
/// first; the game decides what opens a window ([`KeyHistory::clear`]) and
/// pushes the key of each position it leaves ([`KeyHistory::push`]).
#[derive(Clone, Debug, Default)]
pub struct KeyHistory {
    /// Keys `RECENT · (len − 1) / RECENT ..` of the window.
    recent: [u64; RECENT],
    /// Keys in the window.
    len: u32,
    /// The full chunks before `recent`, newest first.
    older: Option<Arc<Chunk>>,
}

impl KeyHistory {
    /// Empties the window (after an irreversible move).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
        self.older = None;
    }

    /// Keys in the window.
    #[inline(always)]
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether the window is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `key` (the position just left) to the window. Allocates one
    /// chunk every [`RECENT`] pushes.
    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        let i = self.len as usize % RECENT;
        if i == 0 && self.len > 0 {
            self.older = Some(Arc::new(Chunk {
                keys: self.recent,
                prev: self.older.take(),
            }));
        }
        self.recent[i] = key;
        self.len += 1;
    }

    /// How often `key` occurs in the window.
    pub fn count(&self, key: u64) -> u32 {
        if self.len == 0 {
            return 0;
        }
        let inline = (self.len as usize - 1) % RECENT + 1;
        let mut n = self.recent[..inline].iter().filter(|&&k| k == key).count() as u32;
        let mut c = self.older.as_deref();
        while let Some(chunk) = c {
            n += chunk.keys.iter().filter(|&&k| k == key).count() as u32;
            c = chunk.prev.as_deref();
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_across_chunks_and_clones() {
        let mut h = KeyHistory::default();
        for i in 0..40u64 {
            h.push(i % 7);
        }
        assert_eq!(h.len(), 40);
        // 0..40 mod 7: residue 0 at 0,7,...,35 (6 times), residue 5 at 5..33 (5 times).
        assert_eq!(h.count(0), 6);
        assert_eq!(h.count(5), 5);
        assert_eq!(h.count(9), 0);
        let mut c = h.clone();
        c.push(0);
        assert_eq!((c.count(0), h.count(0)), (7, 6));
        c.clear();
        assert!(c.is_empty() && c.count(0) == 0);
    }

    #[test]
    fn a_long_window_drops_without_deep_recursion() {
        let mut h = KeyHistory::default();
        for i in 0..(RECENT as u64 * 100_000) {
            h.push(i);
        }
        let c = h.clone();
        drop(h);
        assert_eq!(c.count(7), 1);
        drop(c);
    }
}
