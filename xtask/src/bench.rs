//! `cargo xtask bench`: the release bundle's size (raw and gzip -9) against
//! its budget, the latency from an input event to updated diagrams in headless
//! Chromium (selecting a query, editing one entry, new random weights, at
//! T = 4, 16, 64, 256 and 512, each row met when its median is within the
//! target and its p95 within twice it), the first diagram's time against the
//! floor page's (`crates/floor-page`, built the same way), the core's native
//! forward-pass throughput beside NumPy's (when python3 has numpy), and training
//! steps per second natively and in WebAssembly in headless Chromium.

use crate::dist;
use crate::sh::{self, cmd};
use crate::tools;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The budget for the finished app's whole bundle, gzip -9.
const BUDGET_GZIP_BYTES: usize = 400 * 1024;
/// The file kinds that make up the bundle.
const BUNDLE_KINDS: [&str; 5] = ["wasm", "js", "css", "html", "svg"];
/// The training card's default task (`TaskId::default()` in attention-core).
const DEFAULT_TASK: &str = "pronoun";
/// Training steps per second the default task must reach in WebAssembly (issue 6).
const WASM_GOAL_STEPS_PER_S: f64 = 10_000.0;

pub fn run() -> Result<(), String> {
    let (bundle, std) = dist::build_release(Path::new(dist::DEFAULT_OUT))?;
    let title = match std {
        dist::Std::Lean => "Release bundle (dist/)",
        dist::Std::Plain => "Release bundle (dist/, plain standard library)",
    };
    report_bundle(&bundle, title)?;
    let floor = dist::build_floor_page(Path::new(dist::FLOOR_OUT), std)?;
    tools::ensure_test_tools()?;
    sh::run(
        cmd("node")
            .arg("tests/e2e/bench_latency.mjs")
            .env("FLOOR_DIST", floor),
    )?;
    let native = report_throughput()?;
    report_wasm_forward(&native)?;
    report_training()
}

/// The sequence length at which the WebAssembly forward pass has a goal.
const WASM_GOAL_T: usize = 512;
/// How much slower than native the WebAssembly pass may be there (issue 12).
const WASM_GOAL_RATIO: f64 = 2.0;

/// The forward pass in WebAssembly in headless Chromium (`tests/forward_speed.rs`,
/// the release profile without wasm-opt) beside the native times.
fn report_wasm_forward(native: &[(usize, f64)]) -> Result<(), String> {
    let wasm = captured(&mut wasm_pack_test("forward_speed"))?;
    println!("\n{}", wasm_comparison(native, &wasm_pass_times(&wasm)));
    Ok(())
}

/// A release `wasm-pack test` of one of the app's measuring test files, in
/// headless Chromium, printing what it logs.
fn wasm_pack_test(name: &str) -> Command {
    let mut command = cmd("wasm-pack");
    command.args([
        "test",
        "--headless",
        "--chrome",
        "--release",
        ".",
        "-p",
        "attention-lab",
        "--test",
        name,
        "--",
        "--nocapture",
    ]);
    command
}

/// `(T, µs per pass)` from the lines `forward-speed T=<t> d=<d> us=<µs>`.
fn wasm_pass_times(text: &str) -> Vec<(usize, f64)> {
    text.lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("forward-speed ")?;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let t = fields.first()?.strip_prefix("T=")?.parse().ok()?;
            let micros = fields.get(2)?.strip_prefix("us=")?.parse().ok()?;
            Some((t, micros))
        })
        .collect()
}

/// Native and WebAssembly times side by side, with the goal at [`WASM_GOAL_T`].
fn wasm_comparison(native: &[(usize, f64)], wasm: &[(usize, f64)]) -> String {
    let rows = matched(wasm, native).into_iter().map(|(t, ours, theirs)| {
        let ratio = ours / theirs;
        let goal = match t {
            WASM_GOAL_T if ratio <= WASM_GOAL_RATIO => "≤ 2× met",
            WASM_GOAL_T => "≤ 2× NOT MET",
            _ => "",
        };
        (t, theirs, ours, ratio, goal)
    });
    ratio_table(
        "Forward pass, WebAssembly (headless Chromium) against native (µs per pass)",
        ["native µs", "wasm µs"],
        rows,
    )
}

/// `(T, a's time, b's time)` for each T of `a` that `b` measured too.
fn matched(a: &[(usize, f64)], b: &[(usize, f64)]) -> Vec<(usize, f64, f64)> {
    a.iter()
        .filter_map(|&(t, ours)| {
            let &(_, theirs) = b.iter().find(|&&(size, _)| size == t)?;
            Some((t, ours, theirs))
        })
        .collect()
}

