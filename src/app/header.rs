//! The page's header as markup: the skip link, the title, and the switches
//! for tables, the link and the language, speaking the cards' protocol
//! (`crate::action`). Pure, so tested natively.

use crate::action::{action_names, Kind, Reading};
use crate::i18n::{self, Lang};
use crate::svg::Markup;

/// What the header shows besides the language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeaderView {
    /// Matrices are shown as tables.
    pub tables: bool,
    /// The link was copied a moment ago.
    pub copied: bool,
    /// The layer has several heads, which the tagline says.
    pub several_heads: bool,
    /// A new deployment of the app is ready (the offline worker found it),
    /// which the header offers to load.
    pub update_ready: bool,
    /// The LMS could not keep all of the learner's work (SCORM 1.2 keeps
    /// 4096 characters), which the header says.
    pub work_cut_short: bool,
}

action_names! {
    /// The header's controls, by their `data-action`.
    pub enum Control {
        Tables = "tables",
        CopyLink = "copy-link",
        LangSwitch = "lang-switch",
        Skip = "skip",
        Reload = "update-reload",
    }
}

/// One thing the learner did in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderAction {
    Tables(bool),
    CopyLink,
    SwitchLanguage,
    /// The skip link: focus the first diagram.
    Skip,
    /// Load the new deployment, as the learner asked.
    Reload,
}

impl HeaderAction {
    pub fn read(r: &Reading) -> Option<Self> {
        Some(match (r.event, Control::named(r.action)?) {
            (Kind::Change, Control::Tables) => Self::Tables(r.checked),
            (Kind::Click, Control::CopyLink) => Self::CopyLink,
            (Kind::Click, Control::LangSwitch) => Self::SwitchLanguage,
            (Kind::Click, Control::Skip) => Self::Skip,
            (Kind::Click, Control::Reload) => Self::Reload,
            _ => return None,
        })
    }
}

