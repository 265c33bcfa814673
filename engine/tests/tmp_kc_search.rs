use engine::kings_colour::{KingsColour, Side};
use engine::{Game, State, ToMove};
#[test]
fn search() {
    let g = KingsColour::default();
    let geo = engine::kings_colour::Geometry::get();
    let base = g.parse_position(&g.initial_state(0).to_text()).unwrap();
    let _ = base;
    let names: Vec<String> = (0..127).map(|c| geo.name(c)).collect();
    let mut found = 0;
    for a in 0..127 {
        for b in a + 1..127 {
            if geo.castle[0] >> a & 1 == 1 || geo.castle[0] >> b & 1 == 1 {
                continue;
            }
            if geo.castle[1] >> a & 1 == 1 || geo.castle[1] >> b & 1 == 1 {
                continue;
            }
            // build text via the engine: start from a kings-only text and place queens.
            let mut cols: Vec<Vec<char>> = Vec::new();
            for col in 0..13i32 {
                let len = 13 - (col - 6).unsigned_abs() as usize;
                cols.push(vec!['.'; len]);
            }
            let mut put = |n: &str, ch: char| {
                let c = (n.as_bytes()[0] - b'A') as usize;
                let r: usize = n[1..].parse().unwrap();
                cols[c][r - 1] = ch;
            };
            put("D4", 'K');
            put("K5", 'k');
            put(&names[a], 'Q');
            put(&names[b], 'Q');
            let t: Vec<String> = cols
                .iter()
                .map(|c| {
                    c.iter()
                        .map(|&x| {
                            if x == '.' {
                                "1".to_string()
                            } else {
                                x.to_string()
                            }
                        })
                        .collect()
                })
                .collect();
            let text = format!("{} b 0", t.join("/"));
            if let Ok(s) = g.parse_position(&text) {
                if s.to_move() == ToMove::Terminal && !s.in_check(Side::Black) {
                    println!("STALEMATE {} {}", names[a], names[b]);
                    found += 1;
                    if found > 12 {
                        return;
                    }
                }
            }
        }
    }
}
