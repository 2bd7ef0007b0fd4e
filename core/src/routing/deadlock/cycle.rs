//! Iterative depth-first cycle search in caller buffers (docs/routing.md §6: "DFS cycle
//! search, deterministic start order").
//!
//! The graph is given through [`DependencyGraph`]: vertices `0..V`, each with `fanout`
//! numbered successor slots. Roots are tried in ascending vertex order and slots in
//! ascending order, so the cycle found is deterministic. The search can be resumed after
//! edges were removed ([`CycleSearch::resume`]): finished (black) vertices stay finished —
//! removing edges only shrinks what they reach — and the part of the DFS stack whose edges
//! still exist is kept. Vertices popped by a resume remember how far their slots were
//! examined (every earlier slot leads to a finished vertex or to no edge, and stays so), so
//! breaking many cycles one after the other costs about one DFS in total.
//!
//! One `u32` mark per vertex holds its colour (top two bits) and, below, the slot progress of
//! an unvisited vertex or the stack position of a vertex on the stack. A caller that tells
//! the search which edges it removed ([`CycleSearch::edge_removed`]) can resume in O(1) per
//! removal ([`CycleSearch::resume_after_removals`]).

use crate::error::CapacityError;
use crate::routing::error::RoutingError;

/// A directed graph whose vertices have numbered successor slots.
pub trait DependencyGraph {
    /// Number of vertices.
    fn num_vertices(&self) -> u32;
    /// Number of successor slots of every vertex.
    fn fanout(&self) -> u32;
    /// The successor through `slot` of `v`, if that edge exists.
    fn successor(&self, v: u32, slot: u32) -> Option<u32>;
}

/// One DFS stack entry: `vertex` and the slot of the edge currently followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Frame {
    /// Vertex.
    pub vertex: u32,
    /// Slot of the edge being followed (tree edge to the next frame, or the closing edge).
    pub slot: u32,
}

const WHITE: u32 = 0;
const GREY: u32 = 1 << 30;
const BLACK: u32 = 2 << 30;
const COLOR: u32 = 3 << 30;

/// Largest fanout the marks can record.
pub const MAX_FANOUT: u32 = (1 << 30) - 1;

/// Resumable cycle search state (a mark per vertex and an explicit stack).
#[derive(Debug)]
pub struct CycleSearch<'s> {
    color: &'s mut [u32],
    stack: &'s mut [Frame],
    top: usize,
    next_root: u32,
    vertices: u32,
    /// Lowest stack position whose followed edge was reported removed.
    dirty: usize,
}

impl<'s> CycleSearch<'s> {
    /// A fresh search over `vertices` vertices; `marks` and `stack` need `vertices` entries.
    pub fn new(
        vertices: u32,
        marks: &'s mut [u32],
        stack: &'s mut [Frame],
    ) -> Result<Self, RoutingError> {
        let color = marks;
        CapacityError::check("cycle search marks", vertices as u64, color.len())?;
        CapacityError::check("cycle search stack", vertices as u64, stack.len())?;
        color[..vertices as usize].fill(WHITE);
        Ok(CycleSearch {
            color,
            stack,
            top: 0,
            next_root: 0,
            vertices,
            dirty: usize::MAX,
        })
    }

    /// Continues the search. Returns `Some(i)` when a cycle was found: the cycle is
    /// `frames()[i..]`, each frame's `slot` leading to the next frame's vertex and the last
    /// one's back to `frames()[i]`. Returns `None` when no (further) cycle exists.
    pub fn next_cycle<G: DependencyGraph + ?Sized>(&mut self, g: &G) -> Option<usize> {
        let fanout = g.fanout().min(MAX_FANOUT);
        loop {
            if self.top == 0 {
                while self.next_root < self.vertices
                    && self
                        .color
                        .get(self.next_root as usize)
                        .is_none_or(|m| m & COLOR != WHITE)
                {
                    self.next_root += 1;
                }
                if self.next_root >= self.vertices {
                    return None;
                }
                let r = self.next_root;
                self.push(r)?;
            }
            let f = *self.stack.get(self.top - 1)?;
            if f.slot >= fanout {
                *self.color.get_mut(f.vertex as usize)? = BLACK;
                self.top -= 1;
                if let Some(parent) = self.top.checked_sub(1).and_then(|i| self.stack.get_mut(i)) {
                    parent.slot += 1;
                }
                continue;
            }
            match g.successor(f.vertex, f.slot) {
                None => self.advance_top(),
                Some(w) => match self.color.get(w as usize).map(|m| m & COLOR) {
                    Some(WHITE) => self.push(w)?,
                    Some(GREY) => {
                        let i = self.color.get(w as usize).map(|m| (m & !COLOR) as usize);
                        return i.filter(|&i| i < self.top);
                    }
                    _ => self.advance_top(),
                },
            }
        }
    }

    fn advance_top(&mut self) {
        if let Some(f) = self.top.checked_sub(1).and_then(|i| self.stack.get_mut(i)) {
            f.slot += 1;
        }
    }

    fn push(&mut self, v: u32) -> Option<()> {
        let m = self.color.get_mut(v as usize)?;
        let slot = *m & !COLOR;
        *m = GREY | (self.top as u32 & !COLOR);
        *self.stack.get_mut(self.top)? = Frame { vertex: v, slot };
        self.top += 1;
        Some(())
    }

    /// The current DFS stack (after [`CycleSearch::next_cycle`] returned `Some(i)`, the
    /// cycle is `frames()[i..]`).
    pub fn frames(&self) -> &[Frame] {
        self.stack.get(..self.top).unwrap_or(&[])
    }

