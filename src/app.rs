//! The app shell: it creates the shared state (`crate::state`), reads the link,
//! handles the language and keyboard selection, and lays out the page: the
//! header, then every card of the registry (`crate::cards`) in its slot. No
//! module imports it.

mod header;

use crate::action::Heard;
use crate::cards::Card;
use crate::classroom::{own_meta, Completion, Lms};
use crate::controls::scenarios::{Choice, Picked};
use crate::controls::Controls;
use crate::diagrams::block::BlockCard;
use crate::diagrams::dot_products::DotProducts;
use crate::diagrams::feed_forward::FeedForward;
use crate::diagrams::fusion::Fusion;
use crate::diagrams::generation::GenerationCard;
use crate::diagrams::heads::Heads;
use crate::diagrams::order::WordOrder;
use crate::diagrams::output::OutputProjection;
use crate::diagrams::positions::PositionsCard;
use crate::diagrams::projection::Projection;
use crate::diagrams::rope::Rope;
use crate::diagrams::softmax::Softmax;
use crate::experiment::ScalingExperiment;
use crate::i18n::{self, tr, Lang, LangContext};
use crate::lab::{token_labels, BlockView, LabError, LayerView, SequenceTrace};
use crate::lessons::{CurrentLesson, LessonMenu};
use crate::link::sync::{
    keep_in_link, link_search, navigation_from_link, parameter, resume_saved_work,
    scenario_from_link, Keeper, LinkedState,
};
use crate::link::{read_embedding, unreadable_navigation, without_embedding, Navigation};
use crate::mistakes::CommonMistakes;
use crate::page::ActionCard;
use crate::page::Skipped;
use crate::share::Share;
use crate::state::{Focus, Lab, LinkProblem};
use crate::training::Training;
use crate::walkthrough::{Step, Tour, TourAction, Walkthrough};
use attention_core::Scenario;
use header::{header, HeaderAction, HeaderView};
use leptos::prelude::*;

/// The language a link asks for (`?lang=zh|en`), or else the browser's.
fn initial_lang(nav: &Navigation) -> Lang {
    nav.lang.unwrap_or_else(|| {
        let tag = window().navigator().language().unwrap_or_default();
        Lang::from_browser_tag(&tag)
    })
}

/// The next query for an arrow, Home or End key, or None for any other key:
/// the tokens as one row of a grid (`grid::step`), along which down and up
/// move too.
pub fn query_after_key(key: &str, query: usize, tokens: usize) -> Option<usize> {
    let key = match key {
        "ArrowDown" => "ArrowRight",
        "ArrowUp" => "ArrowLeft",
        // The Page keys scroll the page.
        "PageUp" | "PageDown" => return None,
        other => other,
    };
    crate::geometry::grid::step(key, (0, query), (1, tokens)).map(|(_, q)| q)
}

