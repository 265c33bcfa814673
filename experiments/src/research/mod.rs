//! The research commands, one module each (`rate`, `sprt` and `tune`
//! share [`strength`]).

pub mod analyse;
pub mod balance;
pub mod compare;
pub mod evidence;
pub mod inspect;
pub mod ladder;
pub mod play;
pub mod pool;
pub mod rate;
pub mod show;
pub mod solve;
pub mod sprt;
pub mod spsa;
pub mod strength;
pub mod study;
pub mod swapmap;
pub mod texel;
pub mod tune;
pub mod ugi;