    /// Tells the search that the edge through `slot` of `v` no longer exists.
    pub fn edge_removed(&mut self, v: u32, slot: u32) {
        if let Some(&m) = self.color.get(v as usize) {
            if m & COLOR == GREY {
                let i = (m & !COLOR) as usize;
                if self.stack.get(i).is_some_and(|f| f.slot == slot) {
                    self.dirty = self.dirty.min(i);
                }
            }
        }
    }

    /// Makes the search consistent again when every removed edge was reported through
    /// [`CycleSearch::edge_removed`]: pops the stack above the lowest frame whose followed
    /// edge was removed. Call before the next [`CycleSearch::next_cycle`].
    pub fn resume_after_removals(&mut self) {
        if self.dirty < self.top {
            self.pop_to(self.dirty + 1);
        }
        self.dirty = usize::MAX;
    }

    fn pop_to(&mut self, keep: usize) {
        while self.top > keep {
            self.top -= 1;
            if let Some(f) = self.stack.get(self.top) {
                if let Some(c) = self.color.get_mut(f.vertex as usize) {
                    *c = WHITE | (f.slot & !COLOR);
                }
            }
        }
    }

    /// Makes the search consistent again after edges were removed from the graph: pops the
    /// stack down to the lowest frame whose followed edge no longer exists (popped vertices
    /// become unvisited again, remembering their slot progress). Call before the next
    /// [`CycleSearch::next_cycle`].
    pub fn resume<G: DependencyGraph + ?Sized>(&mut self, g: &G) {
        let mut keep = self.top;
        for (i, f) in self.stack[..self.top].iter().enumerate() {
            if g.successor(f.vertex, f.slot).is_none() {
                keep = i + 1;
                break;
            }
        }
        self.pop_to(keep);
        self.dirty = usize::MAX;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// Adjacency-list graph with removable edges for tests.
    struct Adj {
        succ: Vec<Vec<Option<u32>>>,
        fanout: u32,
    }

    impl DependencyGraph for Adj {
        fn num_vertices(&self) -> u32 {
            self.succ.len() as u32
        }
        fn fanout(&self) -> u32 {
            self.fanout
        }
        fn successor(&self, v: u32, slot: u32) -> Option<u32> {
            self.succ[v as usize].get(slot as usize).copied().flatten()
        }
    }

    fn graph(n: usize, edges: &[(u32, u32)]) -> Adj {
        let mut succ = vec![Vec::new(); n];
        for &(a, b) in edges {
            succ[a as usize].push(Some(b));
        }
        let fanout = succ.iter().map(|s| s.len()).max().unwrap_or(0) as u32;
        Adj { succ, fanout }
    }

    fn is_real_cycle(g: &Adj, cyc: &[Frame]) -> bool {
        (0..cyc.len()).all(|k| {
            g.successor(cyc[k].vertex, cyc[k].slot) == Some(cyc[(k + 1) % cyc.len()].vertex)
        })
    }

    #[test]
    fn dag_has_no_cycle() {
        let g = graph(5, &[(0, 1), (1, 2), (0, 2), (3, 4), (2, 4)]);
        let (mut c, mut s) = (vec![0u32; 5], vec![Frame::default(); 5]);
        let mut search = CycleSearch::new(5, &mut c, &mut s).unwrap();
        assert_eq!(search.next_cycle(&g), None);
    }

    #[test]
    fn finds_and_breaks_cycles_one_by_one() {
        // Two cycles: 0->1->2->0 and 3->4->3, plus a self loop on 5.
        let mut g = graph(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 3), (5, 5)]);
        let (mut c, mut s) = (vec![0u32; 6], vec![Frame::default(); 6]);
        let mut search = CycleSearch::new(6, &mut c, &mut s).unwrap();
        let mut found = 0;
        while let Some(i) = search.next_cycle(&g) {
            let cyc: Vec<Frame> = search.frames()[i..].to_vec();
            assert!(is_real_cycle(&g, &cyc), "{cyc:?}");
            // Break the cycle at its first edge.
            let f = cyc[0];
            g.succ[f.vertex as usize][f.slot as usize] = None;
            search.resume(&g);
            found += 1;
            assert!(found < 10);
        }
        assert_eq!(found, 3);
    }

    #[test]
    fn reported_removals_resume_like_a_full_scan() {
        // Cycle 0->1->2->3->0 with a chord 1->3; removing the tree edge 1->2 must pop 2 and
        // 3, after which the cycle 0->1->3->0 is found.
        let mut g = graph(4, &[(0, 1), (1, 2), (1, 3), (2, 3), (3, 0)]);
        let (mut c, mut s) = (vec![0u32; 4], vec![Frame::default(); 4]);
        let mut search = CycleSearch::new(4, &mut c, &mut s).unwrap();
        let i = search.next_cycle(&g).unwrap();
        let verts: Vec<u32> = search.frames()[i..].iter().map(|f| f.vertex).collect();
        assert_eq!(verts, [0, 1, 2, 3]);
        g.succ[1][0] = None;
        search.edge_removed(1, 0);
        search.resume_after_removals();
        let i = search.next_cycle(&g).unwrap();
        let cyc: Vec<Frame> = search.frames()[i..].to_vec();
        assert!(is_real_cycle(&g, &cyc));
        let verts: Vec<u32> = cyc.iter().map(|f| f.vertex).collect();
        assert_eq!(verts, [0, 1, 3]);
        g.succ[3][0] = None;
        search.edge_removed(3, 0);
        search.resume_after_removals();
        assert_eq!(search.next_cycle(&g), None);
    }
}
