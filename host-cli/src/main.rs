//! `jumpnet` command-line entry point: a thin wrapper over the `jumpnet` library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = jumpnet::commands::Cli::parse();
    // Partial outputs and locks are removed when the run is interrupted.
    if let Err(e) = jumpnet::io::cleanup::install() {
        let _ = jumpnet::io::output::eprint_line(&format!("error: {e:#}"));
        return ExitCode::from(2);
    }
    match jumpnet::commands::run(cli) {
        Ok(code) => ExitCode::from(code),
        // A reader that stops early (`jumpnet … | head`) is not an error of jumpnet's.
        Err(e) if jumpnet::io::output::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Best effort: with standard error full or closed there is nowhere left to say
            // it, and the exit status still tells.
            let _ = jumpnet::io::output::eprint_line(&format!("error: {e:#}"));
            ExitCode::from(2)
        }
    }
}
