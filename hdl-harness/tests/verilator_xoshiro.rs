//! The xoshiro256** RTL under Verilator against `jumpnet_core::rng::Rng`, cycle by cycle.

use jumpnet_core::rng::Rng;
use jumpnet_hdl::{seed_state, Xoshiro256Rtl};

const SEEDS: [u64; 6] = [0, 1, 42, 0xDEAD_BEEF, 0x0123_4567_89AB_CDEF, u64::MAX];

#[test]
fn reference_state_gives_the_published_outputs() {
    // xoshiro256** from state [1, 2, 3, 4] (Vigna's reference code).
    let mut rtl = Xoshiro256Rtl::new();
    rtl.load_state([1, 2, 3, 4]);
    for expected in [11520u64, 0, 1_509_978_240, 1_215_971_899_390_074_240] {
        assert_eq!(rtl.next_u64(), expected);
    }
}

#[test]
fn rtl_matches_core_rng_for_thousands_of_cycles() {
    for seed in SEEDS {
        let mut rtl = Xoshiro256Rtl::new();
        rtl.load_seed(seed);
        let mut rng = Rng::new(seed);
        for cycle in 0..5000 {
            assert_eq!(rtl.next_u64(), rng.next(), "seed {seed:#x}, cycle {cycle}");
        }
        assert_eq!(rtl.cycles(), 5001);
    }
}

#[test]
fn hold_keeps_the_state_and_reload_restarts_the_stream() {
    let mut rtl = Xoshiro256Rtl::new();
    rtl.load_seed(7);
    let mut rng = Rng::new(7);
    for i in 0..100 {
        if i % 3 == 0 {
            let before = rtl.output();
            rtl.hold();
            assert_eq!(rtl.output(), before, "hold changed the state at {i}");
        }
        assert_eq!(rtl.next_u64(), rng.next());
    }
    rtl.load_state(seed_state(99));
    let mut rng = Rng::new(99);
    for _ in 0..100 {
        assert_eq!(rtl.next_u64(), rng.next());
    }
}

#[test]
fn models_are_independent_within_and_across_threads() {
    let mut a = Xoshiro256Rtl::new();
    let mut b = Xoshiro256Rtl::new();
    a.load_seed(1);
    b.load_seed(2);
    let (mut ra, mut rb) = (Rng::new(1), Rng::new(2));
    for _ in 0..1000 {
        assert_eq!(a.next_u64(), ra.next());
        assert_eq!(b.next_u64(), rb.next());
        assert_eq!(b.next_u64(), rb.next());
    }
    let handles: Vec<_> = SEEDS
        .iter()
        .map(|&seed| {
            std::thread::spawn(move || {
                let mut rtl = Xoshiro256Rtl::new();
                rtl.load_seed(seed);
                let mut rng = Rng::new(seed);
                (0..20_000).all(|_| rtl.next_u64() == rng.next())
            })
        })
        .collect();
    for (h, seed) in handles.into_iter().zip(SEEDS) {
        assert!(h.join().expect("thread"), "seed {seed:#x} diverged");
    }
}
