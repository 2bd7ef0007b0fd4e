//! BookSim2's `traffic` and `injection_process` values with their arguments
//! (docs/booksim.md §2, §3), read as BookSim2's `TrafficPattern::New` and
//! `InjectionProcess::New` read them: `name(arguments)`, where the arguments are one value or
//! a `{…}` list whose top-level items are the arguments — so `hotspot({0,9})` is hotspot 0
//! with weight 9, and a list of hotspots is written `hotspot({{0,9,18},{2,1}})`.

use anyhow::{anyhow, bail, Result};

use crate::sim::config::{Injection, Pattern, SimConfig};

/// Splits `name(arguments)` into the name and BookSim2's argument list.
pub fn call(value: &str) -> (&str, Vec<String>) {
    match value.split_once('(') {
        None => (value.trim(), Vec::new()),
        Some((name, rest)) => {
            let inner = rest.rsplit_once(')').map_or(rest, |(a, _)| a);
            (name.trim(), items(inner))
        }
    }
}

/// BookSim2's list reading: `{a,b,{c,d}}` gives its top-level items `a`, `b`, `{c,d}`; a
/// value without braces is one item; an empty value none.
pub fn items(s: &str) -> Vec<String> {
    let s = s.trim();
    if s.is_empty() {
        return Vec::new();
    }
    let Some(body) = s.strip_prefix('{') else {
        return vec![s.to_string()];
    };
    let body = body.strip_suffix('}').unwrap_or(body);
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0usize);
    for ch in body.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The integers of a BookSim2 list (or single value) `s`, named `what` in errors.
fn ints(s: &str, what: &str) -> Result<Vec<u32>> {
    items(s)
        .iter()
        .map(|i| {
            i.parse::<u32>()
                .map_err(|_| anyhow!("{what}: '{i}' is not a non-negative integer"))
        })
        .collect()
}

/// Sets `cfg.traffic` (and its hotspot list or dragonfly `k`) from BookSim2's `traffic`
/// value; `k` is BookSim2's `k` key (`bad_dragon`'s default). The other patterns take
/// jumpnet's `traffic=` word of the same name (`word`).
pub fn set_traffic(
    cfg: &mut SimConfig,
    value: &str,
    k: u32,
    word: impl Fn(&str) -> Option<&'static str>,
) -> Result<()> {
    if value.starts_with('{') {
        bail!("traffic = {value}: not a pattern (a list of patterns gives one per traffic class, docs/booksim.md §3.5; a class's item is one pattern)");
    }
    let (name, args) = call(value);
    match name {
        "hotspot" => {
            let nodes = match args.first() {
                Some(a) => ints(a, "hotspot nodes")?,
                None => Vec::new(),
            };
            let mut weights = match args.get(1) {
                Some(a) => ints(a, "hotspot rates")?,
                None => Vec::new(),
            };
            if weights.contains(&0) {
                bail!("traffic = {value}: hotspot rates must be positive");
            }
            let last = weights.last().copied().unwrap_or(1);
            weights.resize(nodes.len(), last);
            cfg.traffic = Pattern::Hotspots;
            cfg.extras.hotspots = nodes.into_iter().zip(weights).collect();
        }
        "bad_dragon" => {
            cfg.traffic = Pattern::BadDragon;
            cfg.extras.bad_dragon_k = match args.first() {
                Some(a) => a
                    .parse()
                    .map_err(|_| anyhow!("traffic = {value}: k '{a}' is not a positive integer"))?,
                None => k,
            };
        }
        _ if !args.is_empty() => bail!(
            "traffic = {value}: jumpnet reads arguments of hotspot and bad_dragon only; \
             {name} takes the network's k and n"
        ),
        _ => {
            let w = word(name).ok_or_else(|| {
                anyhow!(
                    "traffic = {value} is not supported; allowed: {}",
                    super::network::TRAFFIC_ALLOWED
                )
            })?;
            cfg.set("traffic", w)?;
        }
    }
    Ok(())
}

/// BookSim2's `injection_process` value: `bernoulli`, or `on_off` with optional arguments
/// `alpha, beta, r1` replacing `burst_alpha`, `burst_beta`, `burst_r1`.
pub fn set_process(cfg: &mut SimConfig, value: &str) -> Result<()> {
    let (name, args) = call(value);
    match name {
        "bernoulli" if args.is_empty() => cfg.injection = Injection::Bernoulli,
        "on_off" => {
            cfg.injection = Injection::OnOff;
            let e = &mut cfg.extras;
            for (slot, a) in [&mut e.burst_alpha, &mut e.burst_beta, &mut e.burst_r1]
                .into_iter()
                .zip(&args)
            {
                *slot = a
                    .parse()
                    .map_err(|_| anyhow!("injection_process = {value}: '{a}' is not a number"))?;
            }
        }
        _ => bail!("injection_process = {value} is not supported; allowed: bernoulli, on_off"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(w: &str) -> Option<&'static str> {
        (w == "uniform").then_some("uniform")
    }

    #[test]
    fn booksim2s_argument_lists() {
        assert_eq!(call("hotspot"), ("hotspot", vec![]));
        assert_eq!(call("hotspot(5)"), ("hotspot", vec!["5".to_string()]));
        assert_eq!(call("hotspot({0,9})").1, ["0", "9"]);
        assert_eq!(call("hotspot({{0,9,18},{2,1}})").1, ["{0,9,18}", "{2,1}"]);
        let mut c = SimConfig::booksim();
        set_traffic(&mut c, "hotspot({{0,9,18},{2,1}})", 8, word).unwrap();
        assert_eq!(c.extras.hotspots, [(0, 2), (9, 1), (18, 1)]);
        // BookSim2 reads `{0,9}` as two arguments: hotspot 0 with rate 9.
        set_traffic(&mut c, "hotspot({0,9})", 8, word).unwrap();
        assert_eq!(c.extras.hotspots, [(0, 9)]);
        set_traffic(&mut c, "hotspot", 8, word).unwrap();
        assert!(c.extras.hotspots.is_empty());
        set_traffic(&mut c, "bad_dragon", 3, word).unwrap();
        assert_eq!((c.traffic, c.extras.bad_dragon_k), (Pattern::BadDragon, 3));
        set_traffic(&mut c, "bad_dragon({4,1})", 3, word).unwrap();
        assert_eq!(c.extras.bad_dragon_k, 4);
        for bad in [
            "hotspot({{0,1},{0}})",
            "hotspot(-1)",
            "{uniform,bitrev}",
            "tornado(4)",
        ] {
            assert!(set_traffic(&mut c, bad, 8, word).is_err(), "{bad}");
        }
        set_process(&mut c, "on_off({0.1,0.2})").unwrap();
        assert_eq!(c.injection, Injection::OnOff);
        assert_eq!((c.extras.burst_alpha, c.extras.burst_beta), (0.1, 0.2));
        assert!(set_process(&mut c, "poisson").is_err());
    }
}
