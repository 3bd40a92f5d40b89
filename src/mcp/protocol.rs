//! Protocol revisions: the four handshake-era versions negotiated by `initialize`, and the
//! stateless 2026-07-28 era recognised per request from `_meta`. What differs per version lives here.

use serde_json::{Map, Value, json};

use super::jsonrpc::{INVALID_PARAMS, RpcError, UNSUPPORTED_VERSION};

pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const META_CLIENT_CAPS: &str = "io.modelcontextprotocol/clientCapabilities";
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
pub const META_SUBSCRIPTION: &str = "io.modelcontextprotocol/subscriptionId";
/// Our own `_meta` key (the spec reserves `io.modelcontextprotocol/` and leaves other
/// prefixes to implementations): a stateless HTTP client's session key, so two clients
/// sharing one token still hold their leases apart.
pub const META_SESSION: &str = "ctxlake/session";

/// Every revision we speak, oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Version {
    V2024_11_05,
    V2025_03_26,
    V2025_06_18,
    V2025_11_25,
    /// Stateless: no handshake, version and capabilities in every request's `_meta`.
    V2026_07_28,
}

pub const ALL: [Version; 5] = [
    Version::V2024_11_05,
    Version::V2025_03_26,
    Version::V2025_06_18,
    Version::V2025_11_25,
    Version::V2026_07_28,
];
/// What `initialize` answers when the client asks for a version we do not speak.
pub const NEWEST_HANDSHAKE: Version = Version::V2025_11_25;

impl Version {
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V2024_11_05 => "2024-11-05",
            Version::V2025_03_26 => "2025-03-26",
            Version::V2025_06_18 => "2025-06-18",
            Version::V2025_11_25 => "2025-11-25",
            Version::V2026_07_28 => "2026-07-28",
        }
    }
    pub fn parse(s: &str) -> Option<Version> {
        ALL.into_iter().find(|v| v.as_str() == s)
    }
    pub fn stateless(self) -> bool {
        self == Version::V2026_07_28
    }
    /// JSON-RPC batches existed only in 2025-03-26.
    pub fn batches(self) -> bool {
        self == Version::V2025_03_26
    }
    /// From 2025-11-25, arguments that fail validation are a tool-execution error
    /// (`isError: true`, so the model can correct itself), no longer -32602.
    pub fn bad_arguments_as_result(self) -> bool {
        self >= Version::V2025_11_25
    }
    /// `structuredContent` and `outputSchema` arrived in 2025-06-18.
    pub fn structured(self) -> bool {
        self >= Version::V2025_06_18
    }
    /// 2026-07-28 lets a tool schema use any JSON Schema 2020-12 keyword, `$ref` included;
    /// before it, clients may expect every schema inlined.
    pub fn schema_refs(self) -> bool {
        self >= Version::V2026_07_28
    }
    /// Tool annotations arrived in 2025-03-26.
    pub fn annotations(self) -> bool {
        self >= Version::V2025_03_26
    }
}

/// The connection's state: stateless requests never change it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Era {
    /// Nothing negotiated yet.
    #[default]
    Fresh,
    /// `initialize` settled this version for the rest of the connection.
    Handshake(Version),
}

/// `initialize`: echo a supported handshake version, else answer our newest one.
pub fn negotiate(requested: Option<&str>) -> Version {
    match requested.and_then(Version::parse) {
        Some(v) if !v.stateless() => v,
        _ => NEWEST_HANDSHAKE,
    }
}

fn supported_error(requested: &str) -> RpcError {
    let supported: Vec<&str> = ALL.iter().map(|v| v.as_str()).collect();
    RpcError::new(UNSUPPORTED_VERSION, "Unsupported protocol version")
        .data(json!({"supported": supported, "requested": requested}))
}

/// The version that governs one request (not `initialize`): a modern `_meta` version wins;
/// otherwise the handshake's, or — before any handshake — the newest handshake version,
/// so a client that skips `initialize` still gets answers.
pub fn request_version(era: Era, params: &Map<String, Value>) -> Result<Version, RpcError> {
    let meta = params.get("_meta").and_then(Value::as_object);
    let Some(requested) = meta.and_then(|m| m.get(META_VERSION)) else {
        return Ok(match era {
            Era::Handshake(v) => v,
            Era::Fresh => NEWEST_HANDSHAKE,
        });
    };
    let requested = requested.as_str().unwrap_or_default();
    match (Version::parse(requested), era) {
        (Some(v), _) if v.stateless() => {
            let has_caps =
                meta.is_some_and(|m| m.get(META_CLIENT_CAPS).is_some_and(Value::is_object));
            if !has_caps {
                return Err(RpcError::new(
                    INVALID_PARAMS,
                    format!("`_meta` must carry `{META_CLIENT_CAPS}` at {requested}"),
                ));
            }
            Ok(v)
        }
        // A handshake client that also stamps its version: keep the handshake's.
        (Some(_), Era::Handshake(v)) => Ok(v),
        _ => Err(supported_error(requested)),
    }
}

