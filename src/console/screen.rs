//! Terminal output: replies on stdout, session notes on stderr, a spinner
//! while the model thinks (only on a real terminal), and the `> line` echo
//! that makes a scripted run read as a transcript.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

pub struct Screen {
    scripted: bool,
    interactive: bool,
}

impl Screen {
    pub fn new(scripted: bool) -> Self {
        let interactive = !scripted && std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
        Screen { scripted, interactive }
    }

    /// A reply from the game.
    pub fn reply(&mut self, text: &str) {
        if !text.is_empty() {
            println!("{text}\n");
        }
    }

    /// A note about the session rather than the game.
    pub fn info(&mut self, text: &str) {
        eprintln!("· {text}");
    }

    pub fn prompt(&mut self) {
        if self.interactive {
            print!("> ");
            let _ = std::io::stdout().flush();
        }
    }

    /// In a scripted run, shows the line as if typed.
    pub fn echo(&mut self, line: &str) {
        if self.scripted {
            println!("> {}", line.trim());
        }
    }

    /// A player line from a resumed session's history.
    pub fn echo_history(&mut self, line: &str) {
        println!("> {line}");
    }

    /// A spinner for a turn in progress, when there is a terminal to show it.
    pub fn spinner(&self) -> Option<ProgressBar> {
        if !self.interactive {
            return None;
        }
        let bar = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}") {
            bar.set_style(style);
        }
        bar.set_message("thinking…");
        bar.enable_steady_tick(Duration::from_millis(100));
        Some(bar)
    }
}
