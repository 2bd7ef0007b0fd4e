//! Small self-contained SVG charts (grouped bars, multi-series lines) for reports: plain
//! SVG with text elements, no fonts or native libraries needed, identical on every machine.

use std::fmt::Write as _;

const PALETTE: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A "nice" axis maximum ≥ `v` (1, 2, 2.5 or 5 times a power of ten) and its tick step.
fn nice_max(v: f64) -> (f64, f64) {
    if v <= 0.0 {
        return (1.0, 0.25);
    }
    let p = 10f64.powf(v.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if m * p >= v {
            let top = m * p;
            return (top, top / 5.0);
        }
    }
    (10.0 * p, 2.0 * p)
}

fn fmt_num(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if v >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// The plot area of a chart: document size and the margins around the plotting rectangle.
#[derive(Debug, Clone, Copy)]
struct Plot {
    w: f64,
    h: f64,
    left: f64,
    top: f64,
    /// Width and height of the plotting rectangle.
    pw: f64,
    ph: f64,
}

impl Plot {
    fn new(w: f64, h: f64, left: f64, right: f64, top: f64, bottom: f64) -> Self {
        Plot {
            w,
            h,
            left,
            top,
            pw: w - left - right,
            ph: h - top - bottom,
        }
    }

    /// Screen y of value `v` on an axis from 0 to `ymax`.
    fn y(&self, v: f64, ymax: f64) -> f64 {
        self.top + self.ph - v / ymax * self.ph
    }

    /// Opens the SVG document: white background and the centred title.
    fn open(&self, s: &mut String, title: &str) {
        let (w, h) = (self.w, self.h);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="28" text-anchor="middle" font-size="16">{}</text>"#,
            self.left + self.pw / 2.0,
            esc(title)
        );
    }

    /// Horizontal grid lines with their value labels every `step` from 0 to `ymax`.
    fn y_grid(&self, s: &mut String, ymax: f64, step: f64) {
        let left = self.left;
        let mut t = 0.0;
        while t <= ymax + 1e-9 {
            let y = self.y(t, ymax);
            let _ = writeln!(
                s,
                r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                left + self.pw,
                left - 6.0,
                y + 4.0,
                fmt_num(t)
            );
            t += step;
        }
    }
}

/// A grouped bar chart: one group per category, one bar per series.
#[derive(Debug, Clone)]
pub struct BarChart {
    /// Title.
    pub title: String,
    /// Y-axis label.
    pub y_label: String,
    /// Category (group) names.
    pub categories: Vec<String>,
    /// `(series name, one value per category)`.
    pub series: Vec<(String, Vec<f64>)>,
}

impl BarChart {
    /// Renders the chart as an SVG document.
    pub fn render(&self) -> String {
        let (w, h) = (900.0, 440.0);
        let (left, right, top, bottom) = (80.0, 170.0, 50.0, 70.0);
        let plot = Plot::new(w, h, left, right, top, bottom);
        let (pw, ph) = (plot.pw, plot.ph);
        let vmax = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .fold(0.0f64, f64::max);
        let (ymax, step) = nice_max(vmax);
        let mut s = String::new();
        plot.open(&mut s, &self.title);
        plot.y_grid(&mut s, ymax, step);
        let _ = writeln!(
            s,
            r#"<text transform="translate(18,{:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
            top + ph / 2.0,
            esc(&self.y_label)
        );
        let groups = self.categories.len().max(1) as f64;
        let gw = pw / groups;
        let nser = self.series.len().max(1) as f64;
        let bw = gw * 0.8 / nser;
        for (gi, cat) in self.categories.iter().enumerate() {
            let gx = left + gi as f64 * gw;
            for (si, (_, vals)) in self.series.iter().enumerate() {
                let v = vals.get(gi).copied().unwrap_or(0.0);
                let bh = v / ymax * ph;
                let x = gx + gw * 0.1 + si as f64 * bw;
                let _ = writeln!(
                    s,
                    r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="{}"><title>{}: {}</title></rect>"#,
                    top + ph - bh,
                    (bw - 1.0).max(1.0),
                    PALETTE[si % PALETTE.len()],
                    esc(cat),
                    fmt_num(v)
                );
            }
            // Category labels wrap onto two lines at the first space after the middle.
            let (l1, l2) = split_label(cat);
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}<tspan x="{:.1}" dy="15">{}</tspan></text>"#,
                gx + gw / 2.0,
                top + ph + 20.0,
                esc(l1),
                gx + gw / 2.0,
                esc(l2)
            );
        }
        legend(
            &mut s,
            self.series.iter().map(|(n, _)| n.as_str()),
            w - right + 15.0,
            top,
        );
        let _ = writeln!(
            s,
            r#"<line x1="{left}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black"/></svg>"#,
            top + ph,
            left + pw,
            top + ph
        );
        s
    }
}

/// Splits a label at the first space at or after its middle (else the last space).
fn split_label(s: &str) -> (&str, &str) {
    let mid = s.len() / 2;
    let after_mid = s.char_indices().find(|&(i, c)| i >= mid && c == ' ');
    match after_mid.map(|(i, _)| i).or_else(|| s.rfind(' ')) {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, ""),
    }
}

