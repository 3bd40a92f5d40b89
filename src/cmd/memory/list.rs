//! `ctxlake memory list [--status S]`: the claims in the snapshot, for operators
//! (including ones agents cannot see); superseded ones only with `--status superseded`.

use clap::Args;
use serde::Serialize;

use crate::cmd::{GlobalArgs, context, printed};
use crate::error::Result;
use crate::output::table;
use crate::snapshot::Snapshot;
use crate::vocab::{ClaimStatus, ClaimType};

/// List claims in the published snapshot by status (operators see every status)
///
/// Without `--status`, every claim but the superseded ones (`--status superseded` lists
/// those, each with the claim that replaced it).
///
/// Example:
///   ctxlake memory list --status proposed
///   ctxlake memory list --status superseded --json
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ListArgs {
    /// Only claims with this status (default: all but superseded).
    #[arg(long, value_enum)]
    pub status: Option<ClaimStatus>,
    /// Rows (default 50, at most 200).
    #[arg(long)]
    pub limit: Option<u32>,
}

#[derive(Debug, Serialize)]
pub struct ListOutput {
    pub fleet: String,
    pub snapshot_id: Option<String>,
    pub claims: Vec<Row>,
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Row {
    pub id: String,
    pub status: ClaimStatus,
    #[serde(rename = "type")]
    pub claim_type: ClaimType,
    pub subject: String,
    pub independent_sessions: u32,
    pub claim: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The claim that replaced it (status `superseded`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// A newer claim that probably updates it (`memory supersede` confirms, `memory keep`
    /// dismisses).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outdated_by: Option<String>,
    /// A claim proposed to replace it, still waiting for the gate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_replacement: Option<String>,
}

pub fn run(args: ListArgs, g: &GlobalArgs) -> Result<()> {
    let ctx = context(g)?;
    let fleet = ctx.fleet(None)?;
    let limit = crate::rules::clamp("limit", args.limit, crate::rules::DEFAULT_LIMIT)?;
    let mut out = ListOutput {
        fleet: fleet.clone(),
        snapshot_id: None,
        claims: vec![],
        truncated: false,
        note: None,
    };
    let path = ctx.paths.snapshot_bin(&fleet);
    match Snapshot::open(&path).and_then(|s| rows(&s, args.status, limit).map(|r| (s.id, r))) {
        Ok((id, (rows, truncated))) => {
            out.snapshot_id = Some(id);
            out.claims = rows;
            out.truncated = truncated;
        }
        Err(e) if !path.exists() => {
            let _ = e;
            out.note = Some("no snapshot yet: run `ctxlake maint` then `ctxlake sync`".into());
        }
        Err(e) => out.note = Some(format!("the snapshot is unreadable ({})", e.one_line())),
    }
    printed(g.output().emit(&out, |o| {
        let mut t = table(&["id", "status", "type", "subject", "sessions", "claim"]);
        for r in &o.claims {
            let status = match (&r.superseded_by, &r.outdated_by, &r.pending_replacement) {
                (Some(by), ..) => format!("{} by {by}", r.status),
                (_, Some(by), _) => format!("{}, outdated by {by}?", r.status),
                (_, _, Some(by)) => format!("{}, {by} pending", r.status),
                _ => r.status.to_string(),
            };
            t.add_row(vec![
                r.id.clone(),
                status,
                r.claim_type.to_string(),
                r.subject.clone(),
                r.independent_sessions.to_string(),
                r.claim.clone(),
            ]);
        }
        format!("{t}\n")
    }))
}

fn rows(s: &Snapshot, status: Option<ClaimStatus>, limit: usize) -> Result<(Vec<Row>, bool)> {
    let all = crate::snapshot::search::list(s, status, limit + 1)?;
    let mut rows: Vec<Row> = all
        .into_iter()
        .map(|c| Row {
            id: c.id,
            status: c.status,
            claim_type: c.claim_type,
            subject: c.subject,
            independent_sessions: c.independent_sessions,
            claim: c.text,
            key: c.key,
            superseded_by: c.superseded_by,
            outdated_by: c.outdated_by,
            pending_replacement: c.pending_by,
        })
        .collect();
    let truncated = rows.len() > limit;
    rows.truncate(limit);
    Ok((rows, truncated))
}
