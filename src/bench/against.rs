//! `echoes bench local-model --against PATH`: llama.cpp's own `llama-bench`
//! on the same file, threads and sizes, so both engines' speeds come from
//! one run on one machine. Its JSON output is read for the prompt (`pp`)
//! and generation (`tg`) tests' mean tokens per second.

use std::path::Path;

use anyhow::Context;

/// llama-bench's speeds, in tokens per second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reference {
    pub prompt: f64,
    pub generation: f64,
}

/// What to ask llama-bench for: the sizes and threads our own figures used.
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    pub threads: usize,
    pub prompt_tokens: usize,
    pub generate_tokens: usize,
    pub runs: usize,
}

/// Runs `llama_bench` on `model` and reads its two speeds.
pub async fn run(llama_bench: &Path, model: &Path, sizes: Sizes) -> anyhow::Result<Reference> {
    let output = tokio::process::Command::new(llama_bench)
        .arg("-m")
        .arg(model)
        .args(["-t", &sizes.threads.to_string()])
        .args(["-p", &sizes.prompt_tokens.to_string()])
        .args(["-n", &sizes.generate_tokens.to_string()])
        .args(["-r", &sizes.runs.max(1).to_string()])
        .args(["-o", "json"])
        .output()
        .await
        .with_context(|| format!("running {}", llama_bench.display()))?;
    anyhow::ensure!(
        output.status.success(),
        "{} failed ({}): {}",
        llama_bench.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr).lines().last().unwrap_or_default()
    );
    parse(&String::from_utf8_lossy(&output.stdout))
}

/// The mean speeds of the prompt-only and generation-only tests.
pub fn parse(json: &str) -> anyhow::Result<Reference> {
    let tests: Vec<serde_json::Value> = serde_json::from_str(json).context("llama-bench's JSON output")?;
    let speed = |prompt: bool| {
        tests.iter().find_map(|t| {
            let (p, g) = (t["n_prompt"].as_u64()?, t["n_gen"].as_u64()?);
            let wanted = if prompt { p > 0 && g == 0 } else { g > 0 && p == 0 };
            wanted.then(|| t["avg_ts"].as_f64()).flatten()
        })
    };
    Ok(Reference {
        prompt: speed(true).context("llama-bench gave no prompt test")?,
        generation: speed(false).context("llama-bench gave no generation test")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_and_generation_tests_are_read() {
        let json = r#"[
          {"model_type": "llama ?B Q4_1", "n_threads": 2, "n_prompt": 512, "n_gen": 0, "avg_ts": 340.9},
          {"model_type": "llama ?B Q4_1", "n_threads": 2, "n_prompt": 0, "n_gen": 64, "avg_ts": 122.8}
        ]"#;
        assert_eq!(parse(json).unwrap(), Reference { prompt: 340.9, generation: 122.8 });
        assert!(parse("[]").unwrap_err().to_string().contains("no prompt test"));
        assert!(parse("not json").is_err());
    }
}
