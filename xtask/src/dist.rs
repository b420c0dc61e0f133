//! The release bundle a teacher deploys, built by trunk: the one the
//! end-to-end tests and the benchmark use, and `cargo xtask serve` serves.

use crate::sh::{self, cmd};
use crate::tools;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the release bundle goes unless `--out` says otherwise.
pub const DEFAULT_OUT: &str = "dist";

/// What `cargo xtask dist` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The folder to copy to a static file server.
    Bundle,
    /// The app as one HTML file that runs opened from disk.
    SingleFile,
    /// A SCORM 1.2 package of that file, for an LMS.
    Scorm,
}

impl Form {
    /// Where it goes unless `--out` says otherwise.
    pub fn default_out(self) -> &'static str {
        match self {
            Form::Bundle => DEFAULT_OUT,
            Form::SingleFile | Form::Scorm => "dist-classroom",
        }
    }
}

/// The single file's name in a release bundle (tools/single_file.mjs writes it).
pub const SINGLE_FILE: &str = "attention-lab.html";
/// The SCORM package's name.
const SCORM_PACKAGE: &str = "attention-lab-scorm.zip";
/// Where the single file and the SCORM package are built from: a release
/// bundle of their own (under cargo's target folder), so `dist/` is left as it was.
const CLASSROOM_BUNDLE: &str = "classroom-bundle";

/// Builds the release bundle, then writes its single file, or the SCORM
/// package of it, into `out`.
pub fn build_classroom_file(form: Form, out: &Path) -> Result<(), String> {
    let (bundle, _) = build_release(&sh::target_dir().join(CLASSROOM_BUNDLE))?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let single = bundle.join(SINGLE_FILE);
    if form == Form::Scorm {
        let zip = out.join(SCORM_PACKAGE);
        sh::run(cmd("node").arg("tools/scorm.mjs").arg(&single).arg(&zip))?;
        eprintln!(
            "\nxtask: {} is a SCORM 1.2 package: upload it to Moodle, Canvas or Blackboard as a \
             SCORM activity (README: Classroom)",
            zip.display()
        );
    } else {
        let file = out.join(SINGLE_FILE);
        std::fs::copy(&single, &file).map_err(|e| format!("{}: {e}", file.display()))?;
        eprintln!(
            "\nxtask: {} is the whole app in one file: open it from disk, or hand it out \
             (README: Classroom)",
            file.display()
        );
    }
    Ok(())
}

/// How the release WebAssembly's standard library is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Std {
    /// Compiled by cargo itself to abort on panic without a message (see [`lean_std`]).
    Lean,
    /// The toolchain's own, as shipped.
    Plain,
}

/// Builds the release bundle into `out` (relative to the workspace root) and
/// returns its folder and how its standard library was built.
///
/// The lean build relies on unstable compiler flags: should a toolchain ever
/// refuse them, the plain release bundle is built instead, with one line
/// saying so, rather than no bundle at all.
pub fn build_release(out: &Path) -> Result<(PathBuf, Std), String> {
    tools::ensure_build_tools()?;
    let folder = sh::root().join(out);
    let std = lean_or_plain(|std| {
        let mut trunk = with_std(cmd("trunk"), std);
        sh::run(trunk.args(["build", "--release", "--dist"]).arg(&folder))
    })?;
    Ok((folder, std))
}

/// Where `cargo xtask bench` builds the floor page.
pub const FLOOR_OUT: &str = "target/floor-dist";

/// Builds the floor page (`crates/floor-page`) into `out` exactly as the app
/// is built (the same trunk configuration, release profile, standard library,
/// wasm-opt passes and minifier), for the bench to time beside the app.
pub fn build_floor_page(out: &Path, std: Std) -> Result<PathBuf, String> {
    let folder = sh::root().join(out);
    let mut trunk = with_std(cmd("trunk"), std);
    sh::run(
        trunk
            .args([
                "build",
                "crates/floor-page/index.html",
                "--release",
                "--dist",
            ])
            .arg(&folder),
    )?;
    Ok(folder)
}

/// Builds with the lean standard library, or, should that fail, says so in
/// one line and builds with the plain one.
fn lean_or_plain(mut build: impl FnMut(Std) -> Result<(), String>) -> Result<Std, String> {
    if build(Std::Lean).is_ok() {
        return Ok(Std::Lean);
    }
    eprintln!(
        "xtask: the lean standard library does not build on this toolchain; \
         building the plain release bundle instead (about 20 KB gzip larger)"
    );
    build(Std::Plain).map(|()| Std::Plain)
}

/// `command` set up to build the release WebAssembly with the given standard library.
pub fn with_std(command: Command, std: Std) -> Command {
    match std {
        Std::Lean => lean_std(command),
        Std::Plain => command,
    }
}

/// Has cargo build the release WebAssembly with its own copy of the standard
/// library, compiled so that a panic stops at once instead of formatting a
/// message first. A panic kills the page either way (`panic = "abort"`), but
/// the message machinery costs about 20 KB gzip of the budget.
///
/// Rebuilding the standard library is a nightly cargo feature;
/// `RUSTC_BOOTSTRAP` lets the pinned stable toolchain (rust-toolchain.toml)
/// use it, with the `rust-src` component. Only the release build does: the
/// tests, clippy and `cargo xtask serve --dev` use the toolchain as it is.
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

#[cfg(test)]
mod tests {
    use super::{lean_or_plain, Std};

    #[test]
    fn a_failing_lean_build_falls_back_to_the_plain_one() {
        let mut tried = Vec::new();
        let built = lean_or_plain(|std| {
            tried.push(std);
            if std == Std::Lean {
                Err("-Zbuild-std is gone".into())
            } else {
                Ok(())
            }
        });
        assert_eq!(built, Ok(Std::Plain));
        assert_eq!(tried, [Std::Lean, Std::Plain]);
    }

    #[test]
    fn the_lean_build_is_kept_when_it_works_and_a_plain_failure_is_reported() {
        assert_eq!(lean_or_plain(|_| Ok(())), Ok(Std::Lean));
        assert_eq!(
            lean_or_plain(|_| Err("no trunk".into())),
            Err("no trunk".to_string())
        );
    }
}
