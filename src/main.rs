//! The WebAssembly entry point that trunk builds: mounts the app on the page.

fn main() {
    leptos::mount::mount_to_body(attention_lab::App);
}
