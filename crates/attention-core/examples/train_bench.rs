//! Native training speed on every task with the default optimizer.
//! Run with `cargo run --release -p attention-core --example train_bench`.
//! A benchmark to read, not a test to pass; the goal is ≥ 10,000 steps/s in
//! WebAssembly for the default task, which is about 2–3× slower than native.

use attention_core::train::{default_optimizer, task, TaskId, Trainer};
use std::time::{Duration, Instant};

/// Each task trains for at least this long, restarting every `RESTART` steps
/// so the loss curve does not grow without bound.
const MIN_TIME: Duration = Duration::from_millis(500);
const RESTART: usize = 2_000;

fn main() {
    println!(
        "\nNative training steps per second (one full-batch step: forward, loss, backward, update)"
    );
    println!(
        "{:>14} {:>6} {:>6} {:>12} {:>12}",
        "task", "T", "d", "steps/s", "µs per step"
    );
    for id in TaskId::ALL {
        let task = task(id);
        let (t, d) = task.x().dim();
        let start = Instant::now();
        let mut steps = 0usize;
        let mut seed = 1;
        while start.elapsed() < MIN_TIME {
            let mut trainer = Trainer::new(task.clone(), default_optimizer(), seed);
            for _ in 0..RESTART {
                std::hint::black_box(trainer.step());
            }
            steps += RESTART;
            seed += 1;
        }
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{:>14} {t:>6} {d:>6} {:>12.0} {:>12.2}",
            id.id(),
            steps as f64 / seconds,
            seconds / steps as f64 * 1e6
        );
    }
}
