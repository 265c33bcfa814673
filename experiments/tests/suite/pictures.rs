//! `boardlab show`: every game's start position as SVG is well-formed XML
//! with the cells, pieces, centres and lines its dossier gives.

use engine::{Game, GameVisitor, visit_game};
use experiments::output::svg::svg_of;

use crate::common::{dir, fails, ok, p};

struct StartSvg;
impl GameVisitor for StartSvg {
    type Output = Option<String>;
    fn visit<G: Game>(self, game: G) -> Option<String> {
        svg_of(&game.initial_state(0))
    }
}

/// Counts of elements by class in an SVG (parsed as XML).
struct Counts {
    cells: usize,
    pieces: usize,
    centres: usize,
    links: usize,
    castles: usize,
    walls: usize,
    holes: usize,
}

fn counts(game: &str) -> Counts {
    let svg = visit_game(game, StartSvg).unwrap().expect(game);
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{game}: {e}"));
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|a| a.split(' ').any(|w| w == c))
            })
            .count()
    };
    Counts {
        cells: class("cell"),
        pieces: class("piece"),
        centres: class("centre"),
        links: class("link"),
        castles: class("castle"),
        walls: class("wall"),
        holes: class("hole"),
    }
}

#[test]
fn every_start_position_draws_the_dossier_board() {
    // (game, cells, pieces, circled centres): docs/rules/*.md set-ups.
    let cases = [
        // 9×9, empty until the pie set-up (docs/rules/slingshot.md).
        ("slingshot", 81, 0, 0),
        // corners=neutral: a neutral piece on each corner.
        ("slingshot(corners=neutral)", 81, 4, 0),
        // C-S1: 8×8, 12 stones each.
        ("catapult", 64, 24, 0),
        // FIDE set-up: 32 men.
        ("royal_guard", 64, 32, 0),
        // A-S1: 81 points, 1 King + 6 Chariots + 9 Soldiers each.
        ("andalusia", 81, 32, 0),
        // KC-S3: 127 cells, each 9-cell castle full.
        ("kings_colour", 127, 18, 0),
        // Base 4: 37 hexes, no discs at the start (docs/rules/bagel.md).
        ("bagel", 37, 0, 0),
        // Sly board: 144 spaces, 16 circled centres; N-SET-1: 9 pieces each.
        ("sniggle", 144, 18, 16),
        // §3: 36 pieces fill the four middle fields.
        ("sly_solitaire", 144, 36, 16),
        // E-SET-1: 11 pieces each.
        ("empire", 144, 22, 16),
        // G-SET-1: a cylinder, a triangle and a square each on the board.
        ("gateway", 144, 6, 16),
        // U-SET-1: the 16 centres as a 4×4 grid, empty at the start.
        ("line_up", 16, 0, 16),
        // §6: the two kings on the board, guards to place.
        ("blockade", 144, 2, 16),
        // 8×8 with the four wild-card stars (docs/rules/spinner.md).
        ("spinner", 64, 4, 0),
    ];
    for (game, cells, pieces, centres) in cases {
        let c = counts(game);
        assert_eq!(
            (c.cells, c.pieces, c.centres),
            (cells, pieces, centres),
            "{game}"
        );
    }
    // Andalusia A-B: 144 links (40 horizontal, 40 vertical, 64 diagonal).
    assert_eq!(counts("andalusia").links, 144);
    // King's Colour KC-S2: two 3×3 castles, two walls of 14 cells.
    let k = counts("kings_colour");
    assert_eq!((k.castles, k.walls), (18, 28));
    // Bagel: one centre hole among 36 tiles.
    assert_eq!(counts("bagel").holes, 1);
    // The pie wrapper draws its game's board.
    assert_eq!(counts("pie(catapult)").pieces, 24);
}

#[test]
fn show_prints_or_draws_a_position_and_refuses_bad_paths() {
    // Without --svg: the terminal board and the position text.
    let text = ok(&["show", "--game", "royal_guard", "--moves", "e2e4"]);
    assert!(
        text.contains("position: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"),
        "{text}"
    );
    let d = dir("show");
    let file = p(&d, "rg.svg");
    let out = ok(&[
        "show",
        "--game",
        "royal_guard",
        "--moves",
        "e2e4",
        "--svg",
        &file,
    ]);
    assert!(out.contains("wrote"), "{out}");
    let svg = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // e4 is named and holds a white (colour 0) piece labelled P.
    assert!(doc.descendants().any(|n| n.text() == Some("e4")));
    assert!(
        doc.descendants()
            .any(|n| n.attribute("class") == Some("label") && n.text() == Some("P"))
    );
    fails(
        &[
            "show",
            "--game",
            "catapult",
            "--svg",
            "/nonexistent-dir/x.svg",
        ],
        "cannot write /nonexistent-dir/x.svg",
    );
    fails(&["show", "--game", "catapult", "--moves", "z9"], "--moves");
    fails(
        &["show", "--game", "catapult", "--position", "8/8"],
        "--position",
    );
}
