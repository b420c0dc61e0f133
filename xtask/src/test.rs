//! `cargo xtask test`: formatting, lints (native and wasm32), the core's
//! web-free check, native tests, browser tests, and the end-to-end tests.

use crate::dist;
use crate::sh::{self, cmd};
use crate::tools;
use std::path::Path;

/// Crates attention-core must never depend on: it knows nothing about the web.
const WEB_CRATES: [&str; 4] = ["leptos", "web-sys", "js-sys", "wasm-bindgen"];

pub fn run_all() -> Result<(), String> {
    tools::ensure_test_tools()?;
    sh::run(cmd("cargo").args(["fmt", "--all", "--", "--check"]))?;
    sh::run(cmd("cargo").args(clippy(&["--workspace", "--all-targets"])))?;
    sh::run(cmd("cargo").args(clippy(&[
        "--target",
        "wasm32-unknown-unknown",
        "-p",
        "attention-lab",
        "--all-targets",
    ])))?;
    sh::run(cmd("cargo").args(clippy(&[
        "--target",
        "wasm32-unknown-unknown",
        "-p",
        "attention-core",
        "-p",
        "attention-kernels",
        "--lib",
    ])))?;
    check_core_is_web_free()?;
    crate::modules::check_no_import_circle()?;
    sh::run(cmd("cargo").args(["test", "--workspace"]))?;
    browser_tests()?;
    // The end-to-end tests run against the release bundle a teacher deploys.
    let (bundle, _) = dist::build_release(Path::new(dist::DEFAULT_OUT))?;
    // The end-to-end tests check the page against the native core through attn-trace.
    sh::run(cmd("cargo").args(["build", "-q", "--bin", "attn-trace"]))?;
    let attn_trace = sh::target_dir().join("debug/attn-trace");
    sh::run(
        cmd("node")
            .arg("--test")
            // A test that hangs fails after ten minutes instead of holding the run.
            .arg("--test-timeout=600000")
            .args(end_to_end_tests()?)
            .env("ATTN_TRACE", &attn_trace)
            .env("DIST", bundle),
    )?;
    eprintln!("\nxtask: every check and test passed");
    Ok(())
}

/// What wasm-bindgen-test-runner prints when the test page never started its tests.
const NEVER_STARTED: &str = "Failed to detect test as having been run";

/// The app's browser tests (only they run in wasm; the other members are
/// native tools and tests), run again if the page never started them.
///
/// The runner's own file server now and then resets a connection while the
/// test page loads its modules (seen on 2-core machines: the browser logs
/// `net::ERR_CONNECTION_RESET` for a snippet after a minute and a half), and
/// the page then never starts the tests. That, and only that, is retried: a
/// test that fails or hangs once started fails the run.
fn browser_tests() -> Result<(), String> {
    const ATTEMPTS: usize = 3;
    for attempt in 1..=ATTEMPTS {
        let (result, printed) = sh::run_echoed(cmd("wasm-pack").args([
            "test",
            "--headless",
            "--chrome",
            ".",
            "-p",
            "attention-lab",
            "--test",
            "browser",
        ]))?;
        if result.is_ok() || !printed.contains(NEVER_STARTED) || attempt == ATTEMPTS {
            return result;
        }
        eprintln!(
            "xtask: the test page never started its tests (the runner's file server dropped a \
             connection); running them again ({}/{ATTEMPTS})",
            attempt + 1
        );
    }
    unreachable!("the last attempt returns")
}

/// Runs the ignored `write_golden` tests, which rewrite the golden files
/// (`tests/data/*_golden.json`) from the native computation. A test run only
/// compares with them, so a stale file fails until this is run on purpose.
pub fn write_golden_files() -> Result<(), String> {
    sh::run(cmd("cargo").args([
        "test",
        "--workspace",
        "--",
        "--ignored",
        "--exact",
        "write_golden",
        "experiment::tests::write_golden",
    ]))?;
    eprintln!("\nxtask: golden files rewritten; review them with git diff");
    Ok(())
}

fn clippy<'a>(selection: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["clippy"];
    args.extend_from_slice(selection);
    args.extend(["--", "-D", "warnings"]);
    args
}

fn check_core_is_web_free() -> Result<(), String> {
    let tree = sh::output(cmd("cargo").args([
        "tree",
        "-p",
        "attention-core",
        "-e",
        "normal,build",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]))
    .ok_or("`cargo tree -p attention-core` failed")?;
    let web = web_dependencies(&tree);
    if web.is_empty() {
        eprintln!("\n==> attention-core depends on no web crate");
        Ok(())
    } else {
        Err(format!(
            "attention-core must know nothing about the web, but depends on: {}",
            web.join(", ")
        ))
    }
}

/// The web crates named in `cargo tree --format {p}` output, one package per line.
fn web_dependencies(tree: &str) -> Vec<String> {
    let mut found: Vec<String> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| WEB_CRATES.contains(name))
        .map(str::to_owned)
        .collect();
    found.sort();
    found.dedup();
    found
}

/// The end-to-end test files, tests/e2e/*.test.mjs.
fn end_to_end_tests() -> Result<Vec<String>, String> {
    let folder = sh::root().join("tests/e2e");
    let entries = std::fs::read_dir(&folder).map_err(|e| format!("tests/e2e: {e}"))?;
    let mut files: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.to_string_lossy().ends_with(".test.mjs"))
        .map(|path| path.to_string_lossy().into_owned())
        .collect();
    files.sort();
    if files.is_empty() {
        return Err("tests/e2e holds no *.test.mjs file".into());
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::web_dependencies;

    #[test]
    fn finds_web_crates_in_a_dependency_tree() {
        let tree = "attention-core v0.1.0 (/x)\nndarray v0.17.2\nweb-sys v0.3.1\nwasm-bindgen v0.2.1\nweb-sys v0.3.1 (*)\n";
        assert_eq!(web_dependencies(tree), ["wasm-bindgen", "web-sys"]);
    }

    #[test]
    fn a_plain_numeric_tree_is_web_free() {
        let tree = "attention-core v0.1.0 (/x)\nndarray v0.17.2\nserde_json v1.0.1\nwasm-bindgen-shim v1.0.0\n";
        assert!(web_dependencies(tree).is_empty());
    }
}
