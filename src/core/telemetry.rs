//! The process's counters for operators: turns, model calls and their
//! latency, acknowledgements, live sessions, errors by kind. In memory
//! only (the engine, the model clients and the front ends add to them);
//! `ops::http` serves them as `/metrics` in the Prometheus text format.

use std::sync::OnceLock;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct TurnLabels {
    pub game: &'static str,
    /// committed, duplicate (answered from the record), unplayed (refused
    /// or a model failure: nothing stored), failed (an error).
    pub outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct GameLabels {
    pub game: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ModelLabels {
    pub role: &'static str,
    pub result: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RoleLabels {
    pub role: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PlatformLabels {
    pub platform: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ErrorLabels {
    /// turn, model, delivery, store, gateway.
    pub kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct BuildLabels {
    pub version: &'static str,
    /// The commit the binary was built from (`build.rs`), or "unknown".
    pub commit: &'static str,
}

/// This binary's version and commit, as `echoes_build_info` labels them.
pub const BUILD: BuildLabels = BuildLabels {
    version: env!("CARGO_PKG_VERSION"),
    commit: match option_env!("ECHOES_COMMIT") {
        Some(commit) => commit,
        None => "unknown",
    },
};

type Timings<L> = Family<L, Histogram, fn() -> Histogram>;

pub struct Telemetry {
    pub turns: Family<TurnLabels, Counter>,
    pub turn_seconds: Timings<GameLabels>,
    pub model_calls: Family<ModelLabels, Counter>,
    pub model_seconds: Timings<RoleLabels>,
    pub acks: Family<PlatformLabels, Counter>,
    pub ack_seconds: Timings<PlatformLabels>,
    /// Session actors running in this process.
    pub sessions: Gauge,
    /// Session leases this process holds (several processes on one database).
    pub leases: Gauge,
    /// Inputs handed to the process holding their session's lease.
    pub handoffs: Counter,
    pub errors: Family<ErrorLabels, Counter>,
    registry: Registry,
}

/// From 1 ms to about 2.5 minutes.
fn slow() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.5, 14))
}

/// From 0.5 ms to about 4 s (acknowledgements must beat 3 s).
fn fast() -> Histogram {
    Histogram::new(exponential_buckets(0.0005, 2.0, 14))
}

impl Telemetry {
    fn new() -> Telemetry {
        let mut t = Telemetry {
            turns: Family::default(),
            turn_seconds: Family::new_with_constructor(slow),
            model_calls: Family::default(),
            model_seconds: Family::new_with_constructor(slow),
            acks: Family::default(),
            ack_seconds: Family::new_with_constructor(fast),
            sessions: Gauge::default(),
            leases: Gauge::default(),
            handoffs: Counter::default(),
            errors: Family::default(),
            registry: Registry::with_prefix("echoes"),
        };
        let r = &mut t.registry;
        r.register("turns", "Turns played, by game and outcome", t.turns.clone());
        r.register("turn_seconds", "Time to play and commit a turn", t.turn_seconds.clone());
        r.register("model_calls", "Model calls, by role and result", t.model_calls.clone());
        r.register("model_call_seconds", "Model call latency, by role", t.model_seconds.clone());
        r.register("acks", "Platform events acknowledged", t.acks.clone());
        r.register("ack_seconds", "Time to acknowledge a platform event", t.ack_seconds.clone());
        r.register("active_sessions", "Session actors running in this process", t.sessions.clone());
        r.register("leases_held", "Session leases this process holds", t.leases.clone());
        r.register("handoffs", "Inputs handed to the process holding their session", t.handoffs.clone());
        r.register("errors", "Errors, by kind", t.errors.clone());
        let build = Family::<BuildLabels, Gauge>::default();
        build.get_or_create(&BUILD).set(1);
        r.register("build_info", "The running build: 1, labelled with its version and commit", build);
        t
    }

    pub fn turn(&self, game: &'static str, outcome: &'static str, took: Duration) {
        self.turns.get_or_create(&TurnLabels { game, outcome }).inc();
        self.turn_seconds.get_or_create(&GameLabels { game }).observe(took.as_secs_f64());
    }

    pub fn model_call(&self, role: &'static str, ok: bool, took: Duration) {
        let result = if ok { "ok" } else { "error" };
        self.model_calls.get_or_create(&ModelLabels { role, result }).inc();
        self.model_seconds.get_or_create(&RoleLabels { role }).observe(took.as_secs_f64());
        if !ok {
            self.error("model");
        }
    }

    pub fn ack(&self, platform: &'static str, took: Duration) {
        self.acks.get_or_create(&PlatformLabels { platform }).inc();
        self.ack_seconds.get_or_create(&PlatformLabels { platform }).observe(took.as_secs_f64());
    }

    pub fn error(&self, kind: &'static str) {
        self.errors.get_or_create(&ErrorLabels { kind }).inc();
    }

    /// Everything, in the Prometheus (OpenMetrics) text format.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

/// This process's counters.
pub fn telemetry() -> &'static Telemetry {
    static TELEMETRY: OnceLock<Telemetry> = OnceLock::new();
    TELEMETRY.get_or_init(Telemetry::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_come_out_in_the_text_format() {
        let t = Telemetry::new();
        t.turn("soup", "committed", Duration::from_millis(40));
        t.model_call("judge", false, Duration::from_millis(900));
        t.ack("slack", Duration::from_millis(2));
        t.sessions.inc();
        let text = t.encode();
        for line in [
            "echoes_turns_total{game=\"soup\",outcome=\"committed\"} 1",
            "echoes_model_calls_total{role=\"judge\",result=\"error\"} 1",
            "echoes_errors_total{kind=\"model\"} 1",
            "echoes_acks_total{platform=\"slack\"} 1",
            "echoes_active_sessions 1",
            "echoes_turn_seconds_count{game=\"soup\"} 1",
        ] {
            assert!(text.contains(line), "{line} in\n{text}");
        }
        assert!(text.ends_with("# EOF\n"));
    }

    #[test]
    fn the_build_is_one_gauge_labelled_with_its_version() {
        let text = Telemetry::new().encode();
        let line = text.lines().find(|l| l.starts_with("echoes_build_info{")).unwrap_or_else(|| panic!("{text}"));
        assert!(line.contains(&format!("version=\"{}\"", env!("CARGO_PKG_VERSION"))), "{line}");
        assert!(line.contains("commit=\""), "{line}");
        assert!(line.ends_with(" 1"), "{line}");
    }
}
