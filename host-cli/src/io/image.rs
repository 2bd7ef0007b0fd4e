//! Reading images back (`jumpnet sched inspect FILE...`): decodes program and route-table
//! images (core's `image` framing: magic, format version, kind, length, CRC-32) and shows
//! exactly what a device would load, or why the bytes would be refused.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Serialize;

use jumpnet_core::collective::{Dep, Op};
use jumpnet_core::image::frame::{self, ImageKind, OVERHEAD, VERSION};
use jumpnet_core::image::{program as program_image, route_table};
use jumpnet_core::routing::{RouteEntry, Run};

use crate::analysis::schedule::{op_row, OpRow};
use crate::io::output::{Render, Section};
use crate::io::read::{read_bytes, Limit};

/// One image as read back.
#[derive(Debug, Serialize)]
pub struct Inspected {
    /// File the image was read from.
    pub file: String,
    /// Size in bytes.
    pub bytes: u64,
    /// Image format version (the framing's).
    pub format_version: u8,
    /// What the image holds (core's [`ImageKind::name`]: e.g. `program`, `route table`).
    pub kind: String,
    /// CRC-32 stored in the image (checked).
    pub crc32: String,
    /// A program image's contents.
    pub program: Option<ProgramView>,
    /// A route-table or virtual-layer image's contents.
    pub table: Option<TableView>,
}

/// A decoded program image.
#[derive(Debug, Serialize)]
pub struct ProgramView {
    /// Rank the program belongs to.
    pub rank: u32,
    /// Ranks of the collective.
    pub ranks: u32,
    /// The ops, in program order.
    pub ops: Vec<OpRow>,
}

/// A decoded table image: runs of destinations with the same value.
#[derive(Debug, Serialize)]
pub struct TableView {
    /// Switch the table belongs to.
    pub switch: u32,
    /// Destinations covered (`0..destinations`).
    pub destinations: u32,
    /// Runs: first destination and its value (`port/vc`, `-` for no route, or a layer).
    pub runs: Vec<(u32, String)>,
}

/// `kind`'s name as an image ("device image", "program image").
fn kind_with_image(kind: ImageKind) -> String {
    let name = kind.name();
    if name.ends_with("image") {
        name.to_string()
    } else {
        format!("{name} image")
    }
}

/// Reads and decodes the image in `path`. Every framing or payload problem is an error that
/// names the file and what is wrong with the bytes.
pub fn inspect(path: &Path) -> Result<Inspected> {
    let bytes = read_bytes(path, Limit::IMAGE)?;
    inspect_bytes(&bytes, &path.display().to_string())
}

/// Decodes the image `bytes` read from the file `shown` (named in errors), as [`inspect`]
/// does.
pub fn inspect_bytes(bytes: &[u8], shown: &str) -> Result<Inspected> {
    let shown = shown.to_string();
    let frame = frame::parse(bytes).with_context(|| format!("{shown} is not a valid image"))?;
    let crc = bytes
        .get(bytes.len() - frame::CRC_LEN..)
        .and_then(|c| <[u8; 4]>::try_from(c).ok())
        .map(u32::from_le_bytes)
        .unwrap_or_default();
    let mut out = Inspected {
        file: shown.clone(),
        bytes: bytes.len() as u64,
        format_version: VERSION,
        kind: frame.kind.name().to_string(),
        crc32: format!("{crc:#010x}"),
        program: None,
        table: None,
    };
    let context = || format!("{shown}: the {} payload is refused", frame.kind.name());
    match frame.kind {
        ImageKind::Program => {
            // Every op takes at least four payload bytes (image::program docs).
            let blank = Op::Permute {
                reflect: false,
                shift: 0,
                after: Dep::None,
            };
            let mut ops = vec![blank; bytes.len().saturating_sub(OVERHEAD) / 4 + 1];
            let d = program_image::decode(bytes, &mut ops).with_context(context)?;
            out.program = Some(ProgramView {
                rank: d.rank,
                ranks: d.ranks,
                ops: ops[..d.ops]
                    .iter()
                    .enumerate()
                    .map(|(i, op)| op_row(i, op))
                    .collect(),
            });
        }
        ImageKind::RouteTable => {
            let mut runs = vec![
                Run {
                    first: 0,
                    value: RouteEntry::NONE
                };
                bytes.len()
            ];
            let d = route_table::decode::<RouteEntry>(bytes, &mut runs).with_context(context)?;
            let runs = d
                .table
                .runs()
                .iter()
                .map(|r| {
                    let v = if r.value.is_route() {
                        format!("{}/{}", r.value.port, r.value.vc)
                    } else {
                        "-".to_string()
                    };
                    (r.first, v)
                })
                .collect();
            out.table = Some(TableView {
                switch: d.switch,
                destinations: d.table.len(),
                runs,
            });
        }
        ImageKind::VirtualLayers => {
            let mut runs = vec![
                Run {
                    first: 0,
                    value: 0u8
                };
                bytes.len()
            ];
            let d = route_table::decode::<u8>(bytes, &mut runs).with_context(context)?;
            out.table = Some(TableView {
                switch: d.switch,
                destinations: d.table.len(),
                runs: d
                    .table
                    .runs()
                    .iter()
                    .map(|r| (r.first, r.value.to_string()))
                    .collect(),
            });
        }
        other => bail!(
            "{shown} holds a {}; sched inspect shows program, route-table and virtual-layer \
             images (`jumpnet device` flashes device images)",
            kind_with_image(other)
        ),
    }
    Ok(out)
}

