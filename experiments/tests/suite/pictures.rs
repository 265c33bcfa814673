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

/// `show --svg` writes the game string as the SVG's title, the side to move
/// and the last move above the board, and outlines the last move's cells.
#[test]
fn show_svg_has_title_side_to_move_and_last_move() {
    let d = dir("show-caption");
    let out = p(&d, "c.svg");
    ok(&[
        "show", "--game", "catapult", "--moves", "b1-b2", "--svg", &out,
    ]);
    let svg = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let text_of = |class: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .map(|n| {
                n.descendants()
                    .filter(|t| t.is_text())
                    .filter_map(|t| t.text())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert!(
        title
            .text()
            .unwrap()
            .starts_with("catapult(size=8,royal=false")
    );
    assert_eq!(text_of("title"), ["catapult"]);
    // A long status wraps after its `;` inside the board's width.
    let long = p(&d, "end.svg");
    ok(&[
        "show",
        "--game",
        "catapult",
        "--position",
        "8/8/8/8/8/8/8/L7 D - 9",
        "--svg",
        &long,
    ]);
    let end = std::fs::read_to_string(&long).unwrap();
    assert!(
        end.contains(">game over: seat 0 (light) wins (annihilation);</tspan>"),
        "{end}"
    );
    assert_eq!(
        text_of("status"),
        ["seat 1 (dark) to move; last move: b1-b2"]
    );
    assert_eq!(text_of("marked").len(), 2);
}

/// A switch a canonical spec writes off (only where the game's default is
/// on: `mvv=false` on plain Catapult 8×8, `minimax=0` on the tactics set)
/// stays in the label, or the label would name the game's default; off
/// switches the spec does not write stay out.
#[test]
fn labels_keep_a_switch_written_off() {
    use experiments::output::table::short;
    use experiments::report::agent_in_words;
    let ab =
        "alphabeta(depth=64,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50,mvv=false,nodes=80000)";
    assert_eq!(short(ab), "alphabeta(depth=64,mvv=false,nodes=80000)");
    assert_eq!(
        agent_in_words(ab),
        "alpha-beta, 80,000 nodes a move (mvv=false)"
    );
    assert_eq!(
        agent_in_words(
            "mcts(iterations=1000,c=0.7,ms=0,mb=256,cutoff=4,scale=auto,solver=true,reuse=true,minimax=0)"
        ),
        "MCTS, 1,000 playouts a move (minimax=0)"
    );
    assert_eq!(
        short("alphabeta(depth=3,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50,lmr=0)"),
        "alphabeta(lmr=0)"
    );
    assert_eq!(short("alphabeta(depth=3,tt_mb=32)"), "alphabeta(tt_mb=32)");
    assert_eq!(
        short("catapult(size=8,royal=false,dagger=false)"),
        "catapult"
    );
}

/// The balance plot: a bar per row with the agent in words and the full
/// specs as the label's tooltip, a fair-share tick at 1/seats (⅓ for a
/// three-seat game), and a label area wide enough for the longest label.
#[test]
fn balance_bars_have_fair_share_ticks_and_whole_labels() {
    use experiments::report::agent_in_words;
    use experiments::report::plot::{WdlBar, wdl_bars};
    assert_eq!(
        agent_in_words(
            "mcts(iterations=1000,c=1.4,ms=0,mb=256,cutoff=4,scale=auto,solver=true,reuse=true)"
        ),
        "MCTS, 1,000 playouts a move (c=1.4)"
    );
    assert_eq!(
        agent_in_words("alphabeta(depth=4,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50)"),
        "alpha-beta, depth 4"
    );
    assert_eq!(
        agent_in_words("uct(iterations=50,c=1.4,ms=250)"),
        "plain UCT, 250 ms a move"
    );
    assert_eq!(
        agent_in_words(
            "alphabeta(depth=64,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50,nodes=80000)"
        ),
        "alpha-beta, 80,000 nodes a move"
    );
    assert_eq!(
        agent_in_words("alphabeta(depth=6,nodes=1000)"),
        "alpha-beta, 1,000 nodes a move (depth=6)"
    );
    assert_eq!(agent_in_words("random"), "random moves");
    let d = dir("wdl-bars");
    let path = d.join("bars.svg");
    let long = "a very long label that the old fixed label area clipped: ".repeat(2);
    let bars = [
        WdlBar {
            label: "sniggle: random moves, n=10".into(),
            tooltip: "sniggle(players=3) / random (3 seats)".into(),
            win: 0.4,
            draw: 0.0,
            lower: 0.2,
            upper: 0.6,
            fair: 1.0 / 3.0,
        },
        WdlBar {
            label: long.clone(),
            tooltip: "catapult / mcts (2 seats)".into(),
            win: 0.5,
            draw: 0.1,
            lower: 0.4,
            upper: 0.6,
            fair: 0.5,
        },
    ];
    wdl_bars(&path, "t", &bars).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let label = doc
        .descendants()
        .find(|n| n.has_tag_name("text") && n.text().is_some_and(|t| t.contains("old fixed")))
        .or_else(|| {
            doc.descendants().find(|n| {
                n.has_tag_name("text")
                    && n.descendants()
                        .any(|c| c.text().is_some_and(|t| t.contains("old fixed")))
            })
        })
        .expect("the long label");
    // Right-aligned at x: it starts at x minus its width, inside the picture.
    let x: f64 = label.attribute("x").unwrap().parse().unwrap();
    assert!(
        x > 6.2 * long.len() as f64,
        "x = {x} for {} characters",
        long.len()
    );
    assert!(
        svg.contains("<title>sniggle(players=3) / random (3 seats)</title>"),
        "{svg}"
    );
}
