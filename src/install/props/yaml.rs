//! Hermes `config.yaml`: written in the next commit.