/// Several images, in the order given.
#[derive(Debug, Serialize)]
pub struct InspectedImages(pub Vec<Inspected>);

impl Render for InspectedImages {
    fn sections(&self) -> Vec<Section> {
        let mut out = Vec::new();
        for img in &self.0 {
            let mut head = Section::key_values(format!("image {}", img.file));
            head.kv("bytes", img.bytes)
                .kv("format version", img.format_version)
                .kv("kind", &img.kind)
                .kv("CRC-32 (valid)", &img.crc32);
            if let Some(p) = &img.program {
                head.kv("rank", p.rank)
                    .kv("ranks", p.ranks)
                    .kv("ops", p.ops.len());
            }
            if let Some(t) = &img.table {
                head.kv("switch", t.switch)
                    .kv("destinations", t.destinations)
                    .kv("runs", t.runs.len());
            }
            out.push(head);
            if let Some(p) = &img.program {
                let mut ops = Section::new(
                    format!("program of rank {}", p.rank),
                    &["op", "kind", "peer", "blocks", "after"],
                );
                for o in &p.ops {
                    ops.row([
                        o.index.to_string(),
                        o.op.clone(),
                        o.peer.to_string(),
                        o.blocks.clone(),
                        o.after.clone(),
                    ]);
                }
                out.push(ops);
            }
            if let Some(t) = &img.table {
                let mut runs = Section::new(
                    format!("table of switch {}", t.switch),
                    &["first destination", "value"],
                );
                for (first, v) in &t.runs {
                    runs.row([first.to_string(), v.clone()]);
                }
                out.push(runs);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jumpnet_core::routing::RunTableBuilder;

    #[test]
    fn route_table_images_show_their_runs() {
        // Switch 7's table over 6 destinations: ports 1, 1, 2 (VC 1), none, 3, 3.
        let entries = [
            RouteEntry { port: 1, vc: 0 },
            RouteEntry { port: 1, vc: 0 },
            RouteEntry { port: 2, vc: 1 },
            RouteEntry::NONE,
            RouteEntry { port: 3, vc: 0 },
            RouteEntry { port: 3, vc: 0 },
        ];
        let mut runs = [Run {
            first: 0,
            value: RouteEntry::NONE,
        }; 6];
        let mut b = RunTableBuilder::new(&mut runs);
        for e in entries {
            b.push(e).unwrap();
        }
        let table = b.finish();
        let mut img = vec![0u8; route_table::max_image_len(table.runs().len())];
        let len = route_table::encode(7, &table, &mut img).unwrap();
        let dir = std::env::temp_dir().join(format!("jumpnet-inspect-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("switch7.jnrt");
        std::fs::write(&file, &img[..len]).unwrap();
        let got = inspect(&file).unwrap();
        assert_eq!(got.kind, "route table");
        let t = got.table.unwrap();
        assert_eq!((t.switch, t.destinations), (7, 6));
        let want: Vec<(u32, String)> = vec![
            (0, "1/0".into()),
            (2, "2/1".into()),
            (3, "-".into()),
            (4, "3/0".into()),
        ];
        assert_eq!(t.runs, want);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