/// A table titled `title` of two times per T (named by `columns`), their
/// ratio and whether a goal is met.
fn ratio_table(
    title: &str,
    columns: [&str; 2],
    rows: impl Iterator<Item = (usize, f64, f64, f64, &'static str)>,
) -> String {
    let mut table = format!(
        "{title}\n{:>6} {:>12} {:>12} {:>8}  goal",
        "T", columns[0], columns[1], "ratio"
    );
    for (t, first, second, ratio, goal) in rows {
        table += &format!("\n{t:>6} {first:>12.1} {second:>12.1} {ratio:>8.2}  {goal}");
    }
    table
}

/// The NumPy peer of the core's throughput example.
const NUMPY_SCRIPT: &str = "crates/attention-core/examples/numpy_forward.py";

/// glibc malloc settings that both the native forward pass and its NumPy
/// peer run with: memory is never handed back to the system nor taken with
/// mmap below 256 MB. Otherwise, every other pass frees the top of the heap
/// (the T×T arrays, 6 MB at T = 512) and the next one times the kernel
/// faulting those pages in again; WebAssembly memory never shrinks, so the
/// app never pays that. Setting either variable also turns glibc's own
/// adjustment of both thresholds off, so both are set.
const MALLOC_SETTINGS: [(&str, &str); 2] = [
    ("MALLOC_TRIM_THRESHOLD_", "268435456"),
    ("MALLOC_MMAP_THRESHOLD_", "268435456"),
];

/// The core's native forward-pass throughput and, when python3 has NumPy,
/// the same pass in NumPy (float64, one thread) and the two side by side.
fn report_throughput() -> Result<Vec<(usize, f64)>, String> {
    let native = captured(core_example("throughput").envs(MALLOC_SETTINGS))?;
    println!(
        "\nNative and NumPy passes both run with glibc's MALLOC_TRIM_THRESHOLD_ and \
         MALLOC_MMAP_THRESHOLD_ at 256 MB: neither times page faults (wasm memory never shrinks)."
    );
    print!("{native}");
    let times = pass_times(&native, 4, 2);
    let has_numpy = cmd("python3")
        .args(["-c", "import numpy"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !has_numpy {
        println!(
            "
NumPy comparison skipped: python3 with numpy is missing (pip install numpy)"
        );
        return Ok(times);
    }
    let numpy = captured(cmd("python3").arg(NUMPY_SCRIPT).envs(MALLOC_SETTINGS))?;
    print!("{numpy}");
    // Native rows are `T passes/s µs GFLOP/s`, NumPy's `T µs best-µs`.
    let table = comparison(&times, &pass_times(&numpy, 3, 1));
    println!("\n{table}");
    Ok(times)
}

/// `(T, median µs per pass)` from the rows of a throughput table that have
/// `fields` columns: T first, the median µs in column `micros`.
fn pass_times(text: &str, fields: usize, micros: usize) -> Vec<(usize, f64)> {
    text.lines()
        .filter_map(|line| {
            let row: Vec<&str> = line.split_whitespace().collect();
            if row.len() != fields {
                return None;
            }
            Some((row[0].parse().ok()?, row.get(micros)?.parse().ok()?))
        })
        .collect()
}

/// The native and NumPy times at each T both measured, their ratio and
/// whether the goal (native no slower than NumPy) is met.
fn comparison(native: &[(usize, f64)], numpy: &[(usize, f64)]) -> String {
    let rows = matched(native, numpy).into_iter().map(|(t, ours, theirs)| {
        let ratio = ours / theirs;
        let goal = if ratio <= 1.0 { "met" } else { "NOT MET" };
        (t, ours, theirs, ratio, goal)
    });
    ratio_table(
        "Forward pass, native against NumPy (median µs per pass; goal: native no slower)",
        ["native µs", "NumPy µs"],
        rows,
    )
}

/// `cargo run` of one of the core's examples, at full native speed (the
/// `native-speed` profile in Cargo.toml).
fn core_example(name: &str) -> Command {
    let mut command = cmd("cargo");
    command.args([
        "run",
        "--profile",
        "native-speed",
        "-q",
        "-p",
        "attention-core",
        "--example",
        name,
    ]);
    command
}

/// Training steps per second, natively (`examples/train_bench.rs`) and in
/// WebAssembly in headless Chromium (`tests/train_speed.rs`, built with the
/// release profile like the bundle, though without wasm-opt), and the line
/// that compares the default task with its goal.
fn report_training() -> Result<(), String> {
    let native = captured(&mut core_example("train_bench"))?;
    print!("{native}");
    let native = native_speeds(&native);
    let wasm = captured(&mut wasm_pack_test("train_speed"))?;
    let wasm = wasm_speeds(&wasm);
    println!("\nWebAssembly training steps per second (release profile, headless Chromium)");
    println!("{:>14} {:>6} {:>6} {:>12}", "task", "T", "d", "steps/s");
    for s in &wasm {
        println!(
            "{:>14} {:>6} {:>6} {:>12.0}",
            s.task, s.t, s.d, s.steps_per_s
        );
    }
    let find = |speeds: &[Speed]| speeds.iter().find(|s| s.task == DEFAULT_TASK).cloned();
    let (Some(w), Some(n)) = (find(&wasm), find(&native)) else {
        return Err(format!(
            "no training speed for the {DEFAULT_TASK} task: wasm {wasm:?}, native {native:?}"
        ));
    };
    println!("\n{}", goal_line(&w, &n));
    Ok(())
}

/// Runs a command and returns its standard output, which is also what it
/// prints: standard error (compiler progress) goes to the terminal as is.
fn captured(command: &mut Command) -> Result<String, String> {
    let args: Vec<String> = command
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let line = format!(
        "`{} {}`",
        command.get_program().to_string_lossy(),
        args.join(" ")
    );
    eprintln!("\n==> {line}");
    let out = command
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not start {line}: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(format!("{line} failed ({}):\n{stdout}", out.status))
    }
}

/// One task's measured training speed.
#[derive(Clone, Debug, PartialEq)]
struct Speed {
    task: String,
    t: usize,
    d: usize,
    steps_per_s: f64,
}

/// The rows `task T d steps/s µs` of `examples/train_bench.rs`'s table.
fn native_speeds(text: &str) -> Vec<Speed> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            match fields[..] {
                [task, t, d, rate, _micros] => Some(Speed {
                    task: task.to_owned(),
                    t: t.parse().ok()?,
                    d: d.parse().ok()?,
                    steps_per_s: rate.parse().ok()?,
                }),
                _ => None,
            }
        })
        .collect()
}

