# Echoes of Deceit: a small runtime image around the `echoes` binary.
# Build: docker build -t echoes .   Run: docker run -it --rm -v echoes:/var/lib/echoes echoes play
FROM rust:1.95-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends protobuf-compiler libprotobuf-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so code changes reuse the cached dependency layer.
COPY Cargo.toml Cargo.lock ./
RUN mkdir src && echo 'fn main() {}' > src/main.rs && touch src/lib.rs \
    && cargo build --release --locked || true
COPY . .
RUN touch src/main.rs src/lib.rs && cargo build --release --locked --bin echoes

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates python3 python3-pip \
    && rm -rf /var/lib/apt/lists/* && useradd --system --home /var/lib/echoes echoes
COPY --from=build /src/target/release/echoes /usr/local/bin/echoes
COPY config/example-server.toml /etc/echoes/config.toml
USER echoes
WORKDIR /var/lib/echoes
ENV ECHOES__STORAGE__DATABASE=/var/lib/echoes/echoes.db
ENTRYPOINT ["echoes", "--config", "/etc/echoes/config.toml"]
CMD ["play"]
