//! The release bundle in dist/, built by trunk.

use crate::sh::{self, cmd};
use crate::tools;
use std::path::PathBuf;

/// Builds the release bundle into dist/ and returns its folder.
pub fn build_release() -> Result<PathBuf, String> {
    tools::ensure_build_tools()?;
    sh::run(cmd("trunk").args(["build", "--release"]))?;
    Ok(sh::root().join("dist"))
}
