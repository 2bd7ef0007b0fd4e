//! Sweep planning: the points of the cartesian product of the axes, and shards of them.

use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};

use super::axis::Axis;
use crate::sim::config::SimConfig;

/// One point of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Number of the point (series-major, x-minor).
    pub index: u32,
    /// Series (combination of the non-x axes' values).
    pub series: u32,
    /// Position along the x axis.
    pub x_index: u32,
    /// `(key, value)` of every axis, in axis order.
    pub settings: Vec<(String, String)>,
}

/// The points of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Axes as given.
    pub axes: Vec<Axis>,
    /// Index into `axes` of the x axis.
    pub x_axis: usize,
    /// Every point.
    pub points: Vec<Point>,
}

impl Plan {
    /// Plans the cartesian product of `axes` (at least one; keys distinct).
    pub fn new(axes: Vec<Axis>) -> Result<Plan> {
        if axes.is_empty() {
            bail!("nothing to sweep: give at least one key=a:b:step or key=v1,v2,... (e.g. rate=0.02:0.5:0.04)");
        }
        for (i, a) in axes.iter().enumerate() {
            if axes[..i].iter().any(|b| b.key == a.key) {
                bail!("{} is swept twice", a.key);
            }
        }
        let total = axes
            .iter()
            .try_fold(1u64, |n, a| n.checked_mul(a.values.len() as u64))
            .filter(|&n| n <= 1_000_000)
            .ok_or_else(|| anyhow!("the sweep has more than 1000000 points"))?;
        let x_axis = axes
            .iter()
            .position(|a| a.key == "injection_rate")
            .unwrap_or(0);
        let nx = axes[x_axis].values.len() as u64;
        let others: Vec<usize> = (0..axes.len()).filter(|&i| i != x_axis).collect();
        let mut points = Vec::with_capacity(total as usize);
        for index in 0..total {
            let (series, xi) = (index / nx, index % nx);
            // Mixed-radix digits of `series` over the other axes, first axis most significant.
            let mut rest = series;
            let mut digit = vec![0usize; axes.len()];
            for &i in others.iter().rev() {
                let len = axes[i].values.len() as u64;
                digit[i] = (rest % len) as usize;
                rest /= len;
            }
            digit[x_axis] = xi as usize;
            points.push(Point {
                index: index as u32,
                series: series as u32,
                x_index: xi as u32,
                settings: axes
                    .iter()
                    .zip(&digit)
                    .map(|(a, &d)| (a.key.clone(), a.values[d].clone()))
                    .collect(),
            });
        }
        Ok(Plan {
            axes,
            x_axis,
            points,
        })
    }

    /// The configuration of `point`: `base` with the point's settings.
    pub fn config(&self, base: &SimConfig, point: &Point) -> Result<SimConfig> {
        let mut c = base.clone();
        for (k, v) in &point.settings {
            c.set(k, v)?;
        }
        Ok(c)
    }

    /// The points of `shard` (all points without one).
    pub fn select(&self, shard: Option<Shard>) -> Vec<&Point> {
        self.points
            .iter()
            .filter(|p| shard.is_none_or(|s| p.index % s.count == s.index))
            .collect()
    }
}

/// A shard `index/count` of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Parses `i/N` with `0 <= i < N`.
    fn from_str(s: &str) -> Result<Self, String> {
        let err = || format!("'{s}' is not a shard i/N with 0 <= i < N (e.g. 0/4 … 3/4)");
        let (i, n) = s.split_once('/').ok_or_else(err)?;
        let (index, count): (u32, u32) = (
            i.trim().parse().map_err(|_| err())?,
            n.trim().parse().map_err(|_| err())?,
        );
        if count == 0 || index >= count {
            return Err(err());
        }
        Ok(Shard { index, count })
    }
}
