//! The release bundle in dist/, built by trunk.

use crate::sh::{self, cmd};
use crate::tools;
use std::path::PathBuf;
use std::process::Command;

/// Builds the release bundle into dist/ and returns its folder.
pub fn build_release() -> Result<PathBuf, String> {
    tools::ensure_build_tools()?;
    sh::run(lean_std(cmd("trunk")).args(["build", "--release"]))?;
    Ok(sh::root().join("dist"))
}

/// Builds the release bundle with the training card (the app's `training`
/// feature) into target/dist-training/ and returns its folder.
pub fn build_release_with_training() -> Result<PathBuf, String> {
    tools::ensure_build_tools()?;
    let folder = sh::root().join("target/dist-training");
    sh::run(
        lean_std(cmd("trunk"))
            .args(["build", "--release", "--features", "training", "--dist"])
            .arg(&folder),
    )?;
    Ok(folder)
}

/// Has cargo build the release WebAssembly with its own copy of the standard
/// library, compiled so that a panic stops at once instead of formatting a
/// message first. A panic kills the page either way (`panic = "abort"`), but
/// the message machinery costs about 20 KB gzip of the 200 KB budget.
///
/// Rebuilding the standard library is a nightly cargo feature;
/// `RUSTC_BOOTSTRAP` lets the stable toolchain use it, with the `rust-src`
/// component. Only this release build does: the tests, clippy and
/// `trunk serve` use the toolchain as it is.
pub fn lean_std(mut command: Command) -> Command {
    command
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_UNSTABLE_BUILD_STD", "std,panic_abort")
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
            "-Zunstable-options -Cpanic=immediate-abort",
        );
    command
}
