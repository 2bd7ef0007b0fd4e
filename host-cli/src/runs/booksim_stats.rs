//! A synthetic run's statistics as BookSim2 prints them (`jumpnet sim --format booksim`,
//! docs/booksim.md §1): the lines of BookSim2's final "Overall Traffic Statistics" block
//! that scripts written for BookSim2 parse, with BookSim2's units and hop definition.

use crate::runs::synthetic::SimReport;
use crate::sim::engine::stats::ClassStats;

/// The BookSim2 statistics block of `report`: `Time taken is … cycles`, then packet, network
/// and flit latency averages, injected and accepted packet and flit rates (per node and
/// cycle), packet sizes and hops as BookSim2 counts them (routers traversed, jumpnet's
/// router-to-router hops + 1). jumpnet's own hop count follows on a line BookSim2 does not
/// have; a BookSim2 batch run ends with the minimum, mean and maximum batch duration. A run
/// BookSim2's stopping rule calls unstable ([`SimResult::unstable`]) prints only
/// `Simulation unstable, ending ...`, as BookSim2 does; one that is only past saturation
/// (accepted below offered, as a throughput-mode run past saturation) prints its statistics.
///
/// [`SimResult::unstable`]: crate::sim::engine::stats::SimResult::unstable
pub fn booksim_block(report: &SimReport) -> String {
    let r = &report.result;
    let mut s = String::new();
    let mut line = |text: String| {
        s.push_str(&text);
        s.push('\n');
    };
    if r.unstable {
        // BookSim2 stops there (`TrafficManager::Run` returns after `_SingleSim` fails):
        // no `Time taken`, no statistics block, so no script reads a latency from it.
        line("Simulation unstable, ending ...".into());
        return s;
    }
    line(format!("Time taken is {} cycles", r.cycles));
    line("====== Overall Traffic Statistics ======".into());
    let own = ClassStats {
        packet_latency: r.packet_latency.clone(),
        network_latency: r.network_latency.clone(),
        flit_latency: r.flit_latency.clone(),
        hops: r.hops.clone(),
        offered: r.offered,
        accepted: r.accepted,
        packet_size: report.config.packet_size,
    };
    // With classes, one section per class, as BookSim2 prints them (it has no section over
    // all classes; docs/booksim.md §3.5).
    let classes = if r.classes.is_empty() {
        std::slice::from_ref(&own)
    } else {
        r.classes.as_slice()
    };
    // Read/write traffic's packets differ in size by kind (docs/booksim.md §3.6): its
    // packet rates and sizes use the mean size of the packets delivered.
    let rw_size = (report.config.extras.read_write.is_some() && r.packets_delivered > 0)
        .then(|| r.flits_delivered as f64 / r.packets_delivered as f64);
    for (c, stats) in classes.iter().enumerate() {
        line(format!("====== Traffic class {c} ======"));
        let size = rw_size.unwrap_or(f64::from(stats.packet_size));
        class_section(&mut line, stats, size);
    }
    if let Some(b) = &r.batch_time {
        // BookSim2's batch mode labels all three lines "min" (BookSim2 28f4329,
        // `BatchTrafficManager::DisplayOverallStats`); scripts match them in this order.
        for v in [g(b.min as f64), g(b.mean), g(b.max as f64)] {
            line(format!("Overall min batch duration = {v} (1 samples)"));
        }
    }
    s
}

/// The lines of one class's section: latencies, rates, sizes (packets of `size` flits) and
/// hops.
fn class_section(line: &mut impl FnMut(String), r: &ClassStats, size: f64) {
    for (name, stats) in [
        ("Packet latency", &r.packet_latency),
        ("Network latency", &r.network_latency),
        ("Flit latency", &r.flit_latency),
    ] {
        line(format!("{name} average = {} (1 samples)", g(stats.mean)));
        line(format!("\tmaximum = {} (1 samples)", stats.max));
    }
    line("Fragmentation average = 0 (1 samples)".into());
    line(format!(
        "Injected packet rate average = {} (1 samples)",
        g(r.offered / size)
    ));
    line(format!(
        "Accepted packet rate average = {} (1 samples)",
        g(r.accepted / size)
    ));
    line(format!(
        "Injected flit rate average = {} (1 samples)",
        g(r.offered)
    ));
    line(format!(
        "Accepted flit rate average = {} (1 samples)",
        g(r.accepted)
    ));
    line(format!(
        "Injected packet size average = {} (1 samples)",
        g(size)
    ));
    line(format!(
        "Accepted packet size average = {} (1 samples)",
        g(size)
    ));
    line(format!(
        "Hops average = {} (1 samples)",
        g(r.hops.mean + 1.0)
    ));
    line(format!(
        "jumpnet router-to-router hops average = {}",
        g(r.hops.mean)
    ));
}

/// `x` as C++'s default `ostream` prints a double (6 significant digits, no trailing zeros).
fn g(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = 6 - 1 - x.abs().log10().floor() as i32;
    let s = format!("{:.*}", digits.max(0) as usize, x);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::g;

    #[test]
    fn numbers_print_as_cpp_streams_do() {
        // The spellings BookSim2 printed in tests/data/booksim/results.json's runs.
        assert_eq!(g(33.6559), "33.6559");
        assert_eq!(g(0.150281), "0.150281");
        assert_eq!(g(4.99504), "4.99504");
        assert_eq!(g(1.0), "1");
        assert_eq!(g(0.0009375), "0.0009375");
        assert_eq!(g(119.5512), "119.551");
    }
}
