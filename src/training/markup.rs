//! The training card as HTML: the task and its loss, the optimizer and
//! learning rate, Play/Step/Reset with the step count, the loss curve, and a
//! heatmap of each weight matrix's gradient with its biggest entry named.
//! Each control names its action (`data-action`) for the card's one listener;
//! pure, so tests read it natively.

use super::action::Control;
use super::action::HEADS;
use super::curve::loss_curve;
use super::OptimizerKind;
use crate::action::action_button;
use crate::diagrams::matrix::markup::{heatmap, MatrixSpec};
use crate::diagrams::matrix::Palette;
use crate::geometry::format::{fixed, two_decimals};
use crate::i18n::{training as text, Lang, Msg};
use crate::svg::Markup;
use attention_core::train::{TaskId, Trainer};
use ndarray::Array2;

/// Everything the card shows.
pub struct TrainingView<'a> {
    pub lang: Lang,
    pub trainer: &'a Trainer,
    pub optimizer: OptimizerKind,
    pub lr: f64,
    pub playing: bool,
}

/// The slider position for a learning rate: 100 × log₁₀ lr, so the slider
/// spans 0.001 to 2 evenly in orders of magnitude.
pub fn slider_of(lr: f64) -> i32 {
    (lr.log10() * 100.0).round() as i32
}

/// The learning rate at a slider position; see [`slider_of`].
pub fn lr_of(slider: i32) -> f64 {
    10f64.powf(f64::from(slider.clamp(SLIDER_MIN, SLIDER_MAX)) / 100.0)
}

const SLIDER_MIN: i32 = -300;
const SLIDER_MAX: i32 = 30;

fn task_texts(id: TaskId) -> (Msg, Msg) {
    match id {
        TaskId::Pronoun => (text::TASK_PRONOUN, text::LOSS_PRONOUN),
        TaskId::SameSpeaker => (text::TASK_SPEAKER, text::LOSS_SPEAKER),
        TaskId::Retrieve => (text::TASK_RETRIEVE, text::LOSS_RETRIEVE),
    }
}

fn select<T: Copy + PartialEq>(
    m: &mut Markup,
    label: Msg,
    control: Control,
    options: &[(T, &str, &str)],
    chosen: T,
    lang: Lang,
) {
    m.open("label", &[]).text(label.get(lang)).text(" ");
    m.start("select")
        .attr("data-action", control.name())
        .attr("data-testid", control.name())
        .end();
    for (value, id, name) in options {
        m.option(id, *value == chosen, name);
    }
    m.close("select").close("label");
}

