//! `cargo xtask bench`: the release bundle's size (raw and gzip -9) against
//! its budget, the latency from an input event to updated diagrams in headless
//! Chromium, and the core's native forward-pass throughput.

use crate::dist;
use crate::sh::{self, cmd};
use crate::tools;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::Write;
use std::path::Path;

/// The budget for the finished app's whole bundle, gzip -9.
const BUDGET_GZIP_BYTES: usize = 200 * 1024;
/// The file kinds that make up the bundle.
const BUNDLE_KINDS: [&str; 5] = ["wasm", "js", "css", "html", "svg"];

pub fn run() -> Result<(), String> {
    let dist = dist::build_release()?;
    report_bundle(&dist)?;
    tools::ensure_test_tools()?;
    sh::run(cmd("node").arg("tests/e2e/bench_latency.mjs"))?;
    sh::run(cmd("cargo").args([
        "run",
        "--release",
        "-q",
        "-p",
        "attention-core",
        "--example",
        "throughput",
    ]))
}

fn gzip_len(bytes: &[u8]) -> Result<usize, String> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).map_err(|e| e.to_string())?;
    encoder
        .finish()
        .map(|compressed| compressed.len())
        .map_err(|e| e.to_string())
}

/// Every bundle file under `folder`, including wasm-bindgen's `snippets/`.
/// `examples/` (the sample course page for teachers) is not part of what the
/// app's page downloads, so it is left out of the budget.
fn bundle_files(folder: &Path, found: &mut Vec<std::path::PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    for path in entries.filter_map(Result::ok).map(|entry| entry.path()) {
        if path.is_dir() && path.file_name().is_some_and(|name| name == "examples") {
            continue;
        }
        if path.is_dir() {
            bundle_files(&path, found)?;
        } else if path
            .extension()
            .is_some_and(|ext| BUNDLE_KINDS.iter().any(|kind| ext == *kind))
        {
            found.push(path);
        }
    }
    Ok(())
}

fn report_bundle(dist: &Path) -> Result<(), String> {
    let mut files = Vec::new();
    bundle_files(dist, &mut files)?;
    files.sort();
    println!("\nRelease bundle (dist/)");
    println!("{:<64} {:>10} {:>10}", "file", "raw B", "gzip -9 B");
    let (mut raw_total, mut gzip_total) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let gzip = gzip_len(&bytes)?;
        let name = path.strip_prefix(dist).unwrap_or(path).to_string_lossy();
        println!("{name:<64} {:>10} {gzip:>10}", bytes.len());
        raw_total += bytes.len();
        gzip_total += gzip;
    }
    println!("{:<64} {:>10} {:>10}", "total", raw_total, gzip_total);
    println!(
        "budget: {:.1} KB of {} KB gzip ({})",
        gzip_total as f64 / 1024.0,
        BUDGET_GZIP_BYTES / 1024,
        if gzip_total <= BUDGET_GZIP_BYTES {
            "within"
        } else {
            "OVER"
        }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::gzip_len;

    #[test]
    fn gzip_shrinks_repetitive_bytes() {
        let bytes = vec![b'a'; 10_000];
        let len = gzip_len(&bytes).unwrap();
        assert!(len > 0 && len < 100, "{len}");
    }
}
