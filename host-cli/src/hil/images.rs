//! The device images of the HIL nodes (`crate::builder::image::build`, the same images
//! `jumpnet device image` writes) and the programs read back from them: what the device,
//! RTL and image-core engines run is what the image holds, not the host's schedule.

use anyhow::{anyhow, bail, Context, Result};
use jumpnet_core::collective::{Dep, Op, Rank};
use jumpnet_core::image::device::{self, DeviceBuffers, DeviceContent, ProgramEntry};
use jumpnet_core::routing::{RouteEntry, Run};

use crate::builder::network::OwnedNetwork;
use crate::builder::routing::RouteOptions;
use crate::builder::schedule::OwnedSchedule;

/// One rank's program in a node's image.
#[derive(Debug, Clone)]
pub struct NodeProgram {
    /// The rank.
    pub rank: Rank,
    /// Index of the program in the image.
    pub index: u32,
    /// Its ops, as decoded from the image.
    pub ops: Vec<Op>,
}

/// A node's device image and the programs of its ranks.
#[derive(Debug, Clone)]
pub struct NodeImage {
    /// The node (switch).
    pub node: u32,
    /// Image bytes.
    pub bytes: Vec<u8>,
    /// The programs of the ranks on the node's terminals.
    pub programs: Vec<NodeProgram>,
}

const BLANK: Op = Op::Permute {
    reflect: false,
    shift: 0,
    after: Dep::None,
};

/// A decoded image in owned buffers.
struct OwnedImage {
    header: device::DeviceHeader,
    runs: Vec<Run<RouteEntry>>,
    programs: Vec<ProgramEntry>,
    ops: Vec<Op>,
}

/// Decodes `bytes` into owned parts (buffers of `runs`, `programs` and `ops` entries).
fn decode_owned(bytes: &[u8], runs: usize, programs: usize, ops: usize) -> Result<OwnedImage> {
    let mut run_buf = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE,
        };
        runs
    ];
    let mut prog_buf = vec![ProgramEntry::default(); programs];
    let mut op_buf = vec![BLANK; ops];
    let img = device::decode(
        bytes,
        DeviceBuffers {
            runs: &mut run_buf,
            programs: &mut prog_buf,
            ops: &mut op_buf,
        },
    )
    .map_err(|e| anyhow!("decode the device image: {e}"))?;
    Ok(OwnedImage {
        header: img.header,
        runs: img.table.runs().to_vec(),
        programs: img.programs.to_vec(),
        ops: img.ops.to_vec(),
    })
}

/// The images of `nodes` for `schedule` (placed: its `terminals` set) routed by `route`.
pub fn node_images(
    owned: &OwnedNetwork,
    route: &RouteOptions,
    schedule: &OwnedSchedule,
    nodes: &[u32],
) -> Result<Vec<NodeImage>> {
    let mut out = Vec::new();
    for &node in nodes {
        let built =
            crate::builder::image::build(owned, node, route, std::slice::from_ref(schedule))
                .with_context(|| format!("device image of node {node}"))?;
        let total: usize = built.programs.iter().map(|p| p.ops as usize).sum();
        let OwnedImage {
            programs: entries,
            ops,
            ..
        } = decode_owned(&built.bytes, built.runs, built.programs.len(), total)?;
        let mut programs = Vec::new();
        for (index, entry) in entries.iter().enumerate() {
            let (_, slice) = device::program_ops(&entries, &ops, index)
                .ok_or_else(|| anyhow!("node {node}: program {index} is not in the image"))?;
            programs.push(NodeProgram {
                rank: entry.rank,
                index: index as u32,
                ops: slice.to_vec(),
            });
        }
        if programs.is_empty() {
            bail!("node {node} runs no rank of the collective (no program in its image)");
        }
        out.push(NodeImage {
            node,
            bytes: built.bytes,
            programs,
        });
    }
    Ok(out)
}

/// Makes `image` wrong on purpose (a testing aid): the first send of its first program goes
/// to the next rank instead (skipping the sender), re-encoded as a valid image. Returns what
/// was changed.
pub fn mutate_first_send(image: &mut NodeImage, ranks: u32) -> Result<String> {
    let prog = image
        .programs
        .first_mut()
        .context("the image has no program")?;
    let (i, peer) = prog
        .ops
        .iter()
        .enumerate()
        .find_map(|(i, op)| match *op {
            Op::Send { peer, .. } => Some((i, peer)),
            _ => None,
        })
        .with_context(|| format!("rank {}'s program has no send to change", prog.rank))?;
    let mut wrong = (peer + 1) % ranks;
    if wrong == prog.rank {
        wrong = (wrong + 1) % ranks;
    }
    if let Some(Op::Send { peer, .. }) = prog.ops.get_mut(i) {
        *peer = wrong;
    }
    let (index, rank) = (prog.index as usize, prog.rank);
    let runs = image.bytes.len(); // an upper bound on the runs
    let total: usize = image.programs.iter().map(|p| p.ops.len()).sum();
    let OwnedImage {
        header,
        runs: run_vec,
        programs: entries,
        mut ops,
    } = decode_owned(&image.bytes, runs, image.programs.len(), total)?;
    let first: usize = entries[..index].iter().map(|p| p.ops as usize).sum();
    ops[first + i] = image.programs[0].ops[i];
    let table = jumpnet_core::routing::RunTable::new(&run_vec, header.capacities.destinations)
        .map_err(|e| anyhow!("route table of the image: {e:?}"))?;
    let content = DeviceContent {
        switch: header.switch,
        network: &header.network,
        algorithm: header.algorithm,
        table,
        programs: &entries,
        ops: &ops,
    };
    let mut bytes = vec![0u8; device::max_image_len(run_vec.len(), entries.len(), ops.len())];
    let len = device::encode(&content, &mut bytes).map_err(|e| anyhow!("{e}"))?;
    bytes.truncate(len);
    image.bytes = bytes;
    Ok(format!(
        "node {}: rank {rank}'s op {i} sends to rank {wrong} instead of {peer}",
        image.node
    ))
}
