//! `ctxlake memory propose CLAIM --type T --subject S --evidence SESSION:MESSAGE…`.

use clap::Args;
use serde_json::{Value, json};

use crate::cmd::{GlobalArgs, context, emit_queued};
use crate::error::{Error, Result};
use crate::tools::memory::propose::{ClaimType, ProposeInput, run as propose};

/// Propose a claim for the fleet's memory. It stays a candidate until the gate promotes it
///
/// Evidence is required: each `--evidence SESSION:MESSAGE` names the session and the
/// message that show the claim (1 to 20 citations). `--evidence-json` takes a JSON
/// array of citation objects instead. A claim that replaces others names them with
/// `--supersedes ID`, and a single-valued fact takes a `--key`: either takes effect only
/// once the gate promotes the new claim from two independent sessions.
///
/// Example:
///   ctxlake memory propose "CI needs RUSTFLAGS=-D warnings for clippy" --type environment \
///       --subject ci --evidence 01JSESSION:msg-42
///   ctxlake memory propose "CI runs on Node 22" --type environment --subject ci \
///       --key ci.node-version --supersedes c-e5d222faaf --evidence 01JSESSION:msg-43
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ProposeArgs {
    /// The claim, one or two sentences.
    pub claim: String,
    /// What kind of claim it is.
    #[arg(long = "type", value_enum, value_name = "TYPE")]
    pub claim_type: ClaimType,
    /// What it is about (a component, tool or topic).
    #[arg(long)]
    pub subject: String,
    /// A citation `SESSION_ID:MESSAGE_ID` (repeatable).
    #[arg(long, value_name = "SESSION:MESSAGE")]
    pub evidence: Vec<String>,
    /// Citations as a JSON array of objects with `session_id` and `message_id`.
    #[arg(long, value_name = "JSON", conflicts_with = "evidence")]
    pub evidence_json: Option<String>,
    /// A claim this one replaces (`c-…`, repeatable, at most 20).
    #[arg(long, value_name = "ID")]
    pub supersedes: Vec<String>,
    /// The slot of a single-valued fact (`ci.node-version`): replaces older claims with it.
    #[arg(long)]
    pub key: Option<String>,
}

pub fn run(args: ProposeArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let evidence = match &args.evidence_json {
        Some(j) => match serde_json::from_str::<Value>(j) {
            Ok(Value::Array(a)) => a,
            _ => {
                return Err(Error::bad_arguments(
                    "invalid_arguments",
                    "`--evidence-json` must be a JSON array",
                )
                .hint("e.g. --evidence-json '[{\"session_id\":\"s1\",\"message_id\":\"m1\"}]'"));
            }
        },
        None => args
            .evidence
            .iter()
            .map(|e| {
                let (s, m) = e.split_once(':').unwrap_or((e.as_str(), ""));
                json!({ "session_id": s, "message_id": m })
            })
            .collect(),
    };
    let input = ProposeInput {
        fleet: None,
        claim: args.claim,
        claim_type: args.claim_type,
        subject: args.subject,
        evidence,
        supersedes: args.supersedes,
        key: args.key,
    };
    let out = propose(&ctx, input)?;
    emit_queued(g, &out)
}
