//! What the simulated agents do on a step: claim, release, hand off, propose, read, and
//! what a person does (promote, supersede, keep), each as a spool record written exactly
//! as the tools write it.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::Rng;
use super::world::{CLAIMS, PATHS, REPO, TTL_SECS, World, Written};
use crate::spool::{self, Limits, Record};

impl World {
    pub(super) fn agent_acts(&mut self) {
        let i = self.rng.below(self.agents.len() as u64) as usize;
        let pick = |rng: &mut Rng| {
            let n = 1 + rng.below(2) as usize;
            (0..n)
                .map(|_| PATHS[rng.below(PATHS.len() as u64) as usize])
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
        };
        // One draw per choice, as before memory aged: the random sequence every other
        // action sees is unchanged, so seeds still replay the lease runs they always did.
        match self.rng.below(10) {
            0..4 => {
                let paths = pick(&mut self.rng);
                let p =
                    json!({"repo": REPO, "paths": paths, "reason": "sim", "ttl_secs": TTL_SECS});
                self.spool(i, "fleet_claim", p);
            }
            4..6 => {
                let p = match self.rng.below(3) {
                    0 => json!({"all": true}),
                    _ => json!({"all": false, "repo": REPO, "paths": pick(&mut self.rng)}),
                };
                self.spool(i, "fleet_release", p);
            }
            6 => self.hand_off(i),
            7..9 => {
                // The facts that age (Debian 12 and 13, postgres 17) more often.
                let k = [0, 1, 2, 3, 4, 5, 6, 7, 0, 6, 6, 7][self.rng.below(12) as usize];
                self.propose(i, k);
            }
            _ => {
                // Now and then a person decides instead of an agent reading.
                match self.rng.below(12) {
                    k @ 0..8 => {
                        let (_, subject, text) = CLAIMS[k as usize];
                        let ids = [crate::memory::gate::claim_id(subject, text)];
                        self.spool(i, "memory_shown", json!({ "claim_ids": ids }));
                    }
                    k => self.person(i, k as usize - 8),
                }
            }
        }
    }

    /// Agent `i` proposes claim `k`. Most Debian proposals name the slot `ci.os`, and
    /// Debian 13 mostly names Debian 12 in `supersedes` too (chosen by the record count,
    /// not a draw).
    fn propose(&mut self, i: usize, k: usize) {
        let (ty, subject, text) = CLAIMS[k];
        let session = self.agents[i].session.clone();
        let evidence = json!([{"session_id": session, "message_id": "m1"}]);
        let mut p = json!({"claim": text, "type": ty, "subject": subject, "scope": "agent", "evidence": evidence});
        let pick = self.counter % 4;
        if text.contains("Debian") && pick < 3 {
            p["key"] = json!("ci.os");
        }
        if k == 6 && pick > 0 {
            p["supersedes"] = json!([crate::memory::gate::claim_id("ci", CLAIMS[0].2)]);
        }
        self.spool(i, "memory_propose", p);
    }

    /// A person at agent `i`'s terminal decides on a claim, as `ctxlake memory
    /// promote|supersede|keep` would queue it.
    fn person(&mut self, i: usize, what: usize) {
        let id = |k: usize| crate::memory::gate::claim_id(CLAIMS[k].1, CLAIMS[k].2);
        let p = match what {
            0 => json!({"action": "promote", "claim_id": id(2), "reason": "sim"}),
            1 | 2 => json!({"action": "supersede", "claim_id": id(4), "by": id(5)}),
            _ => json!({"action": "keep", "claim_id": id(5)}),
        };
        self.spool(i, "memory_operator", p);
    }

    /// Leave a note, let go of everything, and start a new session (maybe on another host).
    fn hand_off(&mut self, i: usize) {
        let p = json!({"summary": "sim handoff", "status": "done", "next": null, "repo": REPO});
        self.spool(i, "fleet_handoff", p);
        self.spool(i, "fleet_release", json!({"all": true}));
        self.hook(i, "hook_session_end");
        let session = self.fresh_session();
        let host = self.rng.below(self.hosts.len() as u64) as usize;
        let a = &mut self.agents[i];
        a.session = session;
        a.host = host;
    }

    /// Append one record to the agent's host spool, as `tools::queue::write` does, after
    /// the hook event its runtime sends for the tool call (no draw from the seed's
    /// random sequence: the seeds replay the lease runs they always did).
    fn spool(&mut self, i: usize, kind: &str, payload: Value) {
        self.hook(i, "hook_pre_tool");
        self.append(i, kind, payload, false);
    }

    /// A hook event of agent `i`, as `ctxlake hook` spools it: its history goes to the
    /// lake at its own cadence (`drain::history`).
    fn hook(&mut self, i: usize, kind: &str) {
        let p = json!({"runtime": "sim", "command": format!("step {}", self.counter)});
        self.append(i, kind, p, true);
    }

    fn append(&mut self, i: usize, kind: &str, payload: Value, hook: bool) {
        let a = &self.agents[i];
        self.host_clock(a.host);
        self.counter += 1;
        let now = crate::time::now_ms();
        let rec = Record {
            id: crate::ulid::encode(now as u64, self.counter as u128),
            ts: crate::time::format_ms(now),
            fleet: a.fleet.into(),
            agent: a.name.clone(),
            session: a.session.clone(),
            kind: kind.into(),
            payload,
        };
        let limits = Limits {
            max_dir_bytes: u64::MAX,
            rotate_bytes: u64::MAX,
        };
        let host = &self.hosts[a.host];
        let wait = spool::Wait::Fail(self.config.lock_wait());
        let file = if hook {
            host.paths.spool_hook("sim", &a.session)
        } else {
            host.paths.spool_mcp(a.fleet)
        };
        spool::append(&file, &rec, limits, false, wait).expect("spool append");
        self.trace
            .push(format!("{} {} {kind} {}", a.name, a.session, rec.id));
        self.written.push(Written { rec, host: a.host });
    }
}
