//! The `echoes` binary: logging, then the command line in `echoes::cli`.
//! Every error ends here as one line on stderr and a non-zero exit.

use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

// mimalloc: a burst of gateway events allocates and frees many small JSON
// maps across threads; with glibc's malloc, perf showed malloc, free and the
// page faults behind them at about a fifth of the bot's CPU in such a burst.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = echoes::cli::Cli::parse();
    let serving = matches!(cli.command, echoes::cli::Command::Serve(_));
    init_logging(cli.verbose, cli.log_format, serving);
    match echoes::cli::run(cli).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::debug!(error = ?e, "command failed");
            eprintln!("echoes: {}", one_line(&e));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes on one line, most general first.
fn one_line(e: &anyhow::Error) -> String {
    e.chain().map(ToString::to_string).collect::<Vec<_>>().join(": ")
}

/// The filter unless `ECHOES_LOG` sets one: warnings for the terminal's
/// commands, `info` for the bot (`serve`), whose log is its operator's view
/// of each turn; `-v` and `-vv` raise either.
fn init_logging(verbose: u8, format: echoes::cli::LogFormat, serving: bool) {
    let default = match verbose {
        0 if serving => "echoes=info,warn",
        0 => "warn",
        1 => "echoes=info,warn",
        _ => "echoes=debug,info",
    };
    let filter = EnvFilter::try_from_env("ECHOES_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        echoes::cli::LogFormat::Text => logs.with_target(false).init(),
        echoes::cli::LogFormat::Json => logs.json().with_current_span(false).init(),
    }
}
