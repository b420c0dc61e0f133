//! Native forward-pass throughput at T = 16, 64, 256 and 512 with d = d_k = d_v = 64.
//! Run with `cargo xtask bench`, or as it does:
//!
//! ```text
//! MALLOC_TRIM_THRESHOLD_=268435456 MALLOC_MMAP_THRESHOLD_=268435456 \
//!     cargo run --release -p attention-core --example throughput
//! ```
//!
//! A benchmark to read, not a test to pass. Every figure is from the median pass.
//!
//! Those two glibc settings keep freed memory in the process. Without them,
//! from T = 256 on, every other pass times the kernel rather than the pass:
//! each pass's T×T arrays (6 MB at T = 512) go to the top of the heap while
//! the previous trace is still kept, and once that trace is dropped the next
//! pass takes its place lower down, so the newer arrays, freed in turn, are
//! the top again and glibc hands them back to the system, for the pass after
//! to fault in once more (about 1500 pages at T = 512). WebAssembly memory
//! never shrinks, so the app never pays that. xtask runs the NumPy peer
//! (`numpy_forward.py`) with the same settings, so neither side times page faults.

use attention_core::random::normal_matrix;
use attention_core::{forward_sequence, Head, Options};
use std::time::{Duration, Instant};

const D: usize = 64;
/// Each size runs for at least this long, so short passes are averaged well.
const MIN_TIME: Duration = Duration::from_millis(400);

fn main() {
    let head = Head {
        w_q: normal_matrix(D, D, 0.125, 1),
        w_k: normal_matrix(D, D, 0.125, 2),
        w_v: normal_matrix(D, D, 0.125, 3),
    };
    println!("\nNative forward pass (d = d_k = d_v = {D}, one sequence, full trace)");
    println!(
        "{:>6} {:>12} {:>14} {:>10}",
        "T", "passes/s", "µs per pass", "GFLOP/s"
    );
    for t in [16, 64, 256, 512] {
        let x = normal_matrix(t, D, 1.0, 4);
        let run = || forward_sequence(x.view(), &head, None, Options::default());
        if let Err(e) = run() {
            eprintln!("T = {t}: {e}");
            std::process::exit(1);
        }
        // Each pass is timed on its own and the median reported: on a
        // machine shared with other work it is steadier than the mean, and
        // it is what `numpy_forward.py` reports for its peer.
        //
        // Like the app's memo, the last trace is kept until the next one
        // replaces it. (Dropping each trace at once lets the allocator hand
        // its pages back to the system, and every pass pays to fault them in
        // again, which measures the allocator rather than the pass.)
        let start = Instant::now();
        let mut times = Vec::new();
        let mut shown = None;
        while start.elapsed() < MIN_TIME {
            let pass = Instant::now();
            let trace = run().ok();
            times.push(pass.elapsed());
            shown = std::hint::black_box(trace);
        }
        drop(shown);
        times.sort();
        let seconds = times[times.len() / 2].as_secs_f64();
        // Three projections, Q·Kᵀ and α′·V, two flops per multiply-add.
        let flops = 2.0 * (3.0 * (t * D * D) as f64 + 2.0 * (t * t * D) as f64);
        println!(
            "{t:>6} {:>12.0} {:>14.1} {:>10.2}",
            1.0 / seconds,
            seconds * 1e6,
            flops / seconds / 1e9
        );
    }
}
