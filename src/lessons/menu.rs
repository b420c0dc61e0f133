//! The lesson menu as markup, and what a click on it means (the cards'
//! protocol, `crate::action`). Pure, so tested natively.

use super::Lesson;
use crate::action::{action_names, Kind, Reading};
use crate::i18n::{lessons as text, Lang};
use crate::svg::Markup;

action_names! {
    /// The menu's controls, by their `data-action`.
    pub enum Control {
        /// A lesson's button (`data-index`: its place in [`Lesson::ALL`]).
        Lesson = "lesson",
    }
}

/// One thing the learner did in the menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuAction {
    Open(Lesson),
}

impl MenuAction {
    /// The action an event means, or `None`.
    pub fn read(r: &Reading) -> Option<Self> {
        match (r.event, Control::named(r.action)?) {
            (Kind::Click, Control::Lesson) => Lesson::ALL.get(r.index).copied().map(Self::Open),
            _ => None,
        }
    }
}

/// The menu: a toolbar of one button a lesson, one tab stop (the current
/// lesson's button; the arrow keys move along it, `action::rove`).
pub fn menu(current: Lesson, lang: Lang) -> String {
    let mut m = Markup::new();
    let name = text::MENU.get(lang);
    m.open("nav", &[("class", "lesson-menu"), ("aria-label", name)]);
    m.start("div")
        .attr("role", "toolbar")
        .attr("aria-label", name)
        .attr("data-testid", "lesson-menu")
        .attr("data-rove", "")
        .end();
    for (i, lesson) in Lesson::ALL.into_iter().enumerate() {
        let spec = lesson.spec();
        let chosen = lesson == current;
        m.start("button")
            .attr("type", "button")
            .attr("data-action", Control::Lesson.name())
            .attr("data-index", &i.to_string())
            .attr("data-lesson", spec.id)
            .attr("tabindex", if chosen { "0" } else { "-1" });
        if chosen {
            m.attr("aria-current", "true");
        }
        m.end().text(spec.title.get(lang)).close("button");
    }
    m.close("div").close("nav");
    m.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_on_a_lesson_opens_it_and_nothing_else_does() {
        for (i, lesson) in Lesson::ALL.into_iter().enumerate() {
            let click = Reading::click(Control::Lesson.name(), i);
            assert_eq!(MenuAction::read(&click), Some(MenuAction::Open(lesson)));
        }
        let past_the_end = Reading::click(Control::Lesson.name(), Lesson::ALL.len());
        assert_eq!(MenuAction::read(&past_the_end), None);
        let typed = Reading::of(Kind::Input, Control::Lesson.name(), "");
        assert_eq!(MenuAction::read(&typed), None);
        assert_eq!(MenuAction::read(&Reading::click("step", 0)), None);
    }

    #[test]
    fn the_menu_lists_every_lesson_in_both_languages_with_one_tab_stop_on_the_current() {
        for lang in [Lang::Zh, Lang::En] {
            let html = menu(Lesson::WordOrder, lang);
            for lesson in Lesson::ALL {
                let spec = lesson.spec();
                assert!(html.contains(&format!("data-lesson=\"{}\"", spec.id)));
                assert!(html.contains(spec.title.get(lang)), "{lesson:?}");
            }
            assert_eq!(html.matches("tabindex=\"0\"").count(), 1);
            assert_eq!(html.matches("aria-current=\"true\"").count(), 1);
            assert!(
                html.contains("data-lesson=\"word-order\" tabindex=\"0\" aria-current=\"true\"")
            );
            assert!(html.contains(&format!("aria-label=\"{}\"", text::MENU.get(lang))));
        }
    }
}
