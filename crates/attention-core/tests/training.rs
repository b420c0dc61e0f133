//! Training solves every task from several seeds, every optimizer learns, and
//! a run is exactly reproducible.

use attention_core::train::{default_optimizer, task, Optimizer, TaskId, Trainer};
use ndarray::s;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=5;

/// Steps until the loss first falls below the task's threshold, if it does
/// within `limit` steps.
fn steps_to_threshold(trainer: &mut Trainer, limit: usize) -> Option<usize> {
    let threshold = trainer.task().threshold();
    (1..=limit).find(|_| trainer.step() < threshold)
}

#[test]
fn every_task_reaches_its_threshold_within_its_budget() {
    for id in TaskId::ALL {
        let task = task(id);
        for seed in SEEDS {
            let mut trainer = Trainer::new(task.clone(), default_optimizer(), seed);
            let start = trainer.loss();
            assert!(
                start > task.threshold(),
                "{id:?} seed {seed} starts solved: {start}"
            );
            let steps = steps_to_threshold(&mut trainer, task.budget());
            assert!(
                steps.is_some(),
                "{id:?} seed {seed}: loss {} after {} steps",
                trainer.loss(),
                task.budget()
            );
        }
    }
}

#[test]
fn the_default_task_is_pronoun_and_fast() {
    assert_eq!(TaskId::default(), TaskId::Pronoun);
    assert!(task(TaskId::Pronoun).budget() <= 300);
}

#[test]
fn solved_tasks_attend_as_documented() {
    for seed in SEEDS {
        let train = |id| {
            let mut trainer = Trainer::new(task(id), default_optimizer(), seed);
            let budget = trainer.task().budget();
            steps_to_threshold(&mut trainer, budget);
            trainer
                .scenario()
                .run()
                .expect("a trained head runs")
                .into_head(0)
        };
        // Pronoun: the second 他 gives the first at least 95 %.
        let trace = train(TaskId::Pronoun);
        assert!(trace.weights[[0, 2, 0]] > 0.95, "seed {seed}");

        // Same speaker: every frame gives its own speaker most of its attention.
        let trace = train(TaskId::SameSpeaker);
        let speakers: Vec<char> = task(TaskId::SameSpeaker)
            .tokens()
            .iter()
            .map(|label| label.chars().next().unwrap_or('?'))
            .collect();
        for (i, row) in trace
            .weights
            .slice(s![0, .., ..])
            .rows()
            .into_iter()
            .enumerate()
        {
            let own: f64 = (0..row.len())
                .filter(|&j| speakers[j] == speakers[i])
                .map(|j| row[j])
                .sum();
            assert!(own > 0.8, "seed {seed}, frame {i}: {own}");
        }

        // Retrieve: each question attends most to the animal it names, and its
        // output carries that animal's facts.
        let trace = train(TaskId::Retrieve);
        for (question, animal) in [(4usize, 2usize), (5, 0)] {
            let row = trace.weights.slice(s![0, question, ..]);
            assert!(
                row[animal] > 0.85,
                "seed {seed}, question {question}: {row}"
            );
            let output = trace.output.slice(s![0, question, ..]);
            let target = trace.x.slice(s![0, animal, ..]);
            let error = output
                .iter()
                .zip(target)
                .map(|(b, t)| (b - t).abs())
                .fold(0.0, f64::max);
            assert!(
                error < 0.15,
                "seed {seed}, question {question}: {output} vs {target}"
            );
        }
    }
}

