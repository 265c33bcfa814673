//! Every game by name: its parameters and defaults, a one-line description,
//! and dispatch from a game string to a generic function over the concrete
//! game type (one `match` per run; hot loops never see a trait object).

use crate::andalusia::{self, AndalusiaGame};
use crate::api::Game;
use crate::bagel::{self, BagelGame};
use crate::blockade::{self, BlockadeGame};
use crate::catapult::{self, CatapultGame};
use crate::empire::{self, EmpireGame};
use crate::error::GameError;
use crate::gateway::{self, GatewayGame};
use crate::kings_colour::{self, KingsColourGame};
use crate::line_up::{self, LineUpGame};
use crate::pie::Pie;
use crate::royal_guard::{self, RoyalGuardGame};
use crate::slingshot::{self, SlingshotGame};
use crate::sly_solitaire::{self, SlySolitaireGame};
use crate::sniggle::{self, SniggleGame};
use crate::spec::{ParamInfo, Spec};
use crate::spinner::{self, SpinnerGame};

/// A game's entry in the registry.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The name used in game strings.
    pub name: &'static str,
    /// One line: what the game is, its designer and dossier.
    pub description: &'static str,
    /// Its parameters with defaults.
    pub params: &'static [ParamInfo],
}

/// All games, in the order `boardlab games` lists them.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "slingshot",
        description: "Slingshot (Phil Leduc): custodial-flip connection game with a pie set-up; docs/rules/slingshot.md",
        params: slingshot::PARAMS,
    },
    GameInfo {
        name: "catapult",
        description: "Catapult (Alek Erickson, Michael Amundsen): ranged capture game of annihilation, Royal and Dagger variants; docs/rules/catapult.md",
        params: catapult::PARAMS,
    },
    GameInfo {
        name: "sniggle",
        description: "Sniggle (Sid Sackson, Sly): race game for 2-4 players or two teams on the 12x12 Sly board; docs/rules/sniggle.md",
        params: sniggle::PARAMS,
    },
    GameInfo {
        name: "sly_solitaire",
        description: "Solitaire Sly (Sid Sackson, Sly): one-player jumping game, remove all pieces but one; return = minus the pieces left; docs/rules/sly_solitaire.md",
        params: sly_solitaire::PARAMS,
    },
    GameInfo {
        name: "spinner",
        description: "Spinner connection game (unnamed, rule set SPINPATH-8): spin 1/2/3/S to place or switch, stars wild; docs/rules/spinner.md",
        params: spinner::PARAMS,
    },
    GameInfo {
        name: "bagel",
        description: "Bagel and Big Bagel (Phil Leduc): place one disc or two on aligned same-colour tiles, most 3-in-a-rows (4 in Big Bagel), pie rule, random layout; docs/rules/bagel.md",
        params: bagel::PARAMS,
    },
    GameInfo {
        name: "royal_guard",
        description: "Royal Guard (Chris Huntoon, Christian Freeling): chess where R/B/N/P on their King's sub-grid gain King steps / a forward capture; royal_powers=false is FIDE chess; docs/rules/royal_guard.md",
        params: royal_guard::PARAMS,
    },
    GameInfo {
        name: "andalusia",
        description: "Andalusia (Chris Huntoon): chess on a modified quadruple-Alquerque board, flying kings; docs/rules/andalusia.md",
        params: andalusia::PARAMS,
    },
    GameInfo {
        name: "kings_colour",
        description: "King's Colour (Christian Freeling): hex chess with castles, walls and the switcheroo on 127 cells; docs/rules/kings_colour.md",
        params: kings_colour::PARAMS,
    },
    GameInfo {
        name: "empire",
        description: "Empire (Sid Sackson, Sly): war game for 2-4 players or two teams, exact-distance captures, thrones, coronation, regicide; docs/rules/empire.md",
        params: empire::PARAMS,
    },
    GameInfo {
        name: "gateway",
        description: "Gateway (Sid Sackson, Sly): 2-4 players or two teams align cylinder, triangle and square to enter reserve pieces on the field gateways; docs/rules/gateway.md",
        params: gateway::PARAMS,
    },
    GameInfo {
        name: "line_up",
        description: "Line Up (Sid Sackson, Sly): place then step 2 squares, 2 triangles and a cylinder on the 4x4 centres in a fixed type order, four in a line wins; docs/rules/line_up.md",
        params: line_up::PARAMS,
    },
    GameInfo {
        name: "blockade",
        description: "Blockade (Sid Sackson, Sly): place and slide six guards so your king escapes off the far edge along a turning path and the enemy's cannot; docs/rules/blockade.md",
        params: blockade::PARAMS,
    },
];

/// Wrappers: games made from another game string.
pub const WRAPPERS: &[GameInfo] = &[GameInfo {
    name: "pie",
    description: "pie(G): G (any two-seat game) with the pie rule: the second player may swap on their first turn, taking over the first player's colour and move",
    params: &[],
}];

/// A generic computation over a concrete game type.
pub trait GameVisitor {
    /// What the computation returns.
    type Output;
    /// Runs the computation with the game built from the string.
    fn visit<G: Game>(self, game: G) -> Self::Output;
}

