//! Perft (leaf counts of the move-generation tree, by plies or by whole
//! turns) and the checked parsing of moves and move records.

use super::{State, ToMove, with_scratch};
use crate::error::GameError;

/// Parses `text` as a move and checks it is legal in `state`.
///
/// # Errors
/// Malformed text, a move at a terminal state, or a move that is not legal
/// here (the message names it).
pub fn parse_legal_move<S: State>(state: &S, text: &str) -> Result<S::Move, GameError> {
    let mv = state.parse_move(text)?;
    match state.to_move() {
        ToMove::Terminal => crate::bail!("move {text:?}: the game is already over"),
        ToMove::Chance => {
            let mut outs = Vec::new();
            state.chance_outcomes(&mut outs);
            if !outs.iter().any(|&(m, _)| m == mv) {
                crate::bail!("move {text:?}: not a chance outcome of this position");
            }
        }
        ToMove::Seat(_) => {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            if !moves.contains(&mv) {
                crate::bail!("move {text:?} is not legal in this position");
            }
        }
    }
    Ok(mv)
}

/// Like [`parse_legal_move`], but an illegal move's error gives the reason
/// in the game's terms ([`crate::api::Research::illegal_reason`]):
/// `move "a1-a2" is not legal here: no piece on a1`. For people (`boardlab
/// play`, `boardlab serve`).
///
/// # Errors
/// Malformed text, a move at a terminal state, or an illegal move, with the
/// reason.
pub fn parse_move_explained<S: crate::api::Research>(
    state: &S,
    text: &str,
) -> Result<S::Move, GameError> {
    match parse_legal_move(state, text) {
        Ok(mv) => Ok(mv),
        Err(e) => match state.illegal_reason(text) {
            Some(why) if state.parse_move(text).is_ok() => {
                crate::bail!("move {text:?} is not legal here: {why}")
            }
            _ => Err(e),
        },
    }
}

/// Applies a whitespace-separated move record to `state`, checking each move.
///
/// # Errors
/// The first malformed or illegal move, named with its ply number.
pub fn apply_moves<S: State>(state: &mut S, record: &str) -> Result<(), GameError> {
    for (i, text) in record.split_whitespace().enumerate() {
        let mv = parse_legal_move(state, text)
            .map_err(|e| GameError::new(format!("move {} of the record: {e}", i + 1)))?;
        state.apply(mv);
    }
    Ok(())
}

/// Counts the leaf nodes of the game tree `depth` plies below `state`
/// (perft). A terminal state above the horizon counts 0; chance outcomes
/// count as moves. At depth 1 the count uses [`State::count_legal_moves`]
/// (bulk counting) or the number of chance outcomes; the move lists are one
/// per ply, allocated once per call.
pub fn perft<S: State>(state: &S, depth: u32) -> u64 {
    let mut bufs: Vec<PlyBuffers<S>> = (0..depth).map(|_| PlyBuffers::default()).collect();
    perft_rec(state, depth, &mut bufs)
}

/// The reused lists of one ply of [`perft`].
struct PlyBuffers<S: State> {
    moves: Vec<S::Move>,
    outcomes: Vec<(S::Move, f64)>,
}

impl<S: State> Default for PlyBuffers<S> {
    fn default() -> Self {
        PlyBuffers {
            moves: Vec::new(),
            outcomes: Vec::new(),
        }
    }
}

fn perft_rec<S: State>(state: &S, depth: u32, bufs: &mut [PlyBuffers<S>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    match state.to_move() {
        ToMove::Terminal => 0,
        ToMove::Chance => {
            let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
            state.chance_outcomes(&mut buf.outcomes);
            if depth == 1 {
                return buf.outcomes.len() as u64;
            }
            let mut total = 0;
            for &(m, _) in buf.outcomes.iter() {
                let mut child = state.clone();
                child.apply(m);
                total += perft_rec(&child, depth - 1, rest);
            }
            total
        }
        ToMove::Seat(_) => {
            if depth == 1 {
                return state.count_legal_moves() as u64;
            }
            let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
            state.legal_moves(&mut buf.moves);
            if depth == 2 {
                return buf.moves.iter().map(|&m| state.perft_after(m)).sum();
            }
            let mut total = 0;
            for &m in buf.moves.iter() {
                let mut child = state.clone();
                child.apply(m);
                total += perft_rec(&child, depth - 1, rest);
            }
            total
        }
    }
}

/// [`perft`] at depth 1: 0 at a terminal state, the number of chance
/// outcomes at a chance node, else [`State::count_legal_moves`].
pub fn perft_leaves<S: State>(state: &S) -> u64 {
    match state.to_move() {
        ToMove::Terminal => 0,
        ToMove::Chance => with_scratch(|outs: &mut Vec<(S::Move, f64)>| {
            state.chance_outcomes(outs);
            outs.len() as u64
        }),
        ToMove::Seat(_) => state.count_legal_moves() as u64,
    }
}

/// Counts the leaf nodes of the game tree `depth` whole **turns** below
/// `state` (see the module docs on turns): plies that continue a turn
/// ([`State::continues_turn`]) do not use up depth. Equal to [`perft`] in a
/// game whose every turn is one move. A terminal state above the horizon
/// counts 0.
pub fn perft_turns<S: State>(state: &S, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    match state.to_move() {
        ToMove::Terminal => 0,
        ToMove::Chance => {
            let mut outs = Vec::new();
            state.chance_outcomes(&mut outs);
            moves.extend(outs.iter().map(|&(m, _)| m));
            perft_turns_children(state, depth, &moves)
        }
        ToMove::Seat(_) => {
            state.legal_moves(&mut moves);
            perft_turns_children(state, depth, &moves)
        }
    }
}

fn perft_turns_children<S: State>(state: &S, depth: u32, moves: &[S::Move]) -> u64 {
    moves
        .iter()
        .map(|&m| {
            let mut child = state.clone();
            child.apply(m);
            let left = if child.continues_turn() {
                depth
            } else {
                depth - 1
            };
            perft_turns(&child, left)
        })
        .sum()
}