fn legend<'a>(s: &mut String, names: impl Iterator<Item = &'a str>, x: f64, y: f64) {
    for (i, n) in names.enumerate() {
        let yy = y + i as f64 * 20.0;
        let _ = writeln!(
            s,
            r#"<rect x="{x:.1}" y="{yy:.1}" width="12" height="12" fill="{}"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            PALETTE[i % PALETTE.len()],
            x + 18.0,
            yy + 10.0,
            esc(n)
        );
    }
}

/// A line chart of several series over integer x values.
#[derive(Debug, Clone)]
pub struct LineChart {
    /// Title.
    pub title: String,
    /// X-axis label.
    pub x_label: String,
    /// Y-axis label.
    pub y_label: String,
    /// `(series name, points (x, y))`.
    pub series: Vec<(String, Vec<(f64, f64)>)>,
}

impl LineChart {
    /// Renders the chart as an SVG document.
    pub fn render(&self) -> String {
        let (w, h) = (900.0, 440.0);
        let (left, right, top, bottom) = (80.0, 190.0, 50.0, 60.0);
        let plot = Plot::new(w, h, left, right, top, bottom);
        let (pw, ph) = (plot.pw, plot.ph);
        let pts = || self.series.iter().flat_map(|(_, p)| p.iter().copied());
        let xmax = pts().map(|p| p.0).fold(0.0f64, f64::max).max(1.0);
        let xmin = pts().map(|p| p.0).fold(f64::INFINITY, f64::min).min(xmax);
        let (ymax, step) = nice_max(pts().map(|p| p.1).fold(0.0f64, f64::max));
        let sx = |x: f64| {
            left + if xmax > xmin {
                (x - xmin) / (xmax - xmin) * pw
            } else {
                0.0
            }
        };
        let sy = |y: f64| plot.y(y, ymax);
        let mut s = String::new();
        plot.open(&mut s, &self.title);
        plot.y_grid(&mut s, ymax, step);
        let xs: Vec<f64> = {
            let mut v: Vec<f64> = pts().map(|p| p.0).collect();
            v.sort_by(|a, b| a.total_cmp(b));
            v.dedup();
            v
        };
        // Integer x values are all labelled (up to 40); fractional ones (e.g. injection
        // rates) at most 12, evenly spread.
        let labelled: Vec<f64> = if xs.iter().all(|x| x.fract() == 0.0) {
            xs.iter().copied().take(40).collect()
        } else {
            xs.iter()
                .copied()
                .step_by(xs.len().div_ceil(12).max(1))
                .collect()
        };
        for x in labelled {
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                sx(x),
                top + ph + 18.0,
                fmt_num(x)
            );
        }
        for (i, (_, p)) in self.series.iter().enumerate() {
            let path: Vec<String> = p
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
                .collect();
            let _ = writeln!(
                s,
                r#"<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>"#,
                PALETTE[i % PALETTE.len()],
                path.join(" ")
            );
            for &(x, y) in p {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{}"/>"#,
                    sx(x),
                    sy(y),
                    PALETTE[i % PALETTE.len()]
                );
            }
        }
        legend(
            &mut s,
            self.series.iter().map(|(n, _)| n.as_str()),
            w - right + 15.0,
            top,
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            left + pw / 2.0,
            h - 15.0,
            esc(&self.x_label)
        );
        let _ = writeln!(
            s,
            r#"<text transform="translate(18,{:.1}) rotate(-90)" text-anchor="middle">{}</text></svg>"#,
            top + ph / 2.0,
            esc(&self.y_label)
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_split_at_a_space_after_the_middle_even_inside_multibyte_text() {
        assert_eq!(split_label("ring consecutive"), ("ring", "consecutive"));
        assert_eq!(split_label("two opt mapping"), ("two opt", "mapping"));
        // The middle byte falls inside a `×`.
        assert_eq!(split_label("ab××× c"), ("ab×××", "c"));
        assert_eq!(split_label("×××××"), ("×××××", ""));
    }

    #[test]
    fn bar_chart_has_one_rect_per_value() {
        let c = BarChart {
            title: "t <1>".into(),
            y_label: "hops".into(),
            categories: vec!["a".into(), "b".into()],
            series: vec![("x".into(), vec![1.0, 2.0]), ("y".into(), vec![3.0, 4.0])],
        };
        let svg = c.render();
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<title>").count(), 4);
        assert!(svg.contains("t &lt;1&gt;"));
    }

    #[test]
    fn labels_wrap_at_a_space() {
        assert_eq!(
            split_label("random shortcut d=19"),
            ("random shortcut", "d=19")
        );
        assert_eq!(split_label("ring"), ("ring", ""));
    }

    #[test]
    fn nice_axis() {
        assert_eq!(nice_max(7.0), (10.0, 2.0));
        assert_eq!(nice_max(1023.0), (2000.0, 400.0));
        assert_eq!(nice_max(0.0), (1.0, 0.25));
    }

    #[test]
    fn line_chart_draws_every_series() {
        let c = LineChart {
            title: "d".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![
                ("s1".into(), vec![(1.0, 2.0), (2.0, 5.0)]),
                ("s2".into(), vec![(1.0, 1.0)]),
            ],
        };
        let svg = c.render();
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 3);
    }
}