/// The card's markup.
pub fn training(view: &TrainingView) -> String {
    let (lang, trainer) = (view.lang, view.trainer);
    let task = trainer.task();
    let mut m = Markup::new();
    m.open_fold("training-fold", "h2", text::TITLE.get(lang));
    m.element("p", &[("class", "explain")], text::INTRO.get(lang));
    m.open("div", &[("class", "share-row")]);
    let tasks = TaskId::ALL.map(|id| (id, id.id(), task_texts(id).0.get(lang)));
    select(&mut m, text::TASK, Control::Task, &tasks, task.id(), lang);
    let ids = HEADS.map(|h| h.to_string());
    let names = HEADS.map(|h| {
        let unit = if h == 1 {
            text::HEAD_ONE
        } else {
            text::HEAD_MANY
        };
        format!("{h}{}d_k = {}", unit.get(lang), task.d_k() / h)
    });
    let heads: Vec<(usize, &str, &str)> = HEADS
        .iter()
        .zip(&ids)
        .zip(&names)
        .map(|((&h, id), name)| (h, id.as_str(), name.as_str()))
        .collect();
    select(
        &mut m,
        text::HEADS,
        Control::Heads,
        &heads,
        task.heads(),
        lang,
    );
    m.close("div");
    let loss_text = [("class", "explain"), ("data-testid", "train-loss-text")];
    m.open("p", &loss_text)
        .text(task_texts(task.id()).1.get(lang));
    if task.heads() > 1 {
        m.text(" ").text(text::HEADS_LOSS.get(lang));
    }
    m.close("p");
    m.open("div", &[("class", "share-row")]);
    let optimizers = OptimizerKind::ALL.map(|k| (k, k.id(), k.name().get(lang)));
    select(
        &mut m,
        text::OPTIMIZER,
        Control::Optimizer,
        &optimizers,
        view.optimizer,
        lang,
    );
    let (slider, min, max) = (
        slider_of(view.lr).to_string(),
        SLIDER_MIN.to_string(),
        SLIDER_MAX.to_string(),
    );
    m.open("label", &[])
        .text(text::LEARNING_RATE.get(lang))
        .text(" ");
    m.start("input")
        .attr("type", "range")
        .attr("min", &min)
        .attr("max", &max)
        .attr("value", &slider)
        .attr("data-action", Control::Rate.name())
        .attr("data-testid", Control::Rate.name())
        .end_empty();
    m.element(
        "output",
        &[("data-testid", "train-lr-value")],
        &fixed(view.lr, 3),
    );
    m.close("label").close("div");
    m.open("div", &[("class", "share-row")]);
    let play = if view.playing {
        text::PAUSE
    } else {
        text::PLAY
    };
    action_button(&mut m, Control::Play.name(), play.get(lang));
    action_button(&mut m, Control::Step.name(), text::STEP.get(lang));
    action_button(&mut m, Control::Reset.name(), text::RESET.get(lang));
    let progress = format!(
        "{}{} · {}{}",
        text::STEPS.get(lang),
        trainer.steps(),
        text::LOSS_NOW.get(lang),
        fixed(trainer.loss(), 4)
    );
    let playing = if view.playing { "true" } else { "false" };
    let status = [("data-testid", "train-progress"), ("data-playing", playing)];
    m.element("span", &status, &progress);
    m.close("div");
    m.raw(&loss_curve(
        trainer.losses(),
        task.threshold(),
        text::CURVE_ARIA.get(lang),
    ));
    if trainer.steps() > 0 && trainer.loss() < task.threshold() {
        m.element(
            "p",
            &[("role", "status"), ("data-testid", "train-reached")],
            text::REACHED.get(lang),
        );
    }
    gradients(&mut m, trainer, lang);
    let back = [
        ("type", "button"),
        ("class", "link-button"),
        ("data-action", Control::LearningStep.name()),
    ];
    m.element("button", &back, text::LEARNING_STEP.get(lang));
    m.close("details");
    m.finish()
}

/// The largest entry of `m` by size: its row, column and value.
fn largest(m: &Array2<f64>) -> Option<((usize, usize), f64)> {
    m.indexed_iter()
        .map(|(at, &v)| (at, v))
        .fold(None, |best, (at, v)| match best {
            Some((_, b)) if f64::abs(b) >= v.abs() => best,
            _ => Some((at, v)),
        })
}

