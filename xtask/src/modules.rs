//! Dependencies point one way (ARCHITECTURE.md): no circle of imports
//! between the app's top-level modules (`src/NAME.rs` with its folder
//! `src/NAME/`). The app shell imports every card, so a card that imported
//! the shell would close a circle too.

use crate::sh;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Which top-level modules each module names (`crate::NAME`), from the
/// source of each of its files; comments are left out.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

pub fn check_no_import_circle() -> Result<(), String> {
    let src = sh::root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files)?;
    let mut sources = Vec::new();
    for path in files {
        let Some(module) = top_module(&src, &path) else {
            continue;
        };
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        sources.push((module, text));
    }
    let graph = graph(&sources);
    let circles = circles(&graph);
    if circles.is_empty() {
        eprintln!(
            "\n==> the app's {} top-level modules import each other without a circle",
            graph.len()
        );
        return Ok(());
    }
    let said: Vec<String> = circles.iter().map(|c| c.join(" → ")).collect();
    Err(format!(
        "these top-level modules import each other in a circle (ARCHITECTURE.md: \
         dependencies point one way): {}",
        said.join("; ")
    ))
}

/// The top-level module a file of `src/` belongs to; `None` for the crate
/// roots (`lib.rs`, `main.rs`), which may name everything.
fn top_module(src: &Path, path: &Path) -> Option<String> {
    let first = path.strip_prefix(src).ok()?.components().next()?;
    let name = first.as_os_str().to_str()?;
    let module = name.strip_suffix(".rs").unwrap_or(name);
    (!["lib", "main"].contains(&module)).then(|| module.to_owned())
}

/// The module graph of `(module, source)` pairs: an edge for every other
/// module of the list that the code names as `crate::NAME` or within
/// `crate::{…}`, on one line or several.
pub fn graph(sources: &[(String, String)]) -> Graph {
    let modules: BTreeSet<&str> = sources.iter().map(|(m, _)| m.as_str()).collect();
    let mut graph: Graph = modules
        .iter()
        .map(|m| (m.to_string(), BTreeSet::new()))
        .collect();
    for (module, text) in sources {
        // The whole file at once, less its comments: rustfmt writes a long
        // `use crate::{…};` over several lines.
        let code: Vec<&str> = text
            .lines()
            .map(|line| line.split("//").next().unwrap_or_default())
            .collect();
        for named in named_modules(&code.join("\n")) {
            if named != module && modules.contains(named) {
                if let Some(edges) = graph.get_mut(module) {
                    edges.insert(named.to_owned());
                }
            }
        }
    }
    graph
}

/// The first path segments after each `crate::` in a line of code:
/// `crate::state::lab` names `state`, `crate::{app, cards::Card}` names
/// `app` and `cards`.
fn named_modules(code: &str) -> Vec<&str> {
    let mut named = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            named.extend(group_items(group).filter_map(|item| first_segment(item.trim())));
        } else {
            named.extend(first_segment(rest));
        }
    }
    named
}

/// The items of a `{…}` group whose text starts after the `{`: split at the
/// commas outside any inner group, up to the group's own `}`.
fn group_items(group: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0;
    let mut items = Vec::new();
    let mut start = 0;
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..at]);
                return items.into_iter();
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items.into_iter()
}

fn first_segment(path: &str) -> Option<&str> {
    let end = path
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(path.len());
    (end > 0).then(|| &path[..end])
}

/// Every circle in `graph`: each strongly connected group of two or more
/// modules, as one path through it that returns to its start.
pub fn circles(graph: &Graph) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for start in graph.keys() {
        if seen.contains(start.as_str()) {
            continue;
        }
        // The modules on a circle through `start`: those it reaches that reach it back.
        let group: Vec<&str> = reachable(graph, start)
            .into_iter()
            .filter(|m| reachable(graph, m).contains(start.as_str()))
            .collect();
        if group.is_empty() {
            continue;
        }
        seen.extend(group.iter().copied());
        seen.insert(start);
        found.push(path_back(graph, start, &group));
    }
    found
}