/// Whether a key press belongs to a text field or slider, was taken by a
/// composite (a heatmap's grid, the token list, a row of bars), whose keys
/// move focus within it, or is a chord of the browser's (Alt+← is Back),
/// rather than to the query.
fn key_belongs_to_a_widget(event: &web_sys::KeyboardEvent) -> bool {
    use leptos::wasm_bindgen::JsCast;
    event.default_prevented()
        || crate::action::plain_key(event).is_none()
        || event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/embed.js")]
extern "C" {
    /// In an iframe, keeps the course page told of the content's height.
    #[wasm_bindgen(js_name = reportHeight)]
    fn report_height();
    /// Opens every folded card part once the page is drawn.
    #[wasm_bindgen(js_name = unfoldPanels)]
    fn unfold_panels();
}

/// Copies the page's link, which always holds what is on screen, and says so
/// for a moment.
fn copy_link(copied: RwSignal<bool>) {
    let href = window().location().href().unwrap_or_default();
    let _ = window().navigator().clipboard().write_text(&href);
    copied.set(true);
    set_timeout(move || copied.set(false), std::time::Duration::from_secs(2));
}

/// The whole app: the header, then every card of the registry.
#[component]
pub fn App() -> impl IntoView {
    let embedding = read_embedding(parameter);
    // Launched by an LMS, the page reports to it and keeps the work there.
    let lms = Lms::connect();
    let keeper = match lms {
        Some(lms) => Keeper::Lms(lms),
        None if embedding.embed => Keeper::Nowhere,
        None => Keeper::Browser,
    };
    resume_saved_work(keeper);
    let nav = navigation_from_link();
    if embedding.embed {
        report_height();
    }
    if embedding.panels.is_some() {
        unfold_panels();
    }
    let lang = RwSignal::new(initial_lang(&nav));
    provide_context(LangContext(lang));
    let (start, scenario_problem) = scenario_from_link();
    let link_problem = scenario_problem.or_else(|| {
        unreadable_navigation(parameter).map(|name| LabError::IgnoredParameter(name.into()))
    });
    let scenario = RwSignal::new(start);
    provide_context(LinkProblem(link_problem));
    let focus = Focus {
        query: RwSignal::new(nav.query),
        key: RwSignal::new(nav.key),
        sequence: RwSignal::new(nav.sequence),
        head: RwSignal::new(nav.head),
        layer: RwSignal::new(nav.layer),
    };
    // A block is run once per change; the diagrams show its shown layer's attention.
    let block_trace = Memo::new(move |_| scenario.with(Scenario::run_block));
    let trace = Memo::new(move |_| {
        block_trace.with(|block| match block {
            Ok(Some(block)) => {
                let layer = focus.layer.get().min(block.layers.len() - 1);
                Ok(block.layers[layer].attention.clone())
            }
            Ok(None) => scenario.with(Scenario::run),
            Err(error) => Err(error.clone()),
        })
    });
    let block = Memo::new(move |_| {
        let labels = scenario.with(token_labels);
        block_trace.with(|trace| {
            let trace = trace.as_ref().ok()?.as_ref()?;
            scenario.with(|s| {
                BlockView::new(
                    s.block.as_ref()?,
                    trace,
                    focus.layer.get(),
                    focus.sequence.get(),
                    labels,
                )
            })
        })
    });
    let view = Memo::new(move |_| {
        let labels = scenario.with(token_labels);
        trace.with(|layer| {
            let layer = layer.as_ref().ok()?;
            // A head past the last (after the heads were made fewer) shows the last.
            let head = focus.head.get().min(layer.heads.len() - 1);
            let trace = &layer.heads[head];
            Some(SequenceTrace::new(trace, focus.sequence.get(), labels))
        })
    });
    let layer = Memo::new(move |_| {
        trace.with(|layer| {
            let layer = layer.as_ref().ok().filter(|l| !l.is_single_head())?;
            Some(LayerView::new(layer, focus.sequence.get()))
        })
    });
    let shuffle = RwSignal::new(nav.shuffle);
    let tables = RwSignal::new(nav.tables);
    let shown_head = Memo::new(move |_| {
        let heads = scenario.with(|s| s.heads);
        (heads > 1).then(|| (focus.head.get().min(heads - 1) + 1, heads))
    });
    provide_context(Lab {
        scenario,
        trace,
        block,
        view,
        layer,
        focus,
        shuffle,
        tables,
        locked: embedding.lock,
        shown_head,
    });
    // A plain visit draws the cards below the four diagrams after the first
    // frame (docs/performance-log.md: start-up). A link that picks panels (every
    // embed does) may show just those cards, and one that opens on a
    // walkthrough step scrolls to its diagram: they draw every card at once.
    let opened_lesson = nav.opened_lesson();
    let defer_later = embedding.panels.is_none() && nav.step.is_none() && opened_lesson.is_none();
    provide_context(Skipped::watch(defer_later));
    let picked = RwSignal::new(nav.scenario.unwrap_or_default());
    provide_context(Picked(picked));
    let tour = Tour::new();
    tour.step.set(nav.step);
    provide_context(tour);
    let lesson = RwSignal::new(opened_lesson.unwrap_or_default());
    provide_context(CurrentLesson(lesson));
    let linked = LinkedState {
        scenario,
        focus,
        tour,
        lang,
        tables,
        picked,
        shuffle,
        lesson,
        keeper,
    };
    provide_context(linked);
    keep_in_link(linked);
    if let Some(lms) = lms {
        // Said as it happens, as well as shown in the header, which may be
        // scrolled away.
        Effect::new(move |was_cut: Option<bool>| {
            let cut = lms.cut_short.get();
            if cut && was_cut == Some(false) {
                crate::announce::announce("lms", i18n::WORK_CUT_SHORT.get(lang.get_untracked()));
            }
            cut
        });
        // The rule the package carries (the teacher chose it when building
        // it); one naming a scenario the list no longer has would never be
        // met, so the walkthrough counts instead.
        let rule = match Completion::from_text(&own_meta("completion").unwrap_or_default()) {
            Completion::Prediction(id) if Choice::from_id(&id).is_none() => Completion::Walkthrough,
            rule => rule,
        };
        Effect::new(move |_| {
            let answered = tour.guess.with(Option::is_some);
            if rule.met(tour.finished.get(), answered, picked.get().id()) {
                lms.complete();
            }
        });
    }
    // An embedded figure links to the whole app, on the same state. Only an
    // embed reads the link for it: encoding the scenario on every change
    // costs milliseconds a full page has no use for.
    let embedded = embedding.embed;
    let full_app =
        move || embedded.then(|| format!("./{}", without_embedding(&link_search(linked))));

    // Keep the selection inside the scenario when tokens or heads are
    // removed, or a link names a position or head that does not exist.
    Effect::new(move |_| {
        let (b, t) = scenario.with(|s| (s.x.dim().0, s.x.dim().1));
        if focus.sequence.get_untracked() >= b {
            focus.sequence.set(b - 1);
        }
        if focus.query.get_untracked() >= t {
            focus.query.set(t - 1);
        }
        if focus.key.get_untracked() >= t {
            focus.key.set(t - 1);
        }
        let heads = scenario.with(|s| s.heads);
        if focus.head.get_untracked() >= heads {
            focus.head.set(heads - 1);
        }
        let layers = scenario.with(Scenario::layer_count);
        if focus.layer.get_untracked() >= layers {
            focus.layer.set(layers - 1);
        }
    });
    Effect::new(move |_| {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", lang.get().tag());
        }
    });
    let on_keydown = move |event: web_sys::KeyboardEvent| {
        if key_belongs_to_a_widget(&event) {
            return;
        }
        if tour.step.get_untracked().is_some() {
            if let Some(action) = TourAction::read_key(&event.key()) {
                event.prevent_default();
                tour.run(action);
                return;
            }
        }
        let t = scenario.with(|s| s.x.dim().1);
        if let Some(next) = query_after_key(&event.key(), focus.query.get_untracked(), t) {
            event.prevent_default();
            focus.query.set(next);
        }
    };
    let problem = move || {
        let lang = lang.get();
        trace.with(|t| {
            t.as_ref()
                .err()
                .map(|error| i18n::errors::attention_error(error, lang))
        })
    };
    let copied = RwSignal::new(false);
    crate::announce::keep_announcing();
    // Apart from the scenario, so an edit that keeps the heads writes no header.
    let several_heads = Memo::new(move |_| shown_head.with(Option::is_some));
    // A new deployment, found by the offline worker (src/offline/register.js).
    let update_ready = RwSignal::new(false);
    let ready = window_event_listener_untyped("lab-update-ready", move |_| update_ready.set(true));
    on_cleanup(move || ready.remove());
    let top = Memo::new(move |_| {
        let view = HeaderView {
            tables: tables.get(),
            copied: copied.get(),
            several_heads: several_heads.get(),
            update_ready: update_ready.get(),
            work_cut_short: lms.is_some_and(|lms| lms.cut_short.get()),
        };
        header(view, lang.get())
    });
    let on_header = Callback::new(
        move |heard: Heard| match HeaderAction::read(&heard.reading()) {
            Some(HeaderAction::Tables(on)) => tables.set(on),
            Some(HeaderAction::CopyLink) => copy_link(copied),
            Some(HeaderAction::Skip) => {
                use leptos::wasm_bindgen::JsCast;
                let diagrams = document().get_element_by_id("diagrams");
                if let Some(card) = diagrams.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = card.focus();
                }
            }
            Some(HeaderAction::Reload) => {
                // The worker takes over, and the page reloads (register.js).
                if let Ok(accept) = web_sys::Event::new("lab-update-accept") {
                    let _ = window().dispatch_event(&accept);
                }
            }
            Some(HeaderAction::SwitchLanguage) => lang.update(|l| {
                *l = match l {
                    Lang::Zh => Lang::En,
                    Lang::En => Lang::Zh,
                }
            }),
            None => {}
        },
    );

    view! {
        <div
            class="app"
            data-testid="app"
            data-query=move || focus.query.get()
            data-step=move || tour.step.get().map(Step::id)
            data-focus=move || tour.step.get().map(|step| step.card().panel())
            data-guessed=move || tour.guess.with(Option::is_some).then_some("true")
            data-tables=move || tables.get().then_some("1")
            data-embed=embedding.embed.then_some("1")
            data-lock=embedding.lock.then_some("1")
            data-panels=embedding.panels
            tabindex="-1"
            on:keydown=on_keydown
        >
            <ActionCard class="app-top" testid="header" markup=top on_action=on_header />
            // A course page's figure shows only its panels, no way to others.
            {(!embedding.embed).then(|| view! { <LessonMenu opened_from_link=opened_lesson.is_some() /> })}
            <main>
                // Hidden rather than removed when the scenario runs: a paragraph
                // that comes and goes would cost far more WebAssembly.
                <p class="problem" role="alert" data-testid="problem" hidden=move || problem().is_none()>
                    {tr(i18n::INPUT_PROBLEM)}
                    ": "
                    {move || problem().unwrap_or_default()}
                </p>
                {Card::ALL.map(|card| {
                    let spec = card.spec();
                    let shown = card.shown_with(embedding.panels.as_deref(), embedding.lock);
                    let focused = move || {
                        let step_card = tour.step.get().map(Step::card);
                        step_card.is_some_and(|c| c.panel() == spec.panel).then_some("")
                    };
                    view! {
                        <div
                            class="slot"
                            data-card=spec.panel
                            data-later=spec.later.then_some("")
                            data-unpicked=(!shown).then_some("")
                            data-focused=focused
                        >
                            {card_view(card)}
                        </div>
                    }
                })}
                <a
                    class="full-app"
                    data-testid="open-full-app"
                    href=full_app
                    target="_blank"
                    rel="noopener"
                    hidden=!embedding.embed
                >
                    {tr(i18n::OPEN_FULL_APP)}
                </a>
            </main>
        </div>
    }
}

