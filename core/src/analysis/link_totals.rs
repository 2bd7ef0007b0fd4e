//! Link traversals per [`LinkClass`] (docs/collectives.md §6 "link-utilisation", [DF-BC]
//! §III-E; docs/routing.md §8 conventions).
//!
//! One counter per class: terminal, local, global, up, down, shortcut and every dimension
//! `Dim(0..=255)`. Router classes are counted once per channel a message crosses. Terminal
//! links follow the [DF-BC] convention: **2 per message whose source and destination
//! terminals differ** (injection and ejection, even between two terminals of one switch);
//! a message between two ranks on the same terminal never enters the network and counts 0.

use crate::topology::LinkClass;

/// Number of dimension classes `Dim(0) ..= Dim(255)`.
const DIMS: usize = 256;

/// Link traversals by class (the totals of a schedule under a placement and routing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LinkTotals {
    /// Terminal links (2 per message between distinct terminals).
    pub terminal: u64,
    /// Local links (Dragonfly intra-group, ring links of a random shortcut graph, …).
    pub local: u64,
    /// Global links (Dragonfly inter-group, …).
    pub global: u64,
    /// Fat-tree up links.
    pub up: u64,
    /// Fat-tree down links.
    pub down: u64,
    /// Random shortcut links.
    pub shortcut: u64,
    /// Links of dimension / jump index `i` (`dims[i]` for [`LinkClass::Dim`]`(i)`).
    pub dims: [u64; DIMS],
}

impl Default for LinkTotals {
    fn default() -> Self {
        LinkTotals {
            terminal: 0,
            local: 0,
            global: 0,
            up: 0,
            down: 0,
            shortcut: 0,
            dims: [0; DIMS],
        }
    }
}

impl LinkTotals {
    /// Adds `count` traversals of a link of `class`.
    #[inline]
    pub fn add(&mut self, class: LinkClass, count: u64) {
        *self.slot(class) += count;
    }

    /// Traversals of links of `class`.
    pub fn get(&self, class: LinkClass) -> u64 {
        match class {
            LinkClass::Terminal => self.terminal,
            LinkClass::Local => self.local,
            LinkClass::Global => self.global,
            LinkClass::Up => self.up,
            LinkClass::Down => self.down,
            LinkClass::Shortcut => self.shortcut,
            LinkClass::Dim(i) => self.dims[i as usize],
        }
    }

    /// Switch-to-switch traversals (every class but [`LinkClass::Terminal`]): the \[DISS\]
    /// total hop count (docs/routing.md §8).
    pub fn router_links(&self) -> u64 {
        self.local
            + self.global
            + self.up
            + self.down
            + self.shortcut
            + self.dims.iter().sum::<u64>()
    }

    /// All traversals, terminal links included.
    pub fn total(&self) -> u64 {
        self.terminal + self.router_links()
    }

    /// Calls `f(class, count)` for every class with a non-zero count: terminal, local,
    /// global, up, down, shortcut, then dimensions in ascending index.
    pub fn for_each_nonzero<F: FnMut(LinkClass, u64)>(&self, mut f: F) {
        let fixed = [
            (LinkClass::Terminal, self.terminal),
            (LinkClass::Local, self.local),
            (LinkClass::Global, self.global),
            (LinkClass::Up, self.up),
            (LinkClass::Down, self.down),
            (LinkClass::Shortcut, self.shortcut),
        ];
        for (c, v) in fixed {
            if v != 0 {
                f(c, v);
            }
        }
        for (i, &v) in self.dims.iter().enumerate() {
            if v != 0 {
                f(LinkClass::Dim(i as u8), v);
            }
        }
    }

    fn slot(&mut self, class: LinkClass) -> &mut u64 {
        match class {
            LinkClass::Terminal => &mut self.terminal,
            LinkClass::Local => &mut self.local,
            LinkClass::Global => &mut self.global,
            LinkClass::Up => &mut self.up,
            LinkClass::Down => &mut self.down,
            LinkClass::Shortcut => &mut self.shortcut,
            LinkClass::Dim(i) => &mut self.dims[i as usize],
        }
    }
}

impl core::ops::AddAssign for LinkTotals {
    fn add_assign(&mut self, o: LinkTotals) {
        self.terminal += o.terminal;
        self.local += o.local;
        self.global += o.global;
        self.up += o.up;
        self.down += o.down;
        self.shortcut += o.shortcut;
        for (a, b) in self.dims.iter_mut().zip(o.dims.iter()) {
            *a += b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_land_in_their_own_counter() {
        let mut t = LinkTotals::default();
        t.add(LinkClass::Terminal, 2);
        t.add(LinkClass::Local, 3);
        t.add(LinkClass::Global, 5);
        t.add(LinkClass::Dim(0), 7);
        t.add(LinkClass::Dim(255), 11);
        t.add(LinkClass::Shortcut, 13);
        assert_eq!(t.get(LinkClass::Dim(255)), 11);
        assert_eq!(t.get(LinkClass::Up), 0);
        assert_eq!(t.router_links(), 3 + 5 + 7 + 11 + 13);
        assert_eq!(t.total(), 2 + 3 + 5 + 7 + 11 + 13);
        let mut seen = std::vec::Vec::new();
        t.for_each_nonzero(|c, v| seen.push((c, v)));
        assert_eq!(
            seen,
            [
                (LinkClass::Terminal, 2),
                (LinkClass::Local, 3),
                (LinkClass::Global, 5),
                (LinkClass::Shortcut, 13),
                (LinkClass::Dim(0), 7),
                (LinkClass::Dim(255), 11),
            ]
        );
        let mut u = t;
        u += t;
        assert_eq!(u.total(), 2 * t.total());
    }
}