/// `server/discover` may be probed at any version; an unknown one gets -32022 at once.
pub fn check_discover(params: &Map<String, Value>) -> Result<(), RpcError> {
    let requested = params
        .get("_meta")
        .and_then(|m| m.get(META_VERSION))
        .map(|v| v.as_str().unwrap_or_default());
    match requested {
        None => Ok(()),
        Some(r) if Version::parse(r).is_some_and(Version::stateless) => Ok(()),
        Some(r) => Err(supported_error(r)),
    }
}

/// No `title`: it would only repeat the name, and 2026-07-28 stamps this on every result.
pub fn server_info() -> Value {
    json!({
        "name": "ctxlake",
        "version": env!("CARGO_PKG_VERSION"),
    })
}

pub fn capabilities() -> Value {
    json!({"tools": {"listChanged": false}})
}

/// What a tool-search client loads before any tool definition, so it carries the routing:
/// when to call which tool, and what every write shares (said here once, not per tool).
pub fn instructions(pinned: Option<&str>) -> String {
    let mut s = String::from(
        "ctxlake coordinates you with the other coding agents of your fleet. Before editing shared code: fleet_status, then fleet_claim the paths; fleet_release them when done. Before a task: fleet_history, memory_timeline, and memory_search for what peers observed (verify it). Learned something durable: memory_propose it with evidence, plus supersedes (the c-… ids it replaces) or key (single-valued facts). Stopping: fleet_handoff. Writes are queued for `ctxlake sync`, never granted or shared at once.",
    );
    match pinned {
        Some(f) => s.push_str(&format!(" This server is pinned to fleet `{f}`.")),
        None => s.push_str(" Every tool takes an optional fleet (default: yours)."),
    }
    s
}

pub fn initialize_result(version: Version, pinned: Option<&str>) -> Value {
    let mut info = server_info();
    if version >= Version::V2025_11_25 {
        info["description"] = json!(env!("CARGO_PKG_DESCRIPTION"));
    }
    let mut r = json!({
        "protocolVersion": version.as_str(),
        "capabilities": capabilities(),
        "serverInfo": info,
    });
    if version >= Version::V2025_03_26 {
        r["instructions"] = json!(instructions(pinned));
    }
    r
}

/// How long a modern client may cache `server/discover` and `tools/list`: both are static
/// per binary, so an hour; private because a pinned server's answer is per configuration.
pub const TTL_MS: u64 = 3_600_000;

pub fn discover_result(pinned: Option<&str>) -> Value {
    json!({
        "supportedVersions": [Version::V2026_07_28.as_str()],
        "capabilities": capabilities(),
        "instructions": instructions(pinned),
        "ttlMs": TTL_MS,
        "cacheScope": "private",
    })
}

/// Stamp a stateless-era result: `resultType` and our identity in `_meta`.
pub fn stamp_modern(result: &mut Value) {
    if let Some(o) = result.as_object_mut() {
        o.insert("resultType".into(), json!("complete"));
        let meta = o.entry("_meta").or_insert_with(|| json!({}));
        if let Some(m) = meta.as_object_mut() {
            m.insert(META_SERVER_INFO.into(), server_info());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiation_echoes_supported_and_answers_newest_otherwise() {
        for v in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
            assert_eq!(negotiate(Some(v)).as_str(), v);
        }
        for v in [Some("1999-01-01"), Some("2026-07-28"), Some(""), None] {
            assert_eq!(negotiate(v), NEWEST_HANDSHAKE, "{v:?}");
        }
    }

    #[test]
    fn error_mapping_switches_at_2025_11_25() {
        assert!(!Version::V2025_06_18.bad_arguments_as_result());
        assert!(Version::V2025_11_25.bad_arguments_as_result());
        assert!(Version::V2026_07_28.bad_arguments_as_result());
        let batching: Vec<_> = ALL.into_iter().filter(|v| v.batches()).collect();
        assert_eq!(batching, [Version::V2025_03_26]);
    }

    fn params(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn request_version_reads_meta() {
        let modern = params(json!({"_meta": {META_VERSION: "2026-07-28", META_CLIENT_CAPS: {}}}));
        assert_eq!(
            request_version(Era::Fresh, &modern),
            Ok(Version::V2026_07_28)
        );
        let no_caps = params(json!({"_meta": {META_VERSION: "2026-07-28"}}));
        assert_eq!(
            request_version(Era::Fresh, &no_caps).map_err(|e| e.code),
            Err(INVALID_PARAMS)
        );
        let future = params(json!({"_meta": {META_VERSION: "2099-01-01", META_CLIENT_CAPS: {}}}));
        let e = request_version(Era::Fresh, &future).unwrap_err();
        assert_eq!(e.code, UNSUPPORTED_VERSION);
        assert_eq!(e.data.unwrap()["requested"], "2099-01-01");
        let hs = Era::Handshake(Version::V2025_03_26);
        assert_eq!(request_version(hs, &Map::new()), Ok(Version::V2025_03_26));
        assert_eq!(
            request_version(Era::Fresh, &Map::new()),
            Ok(NEWEST_HANDSHAKE)
        );
        assert_eq!(
            check_discover(&future).map_err(|e| e.code),
            Err(UNSUPPORTED_VERSION)
        );
        assert_eq!(check_discover(&modern), Ok(()));
    }
}
