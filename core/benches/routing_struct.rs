//! Per-hop cost of the arithmetic routings of the structured families (no tables): every
//! ordered terminal pair routed hop by hop with `Routing::next_hop`, following the links
//! through `Topology::port`.
//!
//! * `torus_dor_dateline/16x16`: torus DOR with dateline VCs, 256 switches.
//! * `ecube/dim10`: hypercube e-cube, 1,024 switches (pairs from 64 sources).
//! * `hyperx_dor/12x8`: HyperX DOR on the [HX] 12×8 shape, one terminal per switch.
//! * `naf/G1024`: NAF routing on G(1024, 10) (pairs from 64 sources).
//! * `greedy/G1024`: greedy largest-jump routing on the same graph.
//! * `fat_tree_dmodk/4ary4`: up/down D-mod-k on a 4-ary 4-tree (256 nodes).
//!
//! Before measuring, the number of hops per iteration is printed so the time per hop can be
//! read off.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use jumpnet_core::routing::{
    CirculantGreedy, CirculantNaf, FatTreeDmodK, Hop, HyperXDor, HypercubeEcube, Routing, TorusDor,
    TorusVcs,
};
use jumpnet_core::topology::{Circulant, FatTree, HyperX, Hypercube, Topology, Torus};

/// Routes every pair from the first `sources` terminals to every terminal; returns the hop
/// total.
fn route_pairs<T: Topology, R: Routing>(topo: &T, r: &R, sources: u32) -> u64 {
    let nt = topo.num_terminals();
    let mut hops = 0u64;
    for src in 0..sources.min(nt) {
        let Some(mut at) = topo.terminal_switch(src) else {
            continue;
        };
        let start = at;
        for dst in 0..nt {
            let Ok(mut st) = r.inject(src, dst) else {
                continue;
            };
            at = start;
            while let Ok(Hop::Forward { port, .. }) = r.next_hop(at, &mut st, dst) {
                match topo.port(at, port).link() {
                    Some(l) => at = l.peer,
                    None => break,
                }
                hops += 1;
            }
        }
    }
    hops
}

fn bench<T: Topology, R: Routing>(c: &mut Criterion, name: &str, topo: &T, r: &R, sources: u32) {
    let hops = route_pairs(topo, r, sources);
    println!("{name}: {hops} hops per iteration");
    c.bench_function(name, |b| {
        b.iter(|| black_box(route_pairs(topo, r, sources)))
    });
}

fn structured(c: &mut Criterion) {
    let torus = Torus::torus(&[16, 16], 1).unwrap();
    let dor = TorusDor::new(&torus, TorusVcs::Dateline).unwrap();
    bench(c, "torus_dor_dateline/16x16", &torus, &dor, 256);

    let cube = Hypercube::new(10, 1).unwrap();
    bench(c, "ecube/dim10", &cube, &HypercubeEcube::new(&cube), 64);

    let hx = HyperX::new(&[12, 8], 1, 1).unwrap();
    bench(c, "hyperx_dor/12x8", &hx, &HyperXDor::new(&hx), 96);

    let g = Circulant::g(1024).unwrap();
    bench(c, "naf/G1024", &g, &CirculantNaf::new(&g).unwrap(), 64);
    bench(c, "greedy/G1024", &g, &CirculantGreedy::new(&g), 64);

    let ft = FatTree::new(4, 4).unwrap();
    bench(c, "fat_tree_dmodk/4ary4", &ft, &FatTreeDmodK::new(&ft), 256);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = structured
}
criterion_main!(benches);
