//! The project's commands, run as `cargo xtask <command>`:
//!
//! - `serve [--dev]`: installs what is missing, then builds the release bundle
//!   (what learners get) and serves it on http://127.0.0.1:8080, rebuilding on
//!   changes; `--dev` serves the fast debug build instead;
//! - `dist [--out DIR]`: builds the release bundle a teacher deploys into
//!   `dist/` (or DIR);
//! - `test`: installs what is missing, then runs every check and test tier;
//! - `golden`: rewrites the golden files the tests compare with, from the
//!   native computation (after a deliberate change of the numbers);
//! - `bench`: prints the release bundle's size against the budget, the input
//!   latency, the core's native throughput and the training speed.

mod bench;
mod dist;
mod sh;
mod test;
mod tools;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <serve [--dev] | dist [--out DIR] | test | golden | bench>";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args[..] {
        ["serve"] => serve(false),
        ["serve", "--dev"] => serve(true),
        ["dist"] => deploy_bundle(Path::new(dist::DEFAULT_OUT)),
        ["dist", "--out", out] => deploy_bundle(&from_here(out)),
        ["test"] => test::run_all(),
        ["golden"] => test::write_golden_files(),
        ["bench"] => bench::run(),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `path` as the user meant it: relative to the folder the command was run in.
fn from_here(path: &str) -> PathBuf {
    std::env::current_dir()
        .map(|here| here.join(path))
        .unwrap_or_else(|_| PathBuf::from(path))
}

fn deploy_bundle(out: &Path) -> Result<(), String> {
    let (folder, _) = dist::build_release(out)?;
    eprintln!(
        "\nxtask: the release bundle is in {}: copy the whole folder to any static \
         file server, under any sub-path (README: Deploy)",
        folder.display()
    );
    Ok(())
}

/// Serves the release bundle, built the way `dist` builds it, or with `dev`
/// the debug build, which compiles in seconds rather than minutes.
fn serve(dev: bool) -> Result<(), String> {
    let mut trunk = if dev {
        tools::ensure_build_tools()?;
        sh::cmd("trunk")
    } else {
        let (_, std) = dist::build_release(Path::new(dist::DEFAULT_OUT))?;
        dist::with_std(sh::cmd("trunk"), std)
    };
    trunk.args(["serve", "--port", "8080", "--address", "127.0.0.1"]);
    if !dev {
        trunk.arg("--release");
    }
    sh::run(&mut trunk)
}
