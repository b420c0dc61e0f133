//! The project's commands, run as `cargo xtask <command>`:
//!
//! - `serve`: installs what is missing, then builds and serves the app on
//!   http://127.0.0.1:8080 (`serve training`: with the training card, a feature);
//! - `test`: installs what is missing, then runs every check and test tier;
//! - `bench`: prints the release bundles' sizes against the budget, the edit
//!   latency, the core's native throughput and the training speed (native and wasm).

mod bench;
mod dist;
mod sh;
mod test;
mod tools;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <serve [training] | test | bench>";

fn main() -> ExitCode {
    let command = std::env::args().nth(1).unwrap_or_default();
    let result = match command.as_str() {
        "serve" => serve(std::env::args().nth(2).as_deref() == Some("training")),
        "test" => test::run_all(),
        "bench" => bench::run(),
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

fn serve(training: bool) -> Result<(), String> {
    tools::ensure_build_tools()?;
    let mut trunk = sh::cmd("trunk");
    trunk.args(["serve", "--port", "8080", "--address", "127.0.0.1"]);
    if training {
        trunk.args(["--features", "training"]);
    }
    sh::run(&mut trunk)
}