/// Parses `game_string` (e.g. `slingshot(size=7)`), builds the game and runs
/// `visitor` with it.
///
/// # Errors
/// An unknown game (the message lists the known ones), or bad parameters.
pub fn visit_game<V: GameVisitor>(game_string: &str, visitor: V) -> Result<V::Output, GameError> {
    let spec = Spec::parse(game_string)?;
    if spec.name == "pie" {
        let inner = pie_argument(&spec)?;
        return visit_base(&Spec::parse(inner)?, PieVisitor(visitor))?;
    }
    visit_base(&spec, visitor)
}

/// The game string inside `pie(...)`.
fn pie_argument(spec: &Spec) -> Result<&str, GameError> {
    match spec.args.as_slice() {
        [(key, inner)] if key.is_empty() || key == "game" => {
            if Spec::parse(inner)?.name == "pie" {
                crate::bail!("pie(pie(...)) is not a game: the pie rule applies once");
            }
            Ok(inner)
        }
        _ => crate::bail!("bad game pie(...): expected one two-seat game, e.g. pie(catapult)"),
    }
}

/// Wraps the game a visitor receives in [`Pie`].
struct PieVisitor<V>(V);

impl<V: GameVisitor> GameVisitor for PieVisitor<V> {
    type Output = Result<V::Output, GameError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        Ok(self.0.visit(Pie::new(game)?))
    }
}

/// The game's own defaults for the searches' switches
/// ([`crate::Search::search_defaults`] of its start position), for agent
/// specs that leave them out.
///
/// # Errors
/// As [`visit_game`]: an unknown game or bad parameters.
pub fn search_defaults(game_string: &str) -> Result<crate::SearchDefaults, GameError> {
    struct Defaults;
    impl GameVisitor for Defaults {
        type Output = crate::SearchDefaults;
        fn visit<G: Game>(self, game: G) -> crate::SearchDefaults {
            crate::Search::search_defaults(&game.initial_state(0))
        }
    }
    visit_game(game_string, Defaults)
}

/// Dispatch for every game but the `pie(...)` wrapper.
fn visit_base<V: GameVisitor>(spec: &Spec, visitor: V) -> Result<V::Output, GameError> {
    let spec = spec.clone();
    match spec.name.as_str() {
        "slingshot" => Ok(visitor.visit(SlingshotGame::from_spec(&spec)?)),
        // 8×8 on u64 bitboards, 9×9 on u128 (§1.14).
        "catapult" => {
            let rules = catapult::Rules::from_spec(&spec)?;
            if rules.size == 8 {
                Ok(visitor.visit(CatapultGame::<u64>::new(rules)?))
            } else {
                Ok(visitor.visit(CatapultGame::<u128>::new(rules)?))
            }
        }
        "sniggle" => Ok(visitor.visit(SniggleGame::from_spec(&spec)?)),
        "sly_solitaire" => Ok(visitor.visit(SlySolitaireGame::from_spec(&spec)?)),
        "spinner" => Ok(visitor.visit(SpinnerGame::from_spec(&spec)?)),
        "bagel" => Ok(visitor.visit(BagelGame::from_spec(&spec)?)),
        "royal_guard" => Ok(visitor.visit(RoyalGuardGame::from_spec(&spec)?)),
        "andalusia" => Ok(visitor.visit(AndalusiaGame::from_spec(&spec)?)),
        "kings_colour" => Ok(visitor.visit(KingsColourGame::from_spec(&spec)?)),
        "empire" => Ok(visitor.visit(EmpireGame::from_spec(&spec)?)),
        "gateway" => Ok(visitor.visit(GatewayGame::from_spec(&spec)?)),
        "line_up" => Ok(visitor.visit(LineUpGame::from_spec(&spec)?)),
        "blockade" => Ok(visitor.visit(BlockadeGame::from_spec(&spec)?)),
        other => {
            let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
            crate::bail!(
                "unknown game {other:?} (known games: {}; wrapper: pie(G))",
                names.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;
    impl GameVisitor for Name {
        type Output = String;
        fn visit<G: Game>(self, game: G) -> String {
            game.game_string()
        }
    }

    /// Every game is listed once, and every listed name builds (`games`
    /// and `balance --all` read this list).
    #[test]
    fn each_game_is_listed_once() {
        let mut names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        assert_eq!(names.len(), 13, "{names:?}");
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 13);
        for n in names {
            assert!(visit_game(n, Name).is_ok(), "{n}");
        }
    }

    #[test]
    fn canonical_strings_and_errors() {
        assert_eq!(
            visit_game("slingshot", Name).unwrap(),
            "slingshot(size=9,supply=45,corners=ordinary,stuck=pass)"
        );
        assert_eq!(
            visit_game("slingshot(size=7, supply=unlimited)", Name).unwrap(),
            "slingshot(size=7,supply=unlimited,corners=ordinary,stuck=pass)"
        );
        let e = visit_game("chess", Name).unwrap_err();
        assert!(
            e.0.contains("unknown game \"chess\"") && e.0.contains("slingshot"),
            "{e}"
        );
        let e = visit_game("slingshot(size=8)", Name).unwrap_err();
        assert!(e.0.contains("size=\"8\"") && e.0.contains("7|9"), "{e}");
        let e = visit_game("slingshot(colour=1)", Name).unwrap_err();
        assert!(
            e.0.contains("unknown parameter") && e.0.contains("corners="),
            "{e}"
        );
        // Every canonical string parses back to the same game.
        let s = visit_game(
            "slingshot(size=7,corners=neutral,stuck=lose,supply=20)",
            Name,
        )
        .unwrap();
        assert_eq!(visit_game(&s, Name).unwrap(), s);
    }
}
