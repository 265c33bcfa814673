//! The research commands, one module each.

pub mod analyse;
pub mod balance;
pub mod evidence;
pub mod inspect;
pub mod ladder;
pub mod play;
pub mod show;
pub mod solve;
pub mod strength;
pub mod swapmap;
pub mod ugi;
