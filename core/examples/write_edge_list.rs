//! Writes the edge list of a ring-based random shortcut graph (docs/topologies.md §3), one
//! `u v` line per link, and prints jumpnet's own diameter / ASPL and the seconds the
//! bit-parallel all-pairs BFS took, so `xtask/scripts/networkx_baseline.py` can be compared on the
//! very same graph.
//!
//! ```text
//! cargo run --release -p jumpnet-core --example write_edge_list -- [PATH] [N] [D] [SEED]
//! ```
//!
//! Defaults: the 4,096-switch, degree-23, seed-1 graph of the benchmarks, written to
//! `target/jumpnet-bench/random_shortcut_n4096_d23_seed1.edges` in the workspace.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use jumpnet_core::metrics::{bit_bfs, csr_size, Csr, DistanceOutputs};
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::{random_shortcut, Port, Slot, Topology};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u32 = args.get(1).map_or(Ok(4096), |s| s.parse())?;
    let d: u16 = args.get(2).map_or(Ok(23), |s| s.parse())?;
    let seed: u64 = args.get(3).map_or(Ok(1), |s| s.parse())?;
    let path = match args.first() {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../target/jumpnet-bench")
            .join(format!("random_shortcut_n{n}_d{d}_seed{seed}.edges")),
    };

    let need = random_shortcut::RandomShortcutSizes::of(n, d);
    let mut slots = vec![Slot::EMPTY; need.slots];
    let mut degree = vec![0u16; need.degree];
    let (g, info) = random_shortcut::build(n, d, &mut Rng::new(seed), &mut slots, &mut degree)?;

    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut out = BufWriter::new(std::fs::File::create(&path)?);
    let mut links = 0u64;
    for s in 0..g.num_switches() {
        for p in 0..g.radix() {
            if let Port::Link(l) = g.port(s, p) {
                if (s, p) < (l.peer, l.peer_port) {
                    writeln!(out, "{s} {}", l.peer)?;
                    links += 1;
                }
            }
        }
    }
    out.flush()?;

    let size = csr_size(&g);
    let mut offsets = vec![0; size.offsets];
    let mut targets = vec![0; size.targets];
    let csr = Csr::build(&g, &mut offsets, &mut targets)?;
    let mut words = vec![[0u64; 4]; bit_bfs::words_needed(n)];
    let start = Instant::now();
    let s = bit_bfs::all_pairs(&csr, &mut words, DistanceOutputs::none(), &mut |_, _| {})?;
    let seconds = start.elapsed().as_secs_f64();

    println!("edges: {}", path.display());
    println!(
        "switches: {n}  links: {links}  short switches: {}",
        info.short_nodes
    );
    println!("jumpnet diameter: {}", s.diameter);
    println!("jumpnet aspl: {:.6}", s.aspl());
    println!("jumpnet seconds: {seconds:.3}");
    Ok(())
}
