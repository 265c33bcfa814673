//! The one play loop (every command plays games through it) and a finished
//! game's record.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use agents::AgentSpec;
use engine::{Game, Research, State, ToMove};

use super::jobs::{Job, mix};

/// A finished game, as written to the CSV.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    /// Game index within the run.
    pub index: u64,
    /// Game seed.
    pub seed: u64,
    /// Agent index per seat.
    pub seats: Vec<usize>,
    /// Winning seats: those with the highest return (two partners in a team
    /// game); empty for a draw (every seat's return equal).
    pub winners: Vec<usize>,
    /// Return per seat.
    pub returns: Vec<f64>,
    /// Pie or set-up role per seat (`setter`, `chooser`, ...; empty where
    /// the game has none), from [`engine::SeatRole`].
    pub roles: Vec<String>,
    /// Colour or side per seat (`teal`, `white`, `north`, ...), after any
    /// swap; empty for rows read from files written before colours had a
    /// column of their own.
    pub colours: Vec<String>,
    /// Team per seat in team games (0: seats 0+2, 1: seats 1+3).
    pub teams: Vec<Option<usize>>,
    /// Seat that moved first in the main game, if the game has one.
    pub first_mover: Option<usize>,
    /// Seat that made the pie set-up, if any.
    pub setter: Option<usize>,
    /// Plies played.
    pub plies: u32,
    /// Turns played (see "Moves, plies and turns" in `engine::api`); `None`
    /// for a row read from a file written before turns were recorded.
    pub turns: Option<u32>,
    /// Wall-clock milliseconds for the game.
    pub wall_ms: u64,
    /// The move record, space-separated, in the game's notation (after the
    /// opening, if the game started from one).
    pub moves: String,
    /// Why the game ended, in the game's terms ([`Research::end_reason`]);
    /// `None` for a row written before end reasons were recorded.
    pub end: Option<String>,
    /// The opening's index in the run's list, if the game started from one.
    pub opening: Option<u32>,
    /// The opening's text: its moves from the start, or a position text.
    pub opening_moves: Option<String>,
    /// The position text the moves start from (after the opening, if
    /// any); `None` for a row read from a file written before the column
    /// existed.
    pub start: Option<String>,
}

/// How a run's games are set up beyond their job: agent seeds and openings.
#[derive(Clone, Debug, Default)]
pub struct PlaySetup<S> {
    /// Agents are seeded by agent index (`mix(game seed, agent + 1)`), so
    /// that a game pair of two identical agents is two different games;
    /// `false` for runs made before (seeded by seat).
    pub agent_seeds: bool,
    /// The run's openings (empty: every game from its seeded start).
    pub openings: Vec<super::openings::Opening<S>>,
}

/// Plays `state` to the end: `players[s]` chooses for seat `s`, chance
/// outcomes are drawn from a generator seeded with `chance_seed`; the text of
/// each move is appended to `record` if given, a space between two moves
/// (the `moves` column). Returns the number of turns played: plies after
/// which [`State::continues_turn`] is false.
pub fn play_out<S: State + 'static>(
    state: &mut S,
    players: &mut [Box<dyn agents::Agent<S>>],
    chance_seed: u64,
    record: Option<&mut String>,
) -> u32 {
    play_out_or_forfeit(state, players, chance_seed, record).0
}

/// [`play_out`], stopping at the first forfeit (an external program that
/// crashed, hung or cheated, see [`agents::Agent::try_select`]): returns the
/// turns played and the forfeiting seat with its forfeit. The state is left
/// where the forfeit happened (not terminal).
pub fn play_out_or_forfeit<S: State + 'static>(
    state: &mut S,
    players: &mut [Box<dyn agents::Agent<S>>],
    chance_seed: u64,
    mut record: Option<&mut String>,
) -> (u32, Option<(usize, agents::Forfeit)>) {
    let mut chance_rng = ChaCha8Rng::seed_from_u64(chance_seed);
    let mut outcomes = Vec::new();
    let mut turns = 0;
    loop {
        let mv = match state.to_move() {
            ToMove::Terminal => break,
            ToMove::Chance => state
                .sample_chance(&mut chance_rng, &mut outcomes)
                .expect("a chance node has outcomes"),
            ToMove::Seat(s) => match players[s].try_select(state) {
                Ok(mv) => mv,
                Err(f) => return (turns, Some((s, f))),
            },
        };
        if let Some(r) = record.as_deref_mut() {
            if !r.is_empty() {
                r.push(' ');
            }
            state.push_move_text(mv, r);
        }
        state.apply(mv);
        turns += u32::from(!state.continues_turn());
    }
    (turns, None)
}

/// The returns of a game lost by `seat`'s forfeit: -1 for it, 1 for every
/// other seat (of `n`).
pub fn forfeit_returns(n: usize, seat: usize) -> Vec<f64> {
    (0..n).map(|s| if s == seat { -1.0 } else { 1.0 }).collect()
}

/// Plays one game of a job with fresh agents, from its opening if it has
/// one (else from the seeded start).
pub fn play_job<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    job: &Job,
    setup: &PlaySetup<G::State>,
) -> GameRecord {
    let start = Instant::now();
    let opening = job.opening.map(|k| &setup.openings[k as usize]);
    let mut state = match opening {
        Some(o) => o.state.clone(),
        None => game.initial_state(job.seed),
    };
    let start_text = state.to_text();
    let mut players: Vec<_> = job
        .seats
        .iter()
        .enumerate()
        .map(|(seat, &a)| {
            let key = if setup.agent_seeds { a } else { seat };
            specs[a].build::<G::State>(mix(job.seed, key as u64 + 1))
        })
        .collect();
    // Room for most games' moves, so the record seldom grows.
    let mut moves = String::with_capacity(1024);
    let (turns, forfeit) =
        play_out_or_forfeit(&mut state, &mut players, mix(job.seed, 0), Some(&mut moves));
    let n = game.num_seats();
    let r = match &forfeit {
        Some((seat, _)) => forfeit_returns(n, *seat),
        None => state.returns()[..n].to_vec(),
    };
    GameRecord {
        index: job.index,
        seed: job.seed,
        seats: job.seats.clone(),
        turns: Some(turns),
        wall_ms: start.elapsed().as_millis() as u64,
        moves,
        end: match &forfeit {
            Some((_, f)) => Some(f.end_reason().to_string()),
            None => state.end_reason().map(str::to_string),
        },
        opening: job.opening,
        opening_moves: opening.map(|o| o.text.clone()),
        start: Some(start_text),
        ..ended(&state, r)
    }
}

/// What a game's last state tells its record, given the seats' returns:
/// the winners and returns, each seat's role, colour and team, the first
/// mover, the setter and the plies; the other fields are empty.
pub fn ended<S: Research>(state: &S, returns: Vec<f64>) -> GameRecord {
    let seats: Vec<engine::SeatRole> = (0..returns.len()).map(|s| state.seat_role(s)).collect();
    GameRecord {
        winners: crate::run::records::winners(&returns),
        returns,
        roles: seats.iter().map(|x| x.role.to_string()).collect(),
        colours: seats.iter().map(|x| x.colour.clone()).collect(),
        teams: seats.iter().map(|x| x.team).collect(),
        first_mover: state.first_mover_seat(),
        setter: state.setter_seat(),
        plies: state.ply(),
        ..GameRecord::default()
    }
}
