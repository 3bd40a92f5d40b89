//! `ctxlake install <runtime> --http [URL]`: each runtime's own remote-server entry for a
//! running `ctxlake mcp --http`. Every entry sends a token, and never holds it: the entry
//! names the `CTXLAKE_MCP_TOKEN` variable in the runtime's own expansion syntax.

use serde_json::{Value, json};

use super::Runtime;
use crate::error::{Error, Result};

/// The variable the runtimes read the bearer token from (`ctxlake mcp token new NAME`).
pub const TOKEN_VAR: &str = crate::paths::env::MCP_TOKEN;
/// Where `ctxlake mcp --http` listens by default (a test holds it to `DEFAULT_ADDR`).
pub const DEFAULT_URL: &str = "http://127.0.0.1:8719/mcp";

/// A remote entry: the endpoint it names.
#[derive(Debug, Clone)]
pub struct Remote {
    pub url: String,
}

/// The `Authorization` header with the token as a variable reference in `syntax`.
fn auth(syntax: &str) -> Value {
    json!({ "Authorization": format!("Bearer {syntax}") })
}

/// The entry `rt` reads for a remote server, or a refusal for runtimes with none.
pub fn entry(rt: Runtime, r: &Remote) -> Result<Value> {
    let url = r.url.as_str();
    let mut e = match rt {
        Runtime::ClaudeCode => json!({ "type": "http", "url": url }),
        Runtime::Vscode => json!({ "type": "http", "url": url }),
        Runtime::Cursor => json!({ "url": url }),
        Runtime::Gemini => json!({ "httpUrl": url }),
        Runtime::Opencode => json!({ "type": "remote", "url": url, "enabled": true }),
        Runtime::Windsurf => json!({ "serverUrl": url }),
        // Codex reads the token from the variable itself: no header template needed.
        Runtime::Codex => return Ok(json!({ "url": url, "bearer_token_env_var": TOKEN_VAR })),
        _ => {
            return Err(Error::usage(
                "no_remote_entry",
                format!(
                    "`{}` has no remote (HTTP) MCP entry ctxlake can write",
                    rt.name()
                ),
            )
            .hint(format!("install `{}` without `--http`", rt.name())));
        }
    };
    let syntax = match rt {
        Runtime::ClaudeCode => format!("${{{TOKEN_VAR}}}"),
        Runtime::Gemini => format!("${TOKEN_VAR}"),
        Runtime::Opencode => format!("{{env:{TOKEN_VAR}}}"),
        _ => format!("${{env:{TOKEN_VAR}}}"),
    };
    e["headers"] = auth(&syntax);
    Ok(e)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_url_is_where_the_http_server_listens_by_default() {
        let addr = crate::addr::DEFAULT_ADDR;
        assert_eq!(DEFAULT_URL, format!("http://{addr}/mcp"));
    }

    use super::*;

    #[test]
    fn entries_name_the_token_variable_never_the_token() {
        let r = Remote {
            url: DEFAULT_URL.into(),
        };
        let claude = entry(Runtime::ClaudeCode, &r).unwrap();
        assert_eq!(claude["type"], "http");
        assert_eq!(
            claude["headers"]["Authorization"],
            "Bearer ${CTXLAKE_MCP_TOKEN}"
        );
        assert_eq!(entry(Runtime::Gemini, &r).unwrap()["httpUrl"], DEFAULT_URL);
        assert_eq!(
            entry(Runtime::Opencode, &r).unwrap()["headers"]["Authorization"],
            "Bearer {env:CTXLAKE_MCP_TOKEN}"
        );
        assert_eq!(
            entry(Runtime::Codex, &r).unwrap()["bearer_token_env_var"],
            TOKEN_VAR
        );
        assert_eq!(
            entry(Runtime::Cursor, &r).unwrap()["headers"]["Authorization"],
            "Bearer ${env:CTXLAKE_MCP_TOKEN}"
        );
        assert!(entry(Runtime::Zed, &r).is_err());
    }
}
