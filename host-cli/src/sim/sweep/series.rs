//! What the outputs of every sweep kind share ([`super::SweepResult`],
//! [`super::collective::CollectiveSweepResult`]): a record's series name, the lines of a
//! chart and the leading columns of a table.

use super::axis::Axis;
use super::record::SweepRecord;

/// A series' name: the settings other than the x axis as `key=value`, space-separated, or
/// `fallback` (the routing) when the x axis is the only axis.
pub(crate) fn series_name(settings: &[(String, String)], x_key: &str, fallback: &str) -> String {
    let s: Vec<String> = settings
        .iter()
        .filter(|(k, _)| k != x_key)
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if s.is_empty() {
        fallback.to_string()
    } else {
        s.join(" ")
    }
}

/// A chart's lines: one per series in order of first appearance, named by `name` of its
/// first record, holding `xy` of each of its records in record order.
pub(crate) fn chart_lines<R: SweepRecord>(
    records: &[R],
    name: impl Fn(&R) -> String,
    xy: impl Fn(&R) -> (f64, f64),
) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    let mut ids: Vec<u32> = Vec::new();
    for r in records {
        let i = match ids.iter().position(|&s| s == r.series()) {
            Some(i) => i,
            None => {
                ids.push(r.series());
                series.push((name(r), Vec::new()));
                ids.len() - 1
            }
        };
        series[i].1.push(xy(r));
    }
    series
}

/// A table's headers: `point`, the key of every axis, then `rest`.
pub(crate) fn headers<'a>(axes: &'a [Axis], rest: &[&'a str]) -> Vec<&'a str> {
    let mut headers: Vec<&str> = vec!["point"];
    headers.extend(axes.iter().map(|a| a.key.as_str()));
    headers.extend(rest);
    headers
}
