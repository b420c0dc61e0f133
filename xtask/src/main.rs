//! The project's commands, run as `cargo xtask <command>`:
//!
//! - `serve [--dev]`: installs what is missing, then builds the release bundle
//!   (what learners get) and serves it on http://127.0.0.1:8080, rebuilding on
//!   changes; `--dev` serves the fast debug build instead;
//! - `dist [--out DIR]`: builds the release bundle a teacher deploys into
//!   `dist/` (or DIR); `dist --single-file [--out DIR]` writes the app as one
//!   HTML file, and `dist --scorm [--out DIR]` as a SCORM 1.2 package, into
//!   `dist-classroom/` (or DIR);
//! - `test`: installs what is missing, then runs every check and test tier;
//! - `golden`: rewrites the golden files the tests compare with, from the
//!   native computation (after a deliberate change of the numbers);
//! - `bench`: prints the release bundle's size against the budget, the input
//!   latency, the core's native throughput and the training speed.

mod bench;
mod dist;
mod modules;
mod sh;
mod test;
mod tools;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <serve [--dev] | dist [--single-file | --scorm] [--out DIR] | test | golden | bench>";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Command {
    Serve { dev: bool },
    Dist { out: PathBuf, form: dist::Form },
    Test,
    Golden,
    Bench,
}

/// The command the arguments (after `cargo xtask`) name; `--out` is taken
/// relative to the folder the command runs in.
fn parse(args: &[&str], here: &Path) -> Option<Command> {
    Some(match args {
        ["serve"] => Command::Serve { dev: false },
        ["serve", "--dev"] => Command::Serve { dev: true },
        ["dist", rest @ ..] => {
            let (form, rest) = match rest {
                ["--single-file", rest @ ..] => (dist::Form::SingleFile, rest),
                ["--scorm", rest @ ..] => (dist::Form::Scorm, rest),
                rest => (dist::Form::Bundle, rest),
            };
            let out = match rest {
                [] => sh::root().join(form.default_out()),
                ["--out", out] => here.join(out),
                _ => return None,
            };
            Command::Dist { out, form }
        }
        ["test"] => Command::Test,
        ["golden"] => Command::Golden,
        ["bench"] => Command::Bench,
        _ => return None,
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let here = std::env::current_dir().unwrap_or_default();
    let result = match parse(&args, &here) {
        Some(Command::Serve { dev }) => serve(dev),
        Some(Command::Dist { out, form }) => match form {
            dist::Form::Bundle => deploy_bundle(&out),
            form => dist::build_classroom_file(form, &out),
        },
        Some(Command::Test) => test::run_all(),
        Some(Command::Golden) => test::write_golden_files(),
        Some(Command::Bench) => bench::run(),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
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

#[cfg(test)]
mod tests {
    use super::{parse, Command};
    use crate::dist::Form;
    use std::path::Path;

    #[test]
    fn reads_every_command_and_refuses_anything_else() {
        let here = Path::new("/course");
        assert_eq!(parse(&["serve"], here), Some(Command::Serve { dev: false }));
        assert_eq!(
            parse(&["serve", "--dev"], here),
            Some(Command::Serve { dev: true })
        );
        assert_eq!(
            parse(&["dist", "--out", "site"], here),
            Some(Command::Dist {
                out: Path::new("/course/site").to_path_buf(),
                form: Form::Bundle,
            })
        );
        assert_eq!(
            parse(&["dist", "--out", "/srv/www"], here),
            Some(Command::Dist {
                out: Path::new("/srv/www").to_path_buf(),
                form: Form::Bundle,
            })
        );
        assert!(matches!(
            parse(&["dist"], here),
            Some(Command::Dist { out, form: Form::Bundle }) if out.ends_with("dist")
        ));
        assert!(matches!(
            parse(&["dist", "--single-file"], here),
            Some(Command::Dist { out, form: Form::SingleFile }) if out.ends_with("dist-classroom")
        ));
        assert_eq!(
            parse(&["dist", "--scorm", "--out", "lms"], here),
            Some(Command::Dist {
                out: Path::new("/course/lms").to_path_buf(),
                form: Form::Scorm,
            })
        );
        for words in [
            &["serve", "training"][..],
            &["dist", "--out"],
            &["dist", "--out", "site", "--scorm"],
            &["dist", "--single-file", "--scorm"],
            &["deploy"],
            &[],
        ] {
            assert_eq!(parse(words, here), None, "{words:?}");
        }
    }
}
