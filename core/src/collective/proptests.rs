//! Property tests: every closed-form schedule passes the symbolic checker and has the
//! message counts of docs/collectives.md (§1–§5) and docs/reference-results.md A2.

use super::*;
use crate::error::CapacityError;
use crate::exec::testutil::{run_check, strict};
use crate::exec::CheckOptions;
use proptest::prelude::*;

fn log2(n: u32) -> u64 {
    n.trailing_zeros() as u64
}

fn rd_count(n: u32) -> u64 {
    let p = schedule::pof2_floor(n);
    p as u64 * log2(p) + 2 * (n - p) as u64
}

/// Counts messages by iterating, independent of `num_messages()`.
fn listed<S: Schedule>(s: &S) -> u64 {
    let mut c = 0;
    s.for_each_message(|_| c += 1);
    c
}

#[test]
fn a2_message_counts() {
    // docs/reference-results.md A2: 15/64/64, 1023/10240/10240, 511/4608/4608.
    for (n, b, a) in [(16u32, 15u64, 64u64), (1024, 1023, 10240), (512, 511, 4608)] {
        let bc = Binomial::new(n, 0, 8).unwrap();
        let rd = RecursiveDoubling::new(n, 8).unwrap();
        let br = Bruck::new(n, 8).unwrap();
        assert_eq!((listed(&bc), listed(&rd), listed(&br)), (b, a, a), "n={n}");
        assert_eq!(
            (bc.num_messages(), rd.num_messages(), br.num_messages()),
            (b, a, a)
        );
    }
}