fn gradients(m: &mut Markup, trainer: &Trainer, lang: Lang) {
    let g = trainer.gradients();
    let frozen = trainer.task().trainable();
    m.element("h3", &[], text::GRADIENTS.get(lang));
    m.open("div", &[("class", "gradients")]);
    let matrices = [
        ("grad-w-q", "∂L/∂W_Q", "W_Q", &g.w_q, frozen.w_q),
        ("grad-w-k", "∂L/∂W_K", "W_K", &g.w_k, frozen.w_k),
        ("grad-w-v", "∂L/∂W_V", "W_V", &g.w_v, frozen.w_v),
    ];
    for (testid, title, name, values, trains) in matrices {
        let rows: Vec<String> = (1..=values.nrows()).map(|i| i.to_string()).collect();
        let cols: Vec<String> = (1..=values.ncols()).map(|i| i.to_string()).collect();
        m.start("figure")
            .attr(
                "class",
                if trains {
                    "gradient"
                } else {
                    "gradient frozen"
                },
            )
            .end();
        let caption = if trains {
            title.to_owned()
        } else {
            format!("{title} {}", text::FROZEN.get(lang))
        };
        m.element("figcaption", &[], &caption);
        let spec = MatrixSpec {
            testid,
            symbol: title,
            // Gradients have no masked cells.
            masked_word: "",
            aria: title,
            values,
            origin: (0, 0),
            row_labels: &rows,
            col_labels: &cols,
            palette: Palette::Signed,
            extent: None,
            allowed: None,
            changed: None,
            decimals: 2,
            draggable: false,
            // Written whole into the card's own markup, which has no canvas.
            painted: false,
        };
        m.raw(&heatmap(&spec));
        if let (true, Some(((r, c), v))) = (trains, largest(values)) {
            let note = format!(
                "{}{name}[{}, {}] = {}",
                text::LARGEST.get(lang),
                r + 1,
                c + 1,
                two_decimals(v)
            );
            m.element("p", &[("class", "caption")], &note);
        }
        m.close("figure");
    }
    m.close("div");
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::train::{default_optimizer, task};
    use ndarray::array;

    #[test]
    fn the_slider_spans_orders_of_magnitude_and_reads_back() {
        for lr in [0.001, 0.02, 0.5, 2.0] {
            assert!((lr_of(slider_of(lr)) - lr).abs() / lr < 0.012, "{lr}");
        }
        assert_eq!(lr_of(10_000), lr_of(SLIDER_MAX));
    }

    #[test]
    fn the_largest_gradient_is_found_by_size() {
        assert_eq!(
            largest(&array![[0.1, -0.5], [0.4, 0.0]]),
            Some(((0, 1), -0.5))
        );
    }

    #[test]
    fn the_card_shows_the_task_progress_and_every_gradient() {
        let mut trainer = Trainer::new(task(TaskId::Pronoun), default_optimizer(), 1);
        trainer.step();
        let html = training(&TrainingView {
            lang: Lang::En,
            trainer: &trainer,
            optimizer: OptimizerKind::Adam,
            lr: 0.02,
            playing: true,
        });
        for testid in [
            "train-play",
            "train-step",
            "train-reset",
            "loss-curve",
            "grad-w-q",
            "grad-w-k",
            "grad-w-v",
        ] {
            assert!(
                html.contains(&format!("data-testid=\"{testid}\"")),
                "{testid}"
            );
        }
        assert!(html.contains("⏸ Pause") && html.contains("Steps: 1"));
        assert!(html.contains("(frozen in this task)"));
        assert!(html.contains("<option value=\"pronoun\" selected=\"\">"));
    }

    #[test]
    fn the_heads_choice_names_each_heads_width_and_more_heads_explain_the_loss() {
        let view = |trainer: &Trainer, lang| {
            training(&TrainingView {
                lang,
                trainer,
                optimizer: OptimizerKind::Adam,
                lr: 0.02,
                playing: false,
            })
        };
        let one = Trainer::new(task(TaskId::Pronoun), default_optimizer(), 1);
        let html = view(&one, Lang::En);
        assert!(html.contains("data-testid=\"train-heads\""));
        assert!(html.contains("<option value=\"1\" selected=\"\">1 head, d_k = 8</option>"));
        assert!(html.contains("<option value=\"4\">4 heads, d_k = 2</option>"));
        assert!(!html.contains(text::HEADS_LOSS.get(Lang::En)));
        let two = task(TaskId::Pronoun).with_heads(2).unwrap();
        let two = Trainer::new(two, default_optimizer(), 1);
        let html = view(&two, Lang::Zh);
        assert!(html.contains("<option value=\"2\" selected=\"\">2 个头，d_k = 4</option>"));
        assert!(html.contains(text::HEADS_LOSS.get(Lang::Zh)));
    }
}