/// The header's markup in `lang`.
pub fn header(view: HeaderView, lang: Lang) -> String {
    let mut m = Markup::new();
    // The page's banner, though the card around it is a section.
    m.open("header", &[("class", "app-header"), ("role", "banner")]);
    // The page's first tab stop, shown only while focused (access.css); an
    // embed, which hides the header, has no need of it. Its action moves the
    // focus: following `#diagrams` would be a navigation, which the link's
    // history (`link/sync.rs`) would read as Back or Forward.
    let skip = [
        ("class", "skip-link"),
        ("href", "#diagrams"),
        ("data-action", Control::Skip.name()),
    ];
    m.element("a", &skip, i18n::SKIP_TO_DIAGRAMS.get(lang));
    m.open("div", &[]);
    m.element("h1", &[], i18n::TITLE.get(lang));
    let tagline = if view.several_heads {
        i18n::TAGLINE_HEADS
    } else {
        i18n::TAGLINE
    };
    m.element("p", &[("class", "tagline")], tagline.get(lang));
    m.close("div").open("div", &[("class", "header-actions")]);
    m.open("label", &[("class", "switch")]);
    let mut tables = vec![
        ("type", "checkbox"),
        ("data-testid", "show-tables"),
        ("data-action", Control::Tables.name()),
    ];
    if view.tables {
        tables.push(("checked", ""));
    }
    m.empty("input", &tables)
        .text(i18n::SHOW_AS_TABLES.get(lang))
        .close("label");
    let copy = if view.copied {
        i18n::LINK_COPIED
    } else {
        i18n::COPY_LINK
    };
    let attrs = [
        ("type", "button"),
        ("data-testid", Control::CopyLink.name()),
        ("data-action", Control::CopyLink.name()),
    ];
    m.element("button", &attrs, copy.get(lang));
    let attrs = [
        ("type", "button"),
        ("class", "lang-switch"),
        ("data-testid", Control::LangSwitch.name()),
        ("data-action", Control::LangSwitch.name()),
        ("aria-label", i18n::SWITCH_LANGUAGE_LABEL.get(lang)),
    ];
    m.element("button", &attrs, i18n::SWITCH_LANGUAGE.get(lang));
    m.close("div");
    if view.update_ready {
        // Said politely, and loaded only when the learner chooses.
        let notice = [
            ("class", "header-notice"),
            ("role", "status"),
            ("data-testid", "update-ready"),
        ];
        m.open("p", &notice)
            .text(i18n::UPDATE_READY.get(lang))
            .text(" ");
        let reload = [
            ("type", "button"),
            ("data-testid", Control::Reload.name()),
            ("data-action", Control::Reload.name()),
        ];
        m.element("button", &reload, i18n::UPDATE_RELOAD.get(lang));
        m.close("p");
    }
    if view.work_cut_short {
        let notice = [
            ("class", "header-notice"),
            ("role", "status"),
            ("data-testid", "work-cut-short"),
        ];
        m.element("p", &notice, i18n::WORK_CUT_SHORT.get(lang));
    }
    m.close("header");
    m.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_version_is_offered_only_when_it_is_ready() {
        let plain = header(HeaderView::default(), Lang::En);
        assert!(!plain.contains("update-ready") && !plain.contains("work-cut-short"));
        let ready = HeaderView {
            update_ready: true,
            ..HeaderView::default()
        };
        let zh = header(ready, Lang::Zh);
        assert!(
            zh.contains("data-testid=\"update-ready\"")
                && zh.contains("data-action=\"update-reload\"")
        );
        assert!(
            zh.contains(i18n::UPDATE_READY.zh)
                && header(ready, Lang::En).contains(i18n::UPDATE_RELOAD.en)
        );
    }

    #[test]
    fn the_header_reads_its_three_controls_and_nothing_else() {
        let checked = Reading {
            checked: true,
            ..Reading::of(Kind::Change, Control::Tables.name(), "on")
        };
        assert_eq!(
            HeaderAction::read(&checked),
            Some(HeaderAction::Tables(true))
        );
        let copy = Reading::click(Control::CopyLink.name(), 0);
        assert_eq!(HeaderAction::read(&copy), Some(HeaderAction::CopyLink));
        let switch = Reading::click(Control::LangSwitch.name(), 0);
        assert_eq!(
            HeaderAction::read(&switch),
            Some(HeaderAction::SwitchLanguage)
        );
        let skip = Reading::click(Control::Skip.name(), 0);
        assert_eq!(HeaderAction::read(&skip), Some(HeaderAction::Skip));
        let reload = Reading::click(Control::Reload.name(), 0);
        assert_eq!(HeaderAction::read(&reload), Some(HeaderAction::Reload));
        assert_eq!(
            HeaderAction::read(&Reading::click(Control::Tables.name(), 0)),
            None
        );
    }

    #[test]
    fn the_header_says_its_state_in_each_language_and_opens_with_the_skip_link() {
        for lang in [Lang::Zh, Lang::En] {
            let plain = header(HeaderView::default(), lang);
            assert!(plain.starts_with(
                "<header class=\"app-header\" role=\"banner\"><a class=\"skip-link\" href=\"#diagrams\" data-action=\"skip\">"
            ));
            assert!(plain.contains(i18n::COPY_LINK.get(lang)));
            assert!(!plain.contains("checked"));
            // The switch's name starts with what it shows (WCAG 2.5.3).
            let name = i18n::SWITCH_LANGUAGE_LABEL.get(lang);
            assert!(name.starts_with(i18n::SWITCH_LANGUAGE.get(lang)));
            assert!(plain.contains(&format!("aria-label=\"{name}\"")));
            assert!(plain.contains(i18n::TAGLINE.get(lang)));
            let all = HeaderView {
                tables: true,
                copied: true,
                several_heads: true,
                update_ready: false,
                work_cut_short: true,
            };
            let html = header(all, lang);
            assert!(html.contains("data-action=\"tables\" checked=\"\""));
            assert!(html.contains(i18n::LINK_COPIED.get(lang)));
            assert!(html.contains(i18n::TAGLINE_HEADS.get(lang)));
            assert!(!html.contains(i18n::TAGLINE.get(lang)));
            assert!(html.contains(i18n::WORK_CUT_SHORT.get(lang)));
        }
    }
}
