//! Running child processes from the workspace root, with the project's local
//! tools (cargo's bin folder, node_modules/.bin) first on PATH.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

/// The workspace root: xtask lives one folder below it.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Where cargo builds: `CARGO_TARGET_DIR` (relative to the workspace root)
/// when it is set, else the workspace's `target/`.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root().join(dir),
        _ => root().join("target"),
    }
}

/// PATH with the project's local tool folders in front.
pub fn tool_path() -> String {
    let mut dirs = vec![root().join("node_modules/.bin")];
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        dirs.push(PathBuf::from(home).join("bin"));
    } else if let Some(home) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(home).join(".cargo/bin"));
    }
    let current = std::env::var_os("PATH").unwrap_or_default();
    dirs.extend(std::env::split_paths(&current));
    std::env::join_paths(dirs)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A command that runs in the workspace root with [`tool_path`].
pub fn cmd(program: &str) -> Command {
    let mut command = Command::new(program);
    command.current_dir(root()).env("PATH", tool_path());
    command
}

fn describe(command: &Command) -> String {
    let args: Vec<String> = command
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    format!(
        "{} {}",
        command.get_program().to_string_lossy(),
        args.join(" ")
    )
}

/// Runs a command to completion, failing with its command line if it fails.
pub fn run(command: &mut Command) -> Result<(), String> {
    let line = describe(command);
    eprintln!("\n==> {line}");
    let status = command
        .status()
        .map_err(|e| format!("could not start `{line}`: {e}"))?;
    finished(&line, status)
}

/// A finished command's status as a result naming its command line.
fn finished(line: &str, status: ExitStatus) -> Result<(), String> {
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{line}` failed ({status})"))
    }
}

/// [`run`], also returning everything the command printed (standard output
/// and error, each echoed as it arrives).
pub fn run_echoed(command: &mut Command) -> Result<(Result<(), String>, String), String> {
    let line = describe(command);
    eprintln!("\n==> {line}");
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start `{line}`: {e}"))?;
    let echo = |stream: Option<Box<dyn Read + Send>>, to_stderr: bool| {
        std::thread::spawn(move || {
            let mut kept = String::new();
            for text in BufReader::new(stream.expect("piped"))
                .lines()
                .map_while(Result::ok)
            {
                if to_stderr {
                    eprintln!("{text}");
                } else {
                    println!("{text}");
                }
                kept.push_str(&text);
                kept.push('\n');
            }
            kept
        })
    };
    let out = echo(child.stdout.take().map(|s| Box::new(s) as _), false);
    let err = echo(child.stderr.take().map(|s| Box::new(s) as _), true);
    let status = child
        .wait()
        .map_err(|e| format!("could not wait for `{line}`: {e}"))?;
    let printed = [out, err]
        .into_iter()
        .map(|thread| thread.join().unwrap_or_default())
        .collect();
    Ok((finished(&line, status), printed))
}

/// Runs a command and returns its standard output, or None if it cannot run or fails.
pub fn output(command: &mut Command) -> Option<String> {
    let out = command.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}
