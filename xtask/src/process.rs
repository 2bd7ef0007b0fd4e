//! Running external commands: echo them, inherit stdio, turn failures into messages.

use std::ffi::OsStr;
use std::process::{Command, Stdio};

/// Error of a step: a message for the user.
pub type Result<T = ()> = std::result::Result<T, String>;

/// The cargo that runs this xtask (`$CARGO`), or `cargo` from `PATH`.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn describe(cmd: &Command) -> String {
    let mut text = String::new();
    for (key, value) in cmd.get_envs() {
        if let Some(value) = value {
            text.push_str(&format!(
                "{}={} ",
                key.to_string_lossy(),
                value.to_string_lossy()
            ));
        }
    }
    let program = cmd.get_program().to_string_lossy();
    text.push_str(program.rsplit('/').next().unwrap_or(&program));
    for arg in cmd.get_args() {
        let arg = arg.to_string_lossy();
        if arg.contains(' ') || arg.contains('(') {
            text.push_str(&format!(" '{arg}'"));
        } else {
            text.push(' ');
            text.push_str(&arg);
        }
    }
    text
}

/// Runs `cmd` with inherited stdio after echoing it; fails on a non-zero exit.
pub fn run(mut cmd: Command) -> Result {
    let text = describe(&cmd);
    println!("$ {text}");
    let status = cmd
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run `{text}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{text}` failed ({status})"))
    }
}

/// Runs `cmd` quietly and returns its stdout, or `None` if it cannot start or fails.
pub fn output(mut cmd: Command) -> Option<String> {
    let out = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Whether `program` can be started (looked up in `PATH`).
pub fn exists(program: impl AsRef<OsStr>) -> bool {
    let program = program.as_ref();
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| {
            let p = dir.join(program);
            p.is_file()
        })
    })
}