/// Every module `from` reaches through one import or more.
fn reachable<'a>(graph: &'a Graph, from: &str) -> BTreeSet<&'a str> {
    let mut reached = BTreeSet::new();
    let mut todo: Vec<&str> = vec![from];
    while let Some(module) = todo.pop() {
        for next in graph.get(module).into_iter().flatten() {
            if reached.insert(next.as_str()) {
                todo.push(next);
            }
        }
    }
    reached
}

/// A shortest path from `start` back to itself, through `group`.
fn path_back(graph: &Graph, start: &str, group: &[&str]) -> Vec<String> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        let mut next_frontier = Vec::new();
        for module in frontier {
            for next in graph.get(module).into_iter().flatten() {
                if next == start {
                    let mut path = vec![start.to_owned()];
                    let mut at = module;
                    while at != start {
                        path.push(at.to_owned());
                        at = came_from[at];
                    }
                    path.push(start.to_owned());
                    let last = path.len() - 1;
                    path[1..last].reverse();
                    return path;
                }
                if group.contains(&next.as_str()) && !came_from.contains_key(next.as_str()) {
                    came_from.insert(next, module);
                    next_frontier.push(next.as_str());
                }
            }
        }
        frontier = next_frontier;
    }
    vec![start.to_owned()]
}

fn rust_files(folder: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    for path in entries.filter_map(Result::ok).map(|entry| entry.path()) {
        if path.is_dir() {
            rust_files(&path, found)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{circles, graph, named_modules};

    fn sources(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(m, t)| (m.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn reads_the_modules_a_line_names() {
        assert_eq!(named_modules("use crate::state::{lab, Lab};"), ["state"]);
        assert_eq!(
            named_modules("use crate::{app, cards::Card, i18n::{self, Msg}};"),
            ["app", "cards", "i18n"]
        );
        assert_eq!(
            named_modules(
                "let x = crate::geometry::format::fixed(1.0, 2) + crate::svg::coord(2.0);"
            ),
            ["geometry", "svg"]
        );
        assert!(named_modules("use super::Step;").is_empty());
        assert_eq!(
            named_modules("use crate::{\n    cards::Card,\n    state::{lab, Lab},\n};"),
            ["cards", "state"]
        );
    }

    #[test]
    fn finds_a_circle_and_names_its_path() {
        let graph = graph(&sources(&[
            (
                "app",
                "use crate::controls::Controls;\nuse crate::page::ActionCard;",
            ),
            (
                "controls",
                "use crate::page::ActionCard;\nuse crate::walkthrough::Tour;",
            ),
            ("walkthrough", "use crate::announce::say;"),
            ("announce", "use crate::controls::Picked;"),
            ("page", "use crate::state::Lab;"),
            ("state", "// crate::app is named in a comment only"),
        ]));
        assert_eq!(
            circles(&graph),
            [["announce", "controls", "walkthrough", "announce"]]
        );
    }

    #[test]
    fn a_graph_that_points_one_way_has_no_circle() {
        let graph = graph(&sources(&[
            (
                "app",
                "use crate::{cards::Card, page::ActionCard, state::lab};",
            ),
            ("page", "use crate::state::Lab;"),
            ("cards", "use crate::i18n::Msg;"),
            ("i18n", ""),
            ("state", "use crate::lab::Place;"),
            ("lab", "pub fn edit() {}"),
        ]));
        assert!(circles(&graph).is_empty());
    }

    #[test]
    fn a_circle_through_an_import_written_over_several_lines_is_found() {
        let graph = graph(&sources(&[
            ("app", "use crate::share::Share;"),
            (
                "share",
                "use crate::{\n    app::Focus,\n    cards::Card,\n};",
            ),
            ("cards", ""),
        ]));
        assert_eq!(circles(&graph), [["app", "share", "app"]]);
    }

    #[test]
    fn a_card_that_imports_the_shell_closes_a_circle() {
        let graph = graph(&sources(&[
            ("app", "use crate::share::Share;"),
            ("share", "use crate::app::Focus;"),
        ]));
        assert_eq!(circles(&graph), [["app", "share", "app"]]);
    }
}