/// The lines `train-speed <task> T=<t> d=<d> steps/s=<rate>` that
/// `tests/train_speed.rs` logs.
fn wasm_speeds(text: &str) -> Vec<Speed> {
    text.lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("train-speed ")?;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let value = |i: usize, key: &str| fields.get(i)?.strip_prefix(key);
            Some(Speed {
                task: (*fields.first()?).to_owned(),
                t: value(1, "T=")?.parse().ok()?,
                d: value(2, "d=")?.parse().ok()?,
                steps_per_s: value(3, "steps/s=")?.parse().ok()?,
            })
        })
        .collect()
}

/// A whole number with thousands separated by commas: 12345.6 → "12,346".
fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn goal_line(wasm: &Speed, native: &Speed) -> String {
    format!(
        "training, default task (T = {}, d = {}): {} steps/s in wasm (goal ≥ {}), {} natively — goal {}",
        wasm.t,
        wasm.d,
        thousands(wasm.steps_per_s),
        thousands(WASM_GOAL_STEPS_PER_S),
        thousands(native.steps_per_s),
        if wasm.steps_per_s >= WASM_GOAL_STEPS_PER_S {
            "met"
        } else {
            "NOT MET"
        }
    )
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
        // The sample course page, and the single file, which the page never
        // loads (it is the whole app again, for the Save card to build from).
        let name = path.file_name().unwrap_or_default();
        if (path.is_dir() && name == "examples") || name == dist::SINGLE_FILE {
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

fn report_bundle(dist: &Path, title: &str) -> Result<(), String> {
    let mut files = Vec::new();
    bundle_files(dist, &mut files)?;
    files.sort();
    println!("\n{title}");
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
    let single = dist.join(dist::SINGLE_FILE);
    if let Ok(bytes) = std::fs::read(&single) {
        let gzip = gzip_len(&bytes)?;
        let bound = gzip_total * SINGLE_FILE_BOUND_PERCENT / 100;
        println!(
            "single file ({}): {:.1} KB gzip, {:.2} × the first load (bound {:.1}: {})",
            dist::SINGLE_FILE,
            gzip as f64 / 1024.0,
            gzip as f64 / gzip_total as f64,
            SINGLE_FILE_BOUND_PERCENT as f64 / 100.0,
            if gzip <= bound { "within" } else { "OVER" }
        );
    }
    Ok(())
}

/// The single file may weigh this many percent of the first load, gzip (issue 40).
const SINGLE_FILE_BOUND_PERCENT: usize = 150;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_native_training_table() {
        let text = "\nNative training steps per second (…)\n          task      T      d      steps/s  µs per step\n       pronoun      6      8       143743         6.96\n  same-speaker      8      8       102562         9.75\n";
        let speeds = native_speeds(text);
        assert_eq!(speeds.len(), 2);
        assert_eq!(
            speeds[0],
            Speed {
                task: "pronoun".into(),
                t: 6,
                d: 8,
                steps_per_s: 143743.0
            }
        );
        assert_eq!(speeds[1].task, "same-speaker");
    }

    #[test]
    fn reads_the_wasm_training_log() {
        let text = "running 1 test\nInvoking test: training_steps_per_second\ntrain-speed pronoun T=6 d=8 steps/s=163836\ntrain-speed retrieve T=6 d=8 steps/s=187065\ntest training_steps_per_second ... ok\n";
        let speeds = wasm_speeds(text);
        assert_eq!(speeds.len(), 2);
        assert_eq!(speeds[0].steps_per_s, 163836.0);
        assert_eq!(
            (speeds[1].task.as_str(), speeds[1].t, speeds[1].d),
            ("retrieve", 6, 8)
        );
        assert!(wasm_speeds("train-speed pronoun T=x d=8 steps/s=1").is_empty());
    }

    #[test]
    fn prints_the_goal_line() {
        let speed = |rate| Speed {
            task: "pronoun".into(),
            t: 6,
            d: 8,
            steps_per_s: rate,
        };
        assert_eq!(
            goal_line(&speed(163836.4), &speed(1234567.0)),
            "training, default task (T = 6, d = 8): 163,836 steps/s in wasm (goal ≥ 10,000), 1,234,567 natively — goal met"
        );
        assert!(goal_line(&speed(999.0), &speed(5.0))
            .ends_with("999 steps/s in wasm (goal ≥ 10,000), 5 natively — goal NOT MET"));
        assert_eq!(thousands(100.0), "100");
        assert_eq!(thousands(1000.0), "1,000");
    }

    #[test]
    fn compares_native_and_numpy_times() {
        let native = "\nNative forward pass (d = d_k = d_v = 64, one sequence, full trace)\n     T     passes/s    µs per pass    GFLOP/s\n    16        43860           22.8      20.11\n   512          209         4788.9       16.6\n";
        let numpy = "\nNumPy 2.4.6 forward pass (float64, one thread, d = d_k = d_v = 64, full trace)\n     T    µs per pass    best µs\n    16           24.2       23.7\n    64           84.7       82.8\n   512         4000.0     3900.0\n";
        let (native, numpy) = (pass_times(native, 4, 2), pass_times(numpy, 3, 1));
        assert_eq!(native, vec![(16, 22.8), (512, 4788.9)]);
        assert_eq!(numpy, vec![(16, 24.2), (64, 84.7), (512, 4000.0)]);
        let table = comparison(&native, &numpy);
        let rows: Vec<&str> = table.lines().collect();
        assert_eq!(rows.len(), 4, "{table}");
        assert_eq!(rows[2], "    16         22.8         24.2     0.94  met");
        assert_eq!(
            rows[3],
            "   512       4788.9       4000.0     1.20  NOT MET"
        );
    }

    #[test]
    fn gzip_shrinks_repetitive_bytes() {
        let bytes = vec![b'a'; 10_000];
        let len = gzip_len(&bytes).unwrap();
        assert!(len > 0 && len < 100, "{len}");
    }

    #[test]
    fn sets_the_wasm_forward_pass_beside_the_native_one() {
        let log = "running 1 test\nforward-speed T=16 d=64 us=71.4\nforward-speed T=512 d=64 us=15500.0\nforward-speed T=x d=64 us=1\n";
        let wasm = wasm_pass_times(log);
        assert_eq!(wasm, [(16, 71.4), (512, 15500.0)]);
        let table = wasm_comparison(&[(16, 30.0), (512, 9000.0)], &wasm);
        assert!(
            table.contains("   512       9000.0      15500.0     1.72  ≤ 2× met"),
            "{table}"
        );
        let slow = wasm_comparison(&[(512, 5000.0)], &wasm);
        assert!(slow.ends_with("3.10  ≤ 2× NOT MET"), "{slow}");
        assert!(!table.lines().nth(2).unwrap_or_default().contains("goal"));
    }
}