#[test]
fn small_n_edge_cases() {
    for n in 1..=3 {
        strict(&Binomial::new(n, n - 1, 4).unwrap()).unwrap();
        strict(&RecursiveDoubling::new(n, 4).unwrap()).unwrap();
        strict(&Bruck::new(n, 4).unwrap()).unwrap();
        strict(&RingAllgather::new(n, 4).unwrap()).unwrap();
        strict(&RingAllreduce::new(n, 10, 4).unwrap()).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn binomial_is_a_correct_broadcast(n in 1u32..=200, root_seed in any::<u32>()) {
        let root = root_seed % n;
        let s = Binomial::new(n, root, 100).unwrap();
        prop_assert_eq!(listed(&s), n as u64 - 1);
        let rep = strict(&s).unwrap();
        prop_assert_eq!(rep.messages, n as u64 - 1);
        prop_assert_eq!(rep.redundant, 0);
    }

    #[test]
    fn recursive_doubling_is_a_correct_allreduce(n in 1u32..=200) {
        let s = RecursiveDoubling::new(n, 64).unwrap();
        prop_assert_eq!(listed(&s), rd_count(n));
        if n.is_power_of_two() {
            prop_assert_eq!(listed(&s), n as u64 * log2(n));
        }
        let rep = strict(&s).unwrap();
        prop_assert_eq!(rep.messages, rd_count(n));
    }

    #[test]
    fn bruck_is_a_correct_alltoall(n in 1u32..=200) {
        let s = Bruck::new(n, 8).unwrap();
        let k = schedule::ceil_log2(n) as u64;
        prop_assert_eq!(listed(&s), n as u64 * k);
        strict(&s).unwrap();
    }

    #[test]
    fn ring_allgather_is_correct(n in 1u32..=200) {
        let s = RingAllgather::new(n, 8).unwrap();
        prop_assert_eq!(listed(&s), n as u64 * (n as u64 - 1));
        strict(&s).unwrap();
    }

    #[test]
    fn ring_allreduce_is_correct(n in 1u32..=200, elements in 0u64..1000) {
        let s = RingAllreduce::new(n, elements, 4).unwrap();
        prop_assert_eq!(listed(&s), 2 * n as u64 * (n as u64 - 1));
        let mut bytes = 0;
        s.for_each_message_in_step(1, |m| bytes += m.bytes);
        if n > 1 {
            prop_assert_eq!(bytes, elements * 4); // one step moves every chunk once
        }
        strict(&s).unwrap();
    }

    #[test]
    fn scatter_allgather_broadcasts(n in 1u32..=200, root_seed in any::<u32>(), nbytes in 0u64..5000, ring in any::<bool>()) {
        let root = root_seed % n;
        let kind = if ring || !n.is_power_of_two() { AllgatherKind::Ring } else { AllgatherKind::RecursiveDoubling };
        let s = ScatterAllgather::new(n, root, nbytes, kind).unwrap();
        prop_assert_eq!(listed(&s), s.num_messages());
        let opts = CheckOptions { allow_redundant: true, seed: 0 };
        let rep = run_check(&s, opts).unwrap();
        prop_assert_eq!(rep.messages, s.num_messages());
        // Every block reaches every rank once beyond the root's copy; the rest is redundant.
        let mut delivered = 0u64;
        s.for_each_message(|m| delivered += m.blocks.count(s.pieces()) as u64);
        prop_assert_eq!(delivered - rep.redundant, (n as u64 - 1) * s.pieces() as u64);
    }

    #[test]
    fn mpich_selection_broadcasts(n in 1u32..=70, nbytes in 0u64..600_000) {
        let s = Broadcast::auto(n, n / 3, nbytes).unwrap();
        run_check(&s, CheckOptions { allow_redundant: true, seed: 0 }).unwrap();
    }
}

#[test]
fn allreduce_program_of_one_rank_encodes_in_one_kib() {
    let filler = Op::Send {
        peer: 0,
        blocks: Blocks::All,
        after: Dep::None,
    };
    for n in [1024u32, 1000] {
        let s = RecursiveDoubling::new(n, 1 << 20).unwrap();
        for r in [0, 1, n / 2, n - 1] {
            let mut ops = [filler; 64];
            let len = s.program(r, &mut ops).unwrap();
            assert_eq!(len, s.program_len(r));
            let mut buf = [0u8; 1024];
            let enc =
                crate::image::program::encode(r, n, &ops[..len], &mut buf).expect("fits in 1 KiB");
            let mut dec = [filler; 64];
            let d = crate::image::program::decode(&buf[..enc], &mut dec).unwrap();
            assert_eq!(&dec[..d.ops], &ops[..len]);
        }
    }
}

#[test]
fn programs_report_a_full_buffer() {
    let s = Bruck::new(16, 1).unwrap();
    let mut ops = [Op::Send {
        peer: 0,
        blocks: Blocks::All,
        after: Dep::None,
    }; 3];
    assert_eq!(
        s.program(3, &mut ops),
        Err(ScheduleError::Capacity(CapacityError {
            what: "program ops",
            needed: 4,
            available: 3
        }))
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Programs do not depend on the order in which ranks run and messages arrive.
    #[test]
    fn random_interleavings(n in 1u32..=40, seed in 1u64.., root_seed in any::<u32>()) {
        let strict_seeded = CheckOptions { allow_redundant: false, seed };
        let loose_seeded = CheckOptions { allow_redundant: true, seed };
        run_check(&Binomial::new(n, root_seed % n, 8).unwrap(), strict_seeded).unwrap();
        run_check(&RecursiveDoubling::new(n, 8).unwrap(), strict_seeded).unwrap();
        run_check(&Bruck::new(n, 8).unwrap(), strict_seeded).unwrap();
        run_check(&RingAllgather::new(n, 8).unwrap(), strict_seeded).unwrap();
        run_check(&RingAllreduce::new(n, 100, 8).unwrap(), strict_seeded).unwrap();
        let kind = if n.is_power_of_two() { AllgatherKind::RecursiveDoubling } else { AllgatherKind::Ring };
        run_check(&ScatterAllgather::new(n, root_seed % n, 1000, kind).unwrap(), loose_seeded).unwrap();
    }
}

#[test]
fn a2_schedules_are_correct_at_full_size() {
    // docs/reference-results.md A2 sizes, checked symbolically end to end.
    for n in [16u32, 512, 1024] {
        assert_eq!(
            strict(&Binomial::new(n, 0, 8).unwrap()).unwrap().messages,
            n as u64 - 1
        );
        let rd = strict(&RecursiveDoubling::new(n, 8).unwrap()).unwrap();
        assert_eq!(rd.messages, n as u64 * log2(n));
    }
    for n in [16u32, 512] {
        assert_eq!(
            strict(&Bruck::new(n, 8).unwrap()).unwrap().messages,
            n as u64 * log2(n)
        );
    }
}
