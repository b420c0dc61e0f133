//! Installs what the build and the tests need, and only what is missing.
//! Nothing here downloads a prebuilt binary: cargo builds the Rust tools from
//! crates.io, npm brings binaryen, terser and playwright-core, and Chromium
//! comes from the OS packages.

use crate::sh::{self, cmd};
use std::path::Path;

const TRUNK_VERSION: &str = "0.21.14";

/// What `cargo xtask serve` needs.
pub fn ensure_build_tools() -> Result<(), String> {
    ensure_rust_parts()?;
    ensure_cargo_tool(
        "trunk",
        Some(TRUNK_VERSION),
        &["install", "--locked", "trunk", "--version", TRUNK_VERSION],
    )?;
    let bindgen = wasm_bindgen_version()?;
    // Without --locked: one of its locked dependencies is missing from the registry.
    ensure_cargo_tool(
        "wasm-bindgen",
        Some(&bindgen),
        &["install", "wasm-bindgen-cli", "--version", &bindgen],
    )?;
    ensure_npm_tools()?;
    // trunk runs cargo with --offline (Trunk.toml), so every crate must be local
    // first: the workspace's, and those of the standard library the release
    // build compiles itself (see `dist::lean_std`). Should the toolchain
    // refuse the lean build's flags, `dist::build_release` falls back to the
    // plain build, whose crates the first fetch brought.
    sh::run(cmd("cargo").args(["fetch"]))?;
    let lean_fetch = crate::dist::lean_std(cmd("cargo"))
        .args(["fetch", "--target", "wasm32-unknown-unknown"])
        .status();
    if !lean_fetch.is_ok_and(|status| status.success()) {
        eprintln!("xtask: could not fetch the standard library's crates for the lean build");
    }
    Ok(())
}

/// What `cargo xtask test` needs on top of the build tools.
pub fn ensure_test_tools() -> Result<(), String> {
    ensure_build_tools()?;
    ensure_cargo_tool("wasm-pack", None, &["install", "--locked", "wasm-pack"])?;
    ensure_os_package("chromium", "chromium")?;
    ensure_os_package("chromedriver", "chromium-driver")?;
    // The single file is also run in Firefox; where apt has no Firefox ESR
    // (Ubuntu ships Firefox as a snap), that one test says it is skipped.
    if let Err(why) = ensure_os_package("firefox-esr", "firefox-esr") {
        eprintln!("xtask: {why}\nxtask: the single file's Firefox test will be skipped");
    }
    Ok(())
}

/// The toolchain rust-toolchain.toml pins, with its wasm32 target and its
/// components (rust-src, clippy, rustfmt). rustup installs a pinned toolchain
/// on first use, but adds the target and components of the file only when it
/// installs the toolchain itself: `rustup toolchain install` with no name
/// completes one that is already there (rustup 1.28 and later).
fn ensure_rust_parts() -> Result<(), String> {
    let targets = sh::output(cmd("rustup").args(["target", "list", "--installed"]))
        .ok_or("rustup is needed: install it from rustup.rs or your OS packages")?;
    let components =
        sh::output(cmd("rustup").args(["component", "list", "--installed"])).unwrap_or_default();
    let has_target = targets
        .lines()
        .any(|t| t.trim() == "wasm32-unknown-unknown");
    let has_components = ["rust-src", "clippy", "rustfmt"]
        .iter()
        .all(|name| components.lines().any(|c| c.trim().starts_with(name)));
    if has_target && has_components {
        return Ok(());
    }
    sh::run(cmd("rustup").args(["toolchain", "install"]))
}

/// Installs `binary` with `cargo <install_args>` unless it is present at `version`.
fn ensure_cargo_tool(
    binary: &str,
    version: Option<&str>,
    install_args: &[&str],
) -> Result<(), String> {
    let found = sh::output(cmd(binary).arg("--version"));
    let fits = match (&found, version) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(text), Some(v)) => text.split_whitespace().any(|word| word == v),
    };
    if fits {
        return Ok(());
    }
    eprintln!(
        "xtask: {binary} {} is missing; building it from crates.io (this takes a few minutes once)",
        version.unwrap_or("")
    );
    sh::run(cmd("cargo").args(install_args))
}

/// The exact wasm-bindgen version in Cargo.lock, which the CLI must match.
fn wasm_bindgen_version() -> Result<String, String> {
    let lock = std::fs::read_to_string(sh::root().join("Cargo.lock"))
        .map_err(|e| format!("Cargo.lock: cannot read ({e})"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"wasm-bindgen\"" {
            if let Some(version) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = \""))
            {
                return Ok(version.trim_end_matches('"').to_string());
            }
        }
    }
    Err("Cargo.lock: no wasm-bindgen package found".into())
}

/// npm's binaryen (wasm-opt), terser and playwright-core in node_modules, as
/// package-lock.json pins them.
fn ensure_npm_tools() -> Result<(), String> {
    if sh::output(cmd("npm").arg("--version")).is_none() {
        install_os_packages(&["nodejs", "npm"], "Node.js and npm")?;
    }
    // `npm ls` fails when any package in the tree is missing or not at the
    // version package.json pins, so a package added there (terser for trunk's
    // post_build hook) is installed on the next run without a change here.
    if sh::output(cmd("npm").args(["ls", "--all"])).is_some() {
        return Ok(());
    }
    sh::run(cmd("npm").args(["ci", "--no-audit", "--no-fund"]))
}

fn ensure_os_package(binary: &str, package: &str) -> Result<(), String> {
    if sh::output(cmd(binary).arg("--version")).is_some() {
        return Ok(());
    }
    install_os_packages(&[package], binary)
}

/// Installs Debian/Ubuntu packages when running as root with apt-get; otherwise
/// says what to install by hand.
fn install_os_packages(packages: &[&str], what: &str) -> Result<(), String> {
    let is_root = sh::output(cmd("id").arg("-u")).is_some_and(|uid| uid.trim() == "0");
    if !is_root || !Path::new("/usr/bin/apt-get").exists() {
        return Err(format!(
            "{what} is missing. Install it with your OS package manager \
             (Debian/Ubuntu: sudo apt-get install -y {}), then run this command again.",
            packages.join(" ")
        ));
    }
    sh::run(cmd("apt-get").arg("update"))?;
    sh::run(
        cmd("apt-get")
            .args(["install", "-y"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
}
