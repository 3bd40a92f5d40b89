//! What the tool list costs a model, counted in o200k_base tokens by a real BPE tokenizer
//! (`tiktoken-rs`, its vocabulary embedded in the crate: nothing is downloaded). The same
//! counts as `benches/tools_tokens.py`, which measures the before/after with Python's tiktoken.

use serde_json::{Value, json};

use super::{init, session};
use crate::common::Env;

/// Issue 26's budgets, met. History of `WHOLE` (2026-07-28, whose result also carries
/// `ttlMs`, `cacheScope`, `resultType` and the server's `_meta`): 2,955 before issue 22's
/// search and timeline fields took it to 3,164; no `minimum: 0` in outputs and each `note`
/// as its type alone, 3,107; every nullable output left out when absent, the write tools'
/// answer down to `status`, `id`, `message`, no `type` beside a string `enum` and no
/// `contested` beside `status`, 2,661; then no display `title`s (clients show the name),
/// reads annotated with `readOnlyHint` alone, inputs without what the server enforces
/// itself (`additionalProperties: false`, `minimum: 0`, `default`s), no `query`/`subject`
/// echo in the answers: 2,488 (2,447 at 2025-06-18).
const WHOLE: usize = 2_500;
const MODEL_VISIBLE: usize = 1_200;
const INSTRUCTIONS: usize = 120;

const ORDER: [&str; 8] = [
    "fleet_status",
    "fleet_claim",
    "fleet_release",
    "fleet_history",
    "fleet_handoff",
    "memory_search",
    "memory_propose",
    "memory_timeline",
];

fn tokens(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(text)
        .len()
}

/// The instructions and the `tools/list` result, at one revision.
fn listed(version: &str) -> (String, Value) {
    let env = Env::new();
    let (hello, list) = if version == "2026-07-28" {
        let p = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": version,
                                 "io.modelcontextprotocol/clientCapabilities": {}}});
        let f = |id: i64, m: &str| {
            json!({"jsonrpc": "2.0", "id": id, "method": m, "params": p}).to_string()
        };
        (f(0, "server/discover"), f(2, "tools/list"))
    } else {
        let l = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
        (init(version), l)
    };
    let lines = session(&env, &[], &[hello, list]);
    let frames: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of = |id: i64| {
        frames
            .iter()
            .find(|f| f["id"] == id)
            .unwrap_or_else(|| panic!("no answer {id} in {lines:?}"))["result"]
            .clone()
    };
    let instructions = of(0)["instructions"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    (instructions, of(2))
}

#[test]
fn tools_list_fits_its_token_budgets_at_every_revision() {
    for version in ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] {
        let (instructions, result) = listed(version);
        let tools = result["tools"].as_array().unwrap();
        // One fixed order at every revision (2026-07-28 asks for a deterministic one).
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ORDER, "{version}");
        let visible: Vec<Value> = tools
            .iter()
            .map(|t| json!({"name": t["name"], "description": t["description"], "inputSchema": t["inputSchema"]}))
            .collect();
        let whole = tokens(&result.to_string());
        let model = tokens(&Value::Array(visible).to_string());
        let routing = tokens(&instructions);
        eprintln!("{version}: whole {whole}, model-visible {model}, instructions {routing}");
        assert!(
            whole <= WHOLE,
            "{version}: tools/list is {whole} tokens > {WHOLE}"
        );
        assert!(
            model <= MODEL_VISIBLE,
            "{version}: name+description+inputSchema is {model} tokens > {MODEL_VISIBLE}"
        );
        assert!(
            routing <= INSTRUCTIONS,
            "{version}: instructions are {routing} tokens > {INSTRUCTIONS}"
        );
        // Tool-search clients see only names and the instructions: every tool is routed there.
        for t in tools {
            let name = t["name"].as_str().unwrap();
            assert!(
                instructions.contains(name),
                "{version}: the instructions never name {name}"
            );
        }
    }
}
