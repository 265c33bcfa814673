//! The pie and no-swap wrappers allocate nothing in random playouts,
//! counted by a per-thread counting global allocator (this module's
//! allocator serves the whole test binary).

use engine::{Game, State, ToMove};

/// Counts heap allocations made by the current thread (tests run in
/// parallel threads, so a per-thread count is exact for the code measured).
struct CountingAlloc;

thread_local! {
    static ALLOCS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

unsafe impl std::alloc::GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { std::alloc::System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

fn allocations() -> u64 {
    ALLOCS.with(|c| c.get())
}

/// Plays `games` seeded random games twice (the first warms the buffers
/// up) and counts the allocations of `legal_moves`, `count_legal_moves` and
/// `sample_legal_move` in the second.
fn allocations_in_playouts<S: State>(start: &S, games: u64) -> u64 {
    use rand::SeedableRng;
    let mut buf = Vec::new();
    let mut total = 0;
    for round in 0..2 {
        for seed in 0..games {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut s = start.clone();
            let mut count = 0;
            while let ToMove::Seat(_) = s.to_move() {
                let a0 = allocations();
                s.legal_moves(&mut buf);
                let len = buf.len();
                let n = s.count_legal_moves();
                let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                count += allocations() - a0;
                assert_eq!(n, len);
                // `apply` is left out: in the test profile its debug
                // assertion lists the legal moves to check the move.
                s.apply(m);
            }
            if round == 1 {
                total += count;
            }
        }
    }
    total
}

#[test]
fn pie_and_noswap_do_not_allocate_in_playouts() {
    struct Check;
    impl engine::GameVisitor for Check {
        type Output = u64;
        fn visit<G: Game>(self, game: G) -> u64 {
            let s = game.initial_state(1);
            let a = allocations_in_playouts(&s, 20);
            let b = allocations_in_playouts(&engine::pie::NoSwapState(s), 20);
            a + b
        }
    }
    let mut total = 0;
    for g in [
        "catapult",
        "slingshot(size=7)",
        "pie(catapult)",
        "pie(slingshot(size=7))",
        "bagel",
        "catapult(dagger=true)",
        "pie(catapult(dagger=true))",
        "royal_guard",
    ] {
        total += engine::visit_game(g, Check).unwrap();
    }
    assert_eq!(total, 0);
}
