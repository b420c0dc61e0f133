//! The "why √d_k" experiment as a table, and how long the app's usual setting takes.
//! Run with `cargo run --release -p attention-core --example scaling [keys draws seed]`
//! (defaults 8 500 7). A table to read, not a test to pass.

use attention_core::experiment::{log_spaced_dims, scaling_experiment, Stats};
use std::time::{Duration, Instant};

/// The timing repeats for at least this long, so short runs are averaged well.
const MIN_TIME: Duration = Duration::from_millis(400);

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let keys = args.first().map_or(8, |&k| k as usize);
    let draws = args.get(1).map_or(500, |&d| d as usize);
    let seed = args.get(2).copied().unwrap_or(7);
    let points = match scaling_experiment(&log_spaced_dims(512), keys, draws, seed) {
        Ok(points) => points,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    println!(
        "\nkeys = {keys}, draws = {draws}, seed = {seed}; entropy in nats (ln {keys} = {:.3})",
        (keys as f64).ln()
    );
    println!(
        "{:>5} | {:>9} {:>6} {:>7} {:>6} | {:>9} {:>6} {:>7} {:>6}",
        "d_k", "var", "max p", "entropy", "‖J‖", "var", "max p", "entropy", "‖J‖"
    );
    println!(
        "{:>5} | {:^31} | {:^31}",
        "", "unscaled q·k", "scaled q·k/√d_k"
    );
    let cells = |s: &Stats| {
        format!(
            "{:>9.3} {:>6.3} {:>7.3} {:>6.3}",
            s.dot_variance, s.max_weight, s.entropy, s.gradient
        )
    };
    for p in &points {
        println!(
            "{:>5} | {} | {}",
            p.d_k,
            cells(&p.unscaled),
            cells(&p.scaled)
        );
    }

    // The setting a slider move recomputes in the app.
    let dims = log_spaced_dims(512);
    let start = Instant::now();
    let mut runs = 0u32;
    while start.elapsed() < MIN_TIME {
        std::hint::black_box(scaling_experiment(&dims, 8, 200, seed).ok());
        runs += 1;
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0 / f64::from(runs);
    println!("\nd_k = 1, 2, …, 512, keys = 8, draws = 200: {ms:.2} ms per run");
}