/// The card itself, as its own module builds it: the registry's one arm
/// per card that needs the cards' components (`crate::cards`).
fn card_view(card: Card) -> AnyView {
    match card {
        Card::Walkthrough => view! { <Walkthrough /> }.into_any(),
        Card::Controls => view! { <Controls /> }.into_any(),
        Card::Heads => view! { <Heads /> }.into_any(),
        Card::Positions => view! { <PositionsCard /> }.into_any(),
        Card::Projection => view! { <Projection /> }.into_any(),
        Card::Rope => view! { <Rope /> }.into_any(),
        Card::DotProducts => view! { <DotProducts /> }.into_any(),
        Card::Softmax => view! { <Softmax /> }.into_any(),
        Card::Fusion => view! { <Fusion /> }.into_any(),
        Card::OutputProjection => view! { <OutputProjection /> }.into_any(),
        Card::Block => view! { <BlockCard /> }.into_any(),
        Card::FeedForward => view! { <FeedForward /> }.into_any(),
        Card::WordOrder => view! { <WordOrder /> }.into_any(),
        Card::Generation => view! { <GenerationCard /> }.into_any(),
        Card::Training => view! { <Training /> }.into_any(),
        Card::Experiment => view! { <ScalingExperiment /> }.into_any(),
        Card::Mistakes => view! { <CommonMistakes /> }.into_any(),
        Card::Share => view! { <Share /> }.into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::query_after_key;

    #[test]
    fn arrow_keys_move_the_query_within_the_tokens() {
        assert_eq!(query_after_key("ArrowDown", 0, 4), Some(1));
        assert_eq!(query_after_key("ArrowRight", 3, 4), Some(3));
        assert_eq!(query_after_key("ArrowUp", 0, 4), Some(0));
        assert_eq!(query_after_key("ArrowLeft", 2, 4), Some(1));
        assert_eq!(query_after_key("End", 0, 4), Some(3));
        assert_eq!(query_after_key("Home", 3, 4), Some(0));
        assert_eq!(query_after_key("a", 1, 4), None);
        assert_eq!(
            query_after_key("PageDown", 1, 4),
            None,
            "the Page keys scroll"
        );
    }
}
