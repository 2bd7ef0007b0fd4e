//! `jumpnet` command-line entry point: a thin wrapper over the `jumpnet` library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = jumpnet::commands::Cli::parse();
    match jumpnet::commands::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
