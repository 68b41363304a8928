//! The Discord benchmark, runnable without the CLI:
//! `cargo test --test it discord::bench -- --ignored --nocapture`
//! (`echoes bench discord` runs the same function).

use echoes::discord::bench::{Delivery, DiscordBenchOptions, run};

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a benchmark: run it on purpose"]
async fn discord_ack_latency_and_throughput() {
    let interactions = std::env::var("BENCH_INTERACTIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000);
    let threads = std::env::var("BENCH_THREADS").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    for delivery in [Delivery::Gateway, Delivery::Endpoint] {
        let options = DiscordBenchOptions { threads, interactions, delivery, ..DiscordBenchOptions::default() };
        let report = run(&options).await.unwrap();
        println!("{report}");
        assert_eq!(report.interactions, interactions);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_small_bench_runs_end_to_end() {
    for delivery in [Delivery::Gateway, Delivery::Endpoint] {
        let report = run(&DiscordBenchOptions { threads: 3, interactions: 30, players: 5, delivery }).await.unwrap();
        assert_eq!((report.threads, report.interactions, report.delivery), (3, 30, delivery));
        assert!(report.ack_p50 <= report.ack_p99 && report.ack_p99 <= report.ack_max);
        assert!(report.turns_per_sec > 0.0);
    }
}