#[test]
fn sgd_and_momentum_learn_the_default_task_too() {
    let pronoun = task(TaskId::Pronoun);
    for optimizer in [
        Optimizer::sgd(0.1),
        Optimizer::momentum(0.05),
        Optimizer::sgd(0.5),
    ] {
        for seed in SEEDS {
            let mut trainer = Trainer::new(pronoun.clone(), optimizer, seed);
            let start = trainer.loss();
            let steps = steps_to_threshold(&mut trainer, 400);
            assert!(
                steps.is_some(),
                "{optimizer:?} seed {seed}: {start} → {}",
                trainer.loss()
            );
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_bits() {
    for id in TaskId::ALL {
        for optimizer in [
            default_optimizer(),
            Optimizer::sgd(0.3),
            Optimizer::momentum(0.1),
        ] {
            let run = |seed| {
                let mut trainer = Trainer::new(task(id), optimizer, seed);
                for _ in 0..100 {
                    trainer.step();
                }
                trainer
            };
            let (a, b) = (run(3), run(3));
            let bits = |t: &Trainer| t.losses().iter().map(|l| l.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&a), bits(&b), "{id:?}");
            assert_eq!(a.head(), b.head());
            assert_ne!(bits(&a), bits(&run(4)), "{id:?}: seeds 3 and 4");
        }
    }
}

#[test]
fn losses_and_steps_keep_count() {
    let mut trainer = Trainer::new(task(TaskId::Pronoun), default_optimizer(), 1);
    assert_eq!(trainer.steps(), 0);
    assert_eq!(trainer.losses().len(), 1);
    let loss = trainer.step();
    assert_eq!(trainer.steps(), 1);
    assert_eq!(trainer.losses(), &[trainer.losses()[0], loss]);
    assert_eq!(trainer.loss(), loss);
}

#[test]
fn frozen_matrices_never_move() {
    for id in TaskId::ALL {
        let mut trainer = Trainer::new(task(id), default_optimizer(), 2);
        let start = trainer.head().clone();
        for _ in 0..20 {
            trainer.step();
        }
        let trainable = trainer.task().trainable();
        let head = trainer.head();
        assert_eq!(head.w_q != start.w_q, trainable.w_q, "{id:?}");
        assert_eq!(head.w_k != start.w_k, trainable.w_k, "{id:?}");
        assert_eq!(head.w_v != start.w_v, trainable.w_v, "{id:?}");
        if let Some(w_v) = trainer.task().fixed_w_v() {
            assert_eq!(&head.w_v, w_v);
        }
    }
}

#[test]
fn the_gradient_is_the_one_of_the_current_head() {
    use attention_core::train::loss_and_gradients;
    let mut trainer = Trainer::new(task(TaskId::Retrieve), default_optimizer(), 5);
    for _ in 0..7 {
        trainer.step();
    }
    let scenario = trainer.scenario();
    let x = scenario.x.slice(s![0, .., ..]);
    let t = trainer.task();
    let (loss, gradients) = loss_and_gradients(x, trainer.head(), t.mask(), t.options(), t.loss())
        .expect("valid input");
    assert_eq!(loss, trainer.loss());
    assert_eq!(&gradients, trainer.gradients());
}

#[test]
fn changing_the_learning_rate_keeps_the_head_and_the_momentum() {
    let mut a = Trainer::new(task(TaskId::Pronoun), Optimizer::adam(0.02), 1);
    for _ in 0..10 {
        a.step();
    }
    let head = a.head().clone();
    let mut b = a.clone();
    a.set_optimizer(Optimizer::adam(0.01));
    assert_eq!(a.head(), &head);
    // Halving lr with Adam's memory kept is not a fresh start …
    let mut fresh = b.clone();
    fresh.set_optimizer(Optimizer::sgd(0.01));
    fresh.set_optimizer(Optimizer::adam(0.01));
    a.step();
    fresh.step();
    assert_ne!(a.head(), fresh.head());
    // … and the same settings give the same step as never changing at all.
    b.set_optimizer(Optimizer::adam(0.02));
    let mut c = b.clone();
    b.step();
    c.set_optimizer(Optimizer::adam(0.02));
    c.step();
    assert_eq!(b.head(), c.head());
}

#[test]
fn a_huge_learning_rate_never_gives_nan() {
    for optimizer in [
        Optimizer::sgd(1e300),
        Optimizer::momentum(1e200),
        Optimizer::adam(1e300),
    ] {
        for id in TaskId::ALL {
            let mut trainer = Trainer::new(task(id), optimizer, 1);
            for _ in 0..20 {
                let loss = trainer.step();
                assert!(loss.is_finite(), "{id:?} {optimizer:?}");
            }
            assert!(trainer.head().w_q.iter().all(|v| v.is_finite()));
            assert!(trainer.scenario().run().is_ok(), "{id:?} {optimizer:?}");
        }
    }
}

/// The loss of a layer of `heads` heads as `Task::with_heads` defines it,
/// computed the slow way, from `forward_heads`'s trace: the heads' weights
/// averaged and their outputs joined.
fn layer_loss(trainer: &Trainer, weights: &attention_core::Head) -> f64 {
    let t = trainer.task();
    let mut scenario = trainer.scenario();
    scenario.head = weights.clone();
    let layer = scenario.run().expect("a trainer's layer runs");
    let heads = layer.heads.len() as f64;
    let mean = layer
        .heads
        .iter()
        .map(|head| head.weights.slice(s![0, .., ..]).to_owned())
        .reduce(|a, b| a + b)
        .expect("at least one head")
        / heads;
    let concat = layer.concat.slice(s![0, .., ..]);
    t.loss().evaluate(mean.view(), concat).0
}

#[test]
fn several_heads_train_every_task_within_its_budget() {
    for heads in [2, 4] {
        for id in TaskId::ALL {
            let task = task(id).with_heads(heads).expect("8 columns split");
            for seed in SEEDS {
                let mut trainer = Trainer::new(task.clone(), default_optimizer(), seed);
                assert!(trainer.loss() > task.threshold(), "{id:?} starts solved");
                assert!(
                    steps_to_threshold(&mut trainer, task.budget()).is_some(),
                    "{heads} heads, {id:?} seed {seed}: loss {}",
                    trainer.loss()
                );
                assert_eq!(trainer.scenario().heads, heads);
            }
        }
    }
}

#[test]
fn two_heads_start_from_one_heads_numbers_split_in_two() {
    let one = Trainer::new(task(TaskId::Pronoun), default_optimizer(), 1);
    let two = Trainer::new(
        task(TaskId::Pronoun)
            .with_heads(2)
            .expect("8 columns split"),
        default_optimizer(),
        1,
    );
    assert_eq!(one.head(), two.head(), "the same width, the same numbers");
    assert_ne!(
        one.loss(),
        two.loss(),
        "but two heads of d_k = 4 score differently"
    );
    let same = task(TaskId::Pronoun).with_heads(1).expect("one head");
    let mut a = Trainer::new(same, default_optimizer(), 1);
    let mut b = Trainer::new(task(TaskId::Pronoun), default_optimizer(), 1);
    for _ in 0..30 {
        assert_eq!(a.step().to_bits(), b.step().to_bits());
    }
}

#[test]
fn several_heads_learn_the_loss_of_their_layer_and_its_gradient() {
    for (heads, id, seed) in [
        (2, TaskId::Pronoun, 1),
        (2, TaskId::Retrieve, 2),
        (4, TaskId::SameSpeaker, 3),
    ] {
        let mut trainer = Trainer::new(
            task(id).with_heads(heads).expect("8 columns split"),
            default_optimizer(),
            seed,
        );
        for _ in 0..5 {
            trainer.step();
        }
        let loss = layer_loss(&trainer, trainer.head());
        assert!(
            (loss - trainer.loss()).abs() <= 1e-12 * (1.0 + loss.abs()),
            "{id:?}: {loss} vs {}",
            trainer.loss()
        );
        // Every weight's derivative, by the five-point central difference.
        let step = 1e-4;
        let g = trainer.gradients();
        for (which, grad) in [&g.w_q, &g.w_k, &g.w_v].into_iter().enumerate() {
            for (index, &analytic) in grad.indexed_iter() {
                let at = |delta: f64| {
                    let mut weights = trainer.head().clone();
                    [&mut weights.w_q, &mut weights.w_k, &mut weights.w_v][which][index] += delta;
                    layer_loss(&trainer, &weights)
                };
                let numerical = (8.0 * (at(step) - at(-step)) - (at(2.0 * step) - at(-2.0 * step)))
                    / (12.0 * step);
                let floor = 1e-6 * (1.0 + loss.abs());
                let error =
                    (analytic - numerical).abs() / (analytic.abs() + numerical.abs()).max(floor);
                assert!(
                    error <= 1e-4,
                    "{heads} heads, {id:?}, matrix {which}{index:?}: {analytic:e} vs {numerical:e}"
                );
            }
        }
    }
}
