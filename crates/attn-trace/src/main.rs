//! `attn-trace FILE` (or `-` for stdin): reads a scenario in the JSON format of
//! the README and prints its full trace as JSON. On bad input it prints one
//! line naming the field and row at fault, and exits with status 2.

use attention_core::{json, Scenario};
use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: attn-trace FILE   (FILE may be - for standard input)";

fn main() -> ExitCode {
    match run() {
        Ok(json) => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (e.g. `| head`) is not an error worth a message.
            let _ = writeln!(stdout, "{json}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("attn-trace: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<String, String> {
    let mut args = std::env::args().skip(1);
    let (Some(path), None) = (args.next(), args.next()) else {
        return Err(USAGE.into());
    };
    let text = read_input(&path)?;
    let scenario = Scenario::from_json(&text).map_err(|e| e.to_string())?;
    let tokens = scenario.tokens.as_deref();
    let number: json::NumberWriter = |v| format!("{v:?}");
    let text = match scenario.run_block().map_err(|e| e.to_string())? {
        Some(block) => json::block_trace_json(&block, scenario.batched, tokens, number),
        None => {
            let trace = scenario.run().map_err(|e| e.to_string())?;
            json::trace_json(&trace, scenario.batched, tokens, number)
        }
    };
    Ok(text.trim_end().to_owned())
}

fn read_input(path: &str) -> Result<String, String> {
    let mut text = String::new();
    let read = if path == "-" {
        std::io::stdin().read_to_string(&mut text)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_string(&mut text))
    };
    read.map_err(|e| format!("{path}: cannot read ({e})"))?;
    Ok(text)
}
