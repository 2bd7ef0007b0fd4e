//! The whole distance histogram beyond the summary's kept bins (`DistanceOutputs`).

use std::vec;
use std::vec::Vec;

use super::*;

#[test]
fn whole_histogram_of_paths_and_rings_beyond_the_kept_bins() {
    // P_n has 2(n − k) ordered pairs at distance k ≥ 1 (n at 0); every path is far beyond the
    // summary's bins. The whole histogram comes out of the plain BFS, the bit-parallel BFS in
    // any split of its batches, and distance_summary, all alike.
    let n = 200u32;
    let n64 = n as u64;
    let want: Vec<u64> = (0..n64)
        .map(|k| if k == 0 { n64 } else { 2 * (n64 - k) })
        .collect();
    let edges: Vec<(u32, u32)> = (0..n - 1).map(|i| (i, i + 1)).collect();
    let (mut off, mut tg) = (vec![0; n as usize + 1], vec![0; 2 * n as usize]);
    with_edges(n, &edges, |g| {
        let csr = Csr::build(g, &mut off, &mut tg).unwrap();
        let (mut dist, mut queue) = (vec![0u32; n as usize], vec![0u32; n as usize]);
        let mut hist = vec![0u64; n as usize];
        let outputs = DistanceOutputs {
            eccentricities: None,
            histogram: Some(&mut hist),
        };
        bfs::all_pairs(&csr, &mut dist, &mut queue, outputs).unwrap();
        assert_eq!(hist, want, "plain BFS");
        // Batches of 64 sources, one call per batch, adding into one histogram.
        let mut hist = vec![0u64; n as usize];
        let mut words = vec![[0u64; 1]; bit_bfs::words_needed(n)];
        for b in 0..bit_bfs::batch_count::<1>(n) {
            let outputs = DistanceOutputs {
                eccentricities: None,
                histogram: Some(&mut hist),
            };
            bit_bfs::run_batches(&csr, b..b + 1, &mut words, outputs, &mut |_, _| {}).unwrap();
        }
        assert_eq!(hist, want, "bit-parallel BFS in batches");
        let mut hist = vec![0u64; n as usize];
        let outputs = DistanceOutputs {
            eccentricities: None,
            histogram: Some(&mut hist),
        };
        let s = distance_summary(
            g,
            &csr,
            DistanceBuffers {
                words: &mut words,
                dist: &mut [],
                queue: &mut [],
            },
            outputs,
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(hist, want, "distance_summary");
        assert_eq!(&s.histogram[..], &want[..HISTOGRAM_BINS]);
        // A histogram shorter than n is refused, not truncated.
        let mut short = vec![0u64; n as usize - 1];
        let outputs = DistanceOutputs {
            eccentricities: None,
            histogram: Some(&mut short),
        };
        assert!(matches!(
            bfs::all_pairs(&csr, &mut dist, &mut queue, outputs),
            Err(MetricsError::Capacity { .. })
        ));
    });
    // The ring C_n (vertex-transitive, one BFS): 2n pairs at each distance 1..n/2 − 1 and n at
    // n/2 for even n.
    let n = 1024u32;
    let ring = crate::topology::circulant::Circulant::new(n, &[1]).unwrap();
    let (mut off, mut tg) = build_csr(&ring);
    let csr = Csr::build(&ring, &mut off, &mut tg).unwrap();
    let (mut dist, mut queue) = (vec![0u32; n as usize], vec![0u32; n as usize]);
    let mut hist = vec![0u64; n as usize];
    let outputs = DistanceOutputs {
        eccentricities: None,
        histogram: Some(&mut hist),
    };
    transitive::summary_from_switch_zero(&csr, &mut dist, &mut queue, outputs).unwrap();
    let n64 = n as u64;
    for (k, &h) in hist.iter().enumerate() {
        let want = match k as u64 {
            0 => n64,
            k if k < n64 / 2 => 2 * n64,
            k if k == n64 / 2 => n64,
            _ => 0,
        };
        assert_eq!(h, want, "ring distance {k}");
    }
}
