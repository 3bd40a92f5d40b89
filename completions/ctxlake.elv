
use builtin;
use str;

set edit:completion:arg-completer[ctxlake] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ctxlake'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ctxlake'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand init 'Set up this machine: config, runtimes, semantic model, sync service, history import'
            cand import 'Replay the session transcripts already on disk into the fleet''s history'
            cand fleet 'Who is working where: status, advisory leases, history, handoffs'
            cand memory 'The fleet''s shared memory: search, propose, timeline; operators list, promote, contest, retire'
            cand spool 'Inspect the local write queue'
            cand sync 'Move queued writes into the lake and refresh the local cache'
            cand maint 'Fold claim events, run the promotion gate and publish each fleet''s snapshot'
            cand lake 'Manage the lake itself: copy it into another store'
            cand status 'Show whether sync and maint are keeping this host''s view fresh'
            cand doctor 'Prove each link of the chain works on this machine, and repair drift'
            cand service 'Run `ctxlake sync --watch` as a user service'
            cand completions 'Print a shell completion script to stdout'
            cand hook 'Capture a runtime''s hook event; print its briefing or collision warning'
            cand install 'Add ctxlake''s MCP server and hooks to coding-agent runtimes'' own config files'
            cand uninstall 'Remove ctxlake''s MCP server and hooks from coding-agent runtimes'' config files'
            cand mcp 'Serve ctxlake''s tools to an MCP client (stdio, newline-delimited JSON-RPC)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;init'= {
            cand --store 'Where the fleet''s shared state lives: `file:///path`, `s3://bucket/prefix` or `az://container/prefix` (probed before the config is written; credentials come from the provider''s environment)'
            cand --memory 'Memory mode: on, shadow or off'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand -y 'Do not ask; take the flags and defaults'
            cand --yes 'Do not ask; take the flags and defaults'
            cand --dry-run 'Print every file it would touch, as a diff; change nothing'
            cand --no-runtimes 'Do not wire runtimes'
            cand --no-model 'Do not fetch the semantic model (memory stays lexical)'
            cand --no-service 'Do not install the sync service'
            cand --no-import 'Do not import the transcripts on disk'
            cand --config-only 'Write `config.toml` and stop: no runtimes, model, service, import, sync or doctor'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;import'= {
            cand --since 'Only sessions active since: a date, an RFC 3339 time, or an age (`30d`)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --dry-run 'Show what would be shared; write nothing'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;fleet'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand status 'Show active agents, their tasks and every lease''s standing (held or contended)'
            cand list 'List the fleets this host is configured for, mirrors, or served over MCP'
            cand claim 'Ask for advisory leases on paths you are about to edit'
            cand release 'Release leases you hold; with no paths, release all of this session''s leases'
            cand history 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first'
            cand handoff 'Leave a handoff note: what you did, where it stands, what comes next'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;fleet;status'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;fleet;list'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;fleet;claim'= {
            cand -r 'What you are about to do there'
            cand --reason 'What you are about to do there'
            cand --ttl 'Lease lifetime in seconds'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;fleet;release'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;fleet;history'= {
            cand --repo 'Only this repository (normalized remote, e.g. `github.com/acme/api`)'
            cand --since 'Only since: a date, an RFC 3339 time, or an age (`30m`, `2h`, `7d`)'
            cand --limit 'Rows per list (default 50, at most 200)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;fleet;handoff'= {
            cand --status 'Where the work stands (`in-progress` is accepted too)'
            cand --next 'What the next agent should do'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;fleet;help'= {
            cand status 'Show active agents, their tasks and every lease''s standing (held or contended)'
            cand list 'List the fleets this host is configured for, mirrors, or served over MCP'
            cand claim 'Ask for advisory leases on paths you are about to edit'
            cand release 'Release leases you hold; with no paths, release all of this session''s leases'
            cand history 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first'
            cand handoff 'Leave a handoff note: what you did, where it stands, what comes next'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;fleet;help;status'= {
        }
        &'ctxlake;fleet;help;list'= {
        }
        &'ctxlake;fleet;help;claim'= {
        }
        &'ctxlake;fleet;help;release'= {
        }
        &'ctxlake;fleet;help;history'= {
        }
        &'ctxlake;fleet;help;handoff'= {
        }
        &'ctxlake;fleet;help;help'= {
        }
        &'ctxlake;memory'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand search 'Search the fleet''s promoted claims (lexical FTS5 and vector similarity, fused)'
            cand propose 'Propose a claim for the fleet''s memory. It stays a candidate until the gate promotes it'
            cand timeline 'Show what the fleet proposed, promoted, contested and handed off about a subject'
            cand list 'List claims in the published snapshot by status (operators see every status)'
            cand promote 'Promote a claim by hand: agents see it (preferences are promoted only this way)'
            cand contest 'Mark a claim CONTESTED by hand: it stays visible, flagged'
            cand retire 'Retire a claim by hand: agents no longer see it'
            cand supersede 'Supersede a claim by hand (confirms a probable update): it is kept but no longer current'
            cand keep 'Keep a claim flagged as probably outdated: the flag is dismissed'
            cand model 'The semantic model (all-MiniLM-L6-v2): check what is configured, or install it'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;memory;search'= {
            cand --subject 'Only claims about this subject'
            cand --type 'Only claims of this type'
            cand --scope 'Only claims of this scope'
            cand -k 'How many results (default 10, at most 200)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --include-superseded 'Also claims newer ones replaced (for history questions)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;propose'= {
            cand --type 'What kind of claim it is'
            cand --subject 'What it is about (a component, tool or topic)'
            cand --evidence 'A citation `SESSION_ID:MESSAGE_ID` (repeatable)'
            cand --evidence-json 'Citations as a JSON array of objects with `session_id` and `message_id`'
            cand --supersedes 'A claim this one replaces (`c-…`, repeatable, at most 20)'
            cand --key 'The slot of a single-valued fact (`ci.node-version`): replaces older claims with it'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;timeline'= {
            cand --since 'Only since: a date, an RFC 3339 time, or an age (`30m`, `2h`, `7d`)'
            cand --limit 'Rows (default 50, at most 200)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;list'= {
            cand --status 'Only claims with this status (default: all but superseded)'
            cand --limit 'Rows (default 50, at most 200)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;promote'= {
            cand --reason 'Why: recorded in the claim''s timeline'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;contest'= {
            cand --reason 'Why: recorded in the claim''s timeline'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;retire'= {
            cand --reason 'Why: recorded in the claim''s timeline'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;supersede'= {
            cand --by 'The claim that replaces it (`c-…`)'
            cand --reason 'Why: recorded in the claim''s timeline'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;keep'= {
            cand --reason 'Why: recorded in the claim''s timeline'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;model'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand check 'Report the configured embedder and model directory, and load the model once'
            cand install 'Download (or unpack) and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;memory;model;check'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;model;install'= {
            cand --from 'A wheel, a zip or a directory holding the model (offline; default: download)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;memory;model;help'= {
            cand check 'Report the configured embedder and model directory, and load the model once'
            cand install 'Download (or unpack) and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;memory;model;help;check'= {
        }
        &'ctxlake;memory;model;help;install'= {
        }
        &'ctxlake;memory;model;help;help'= {
        }
        &'ctxlake;memory;help'= {
            cand search 'Search the fleet''s promoted claims (lexical FTS5 and vector similarity, fused)'
            cand propose 'Propose a claim for the fleet''s memory. It stays a candidate until the gate promotes it'
            cand timeline 'Show what the fleet proposed, promoted, contested and handed off about a subject'
            cand list 'List claims in the published snapshot by status (operators see every status)'
            cand promote 'Promote a claim by hand: agents see it (preferences are promoted only this way)'
            cand contest 'Mark a claim CONTESTED by hand: it stays visible, flagged'
            cand retire 'Retire a claim by hand: agents no longer see it'
            cand supersede 'Supersede a claim by hand (confirms a probable update): it is kept but no longer current'
            cand keep 'Keep a claim flagged as probably outdated: the flag is dismissed'
            cand model 'The semantic model (all-MiniLM-L6-v2): check what is configured, or install it'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;memory;help;search'= {
        }
        &'ctxlake;memory;help;propose'= {
        }
        &'ctxlake;memory;help;timeline'= {
        }
        &'ctxlake;memory;help;list'= {
        }
        &'ctxlake;memory;help;promote'= {
        }
        &'ctxlake;memory;help;contest'= {
        }
        &'ctxlake;memory;help;retire'= {
        }
        &'ctxlake;memory;help;supersede'= {
        }
        &'ctxlake;memory;help;keep'= {
        }
        &'ctxlake;memory;help;model'= {
            cand check 'Report the configured embedder and model directory, and load the model once'
            cand install 'Download (or unpack) and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2'
        }
        &'ctxlake;memory;help;model;check'= {
        }
        &'ctxlake;memory;help;model;install'= {
        }
        &'ctxlake;memory;help;help'= {
        }
        &'ctxlake;spool'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand check 'Validate every spool file: intact records, torn lines skipped, resynced records'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;spool;check'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;spool;help'= {
            cand check 'Validate every spool file: intact records, torn lines skipped, resynced records'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;spool;help;check'= {
        }
        &'ctxlake;spool;help;help'= {
        }
        &'ctxlake;sync'= {
            cand --interval 'Seconds between syncs with `--watch` (default: `[sync] interval_secs`, 15)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --watch 'Keep running: sync every `--interval` seconds, drain new writes in between'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;maint'= {
            cand --only 'Only this fleet (default: every fleet in the lake this host serves, as `sync` mirrors)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;lake'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand copy 'Copy every object of one lake into another, skipping what is already there'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;lake;copy'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;lake;help'= {
            cand copy 'Copy every object of one lake into another, skipping what is already there'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;lake;help;copy'= {
        }
        &'ctxlake;lake;help;help'= {
        }
        &'ctxlake;status'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;doctor'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --fix 'Repair ctxlake''s own entries (after showing the diff)'
            cand --dry-run 'With `--fix`: print the diff, write nothing'
            cand --strict 'Exit 1 on warnings too'
            cand -y 'With `--fix`: install the sync service without asking'
            cand --yes 'With `--fix`: install the sync service without asking'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;service'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand install 'Write the user service that keeps `ctxlake sync --watch` running, and start it'
            cand uninstall 'Stop and remove the user service'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;service;install'= {
            cand --http 'The `ctxlake mcp --http ADDR` service instead of sync (ADDR default 127.0.0.1:8719)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --no-start 'Only write/remove the file; do not call systemctl/launchctl'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;service;uninstall'= {
            cand --http 'The `ctxlake mcp --http ADDR` service instead of sync (ADDR default 127.0.0.1:8719)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --no-start 'Only write/remove the file; do not call systemctl/launchctl'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;service;help'= {
            cand install 'Write the user service that keeps `ctxlake sync --watch` running, and start it'
            cand uninstall 'Stop and remove the user service'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;service;help;install'= {
        }
        &'ctxlake;service;help;uninstall'= {
        }
        &'ctxlake;service;help;help'= {
        }
        &'ctxlake;completions'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;hook'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;install'= {
            cand --http 'Write the runtime''s remote entry for a running `ctxlake mcp --http` at URL (default http://127.0.0.1:8719/mcp) instead of a command; the entry sends the token found in CTXLAKE_MCP_TOKEN when the runtime starts (`ctxlake mcp token new NAME` makes one)'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --all 'Install into every detected runtime'
            cand --project 'Write the project''s file (in the current directory), pinned to the fleet'
            cand --dry-run 'Print a unified diff per file; write nothing'
            cand --no-hooks 'Write only the MCP entry, no hooks'
            cand --force 'Install into a named runtime even if it is not detected'
            cand -y 'Do not prompt: with no runtime named, take every detected one'
            cand --yes 'Do not prompt: with no runtime named, take every detected one'
            cand --list 'Show each runtime, detected or not, installed or not, and its files'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;uninstall'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --all 'Uninstall from every runtime where ctxlake is installed'
            cand --project 'Edit the project''s files (in the current directory) instead of the user''s'
            cand --dry-run 'Print a unified diff per file; write nothing'
            cand -y 'Do not prompt: with no runtime named, take every one where ctxlake is installed'
            cand --yes 'Do not prompt: with no runtime named, take every one where ctxlake is installed'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;mcp'= {
            cand --http 'Serve over MCP Streamable HTTP instead of stdio, on ADDR (default 127.0.0.1:8719; port 0 picks a free port). Runs until SIGTERM or SIGINT'
            cand --bind 'Listen address for --http (same as its ADDR)'
            cand --allow-host 'Another host name clients may use in Host/Origin (e.g. a tailnet name); repeatable'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --no-auth 'Serve without tokens: every caller acts as this server''s agent in every fleet. Loopback addresses only; anyone on this host can then use it'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand status 'List the running servers (stdio by parent process, HTTP by URL) and the latest tool calls'
            cand token 'Manage the tokens of `ctxlake mcp --http` (each client gets its own)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;mcp;status'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;mcp;token'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand new 'Make a token for one client and print its secret (shown this once; only its hash is kept)'
            cand list 'List the tokens: name, agent, fleets, role, creation time (secrets are never kept)'
            cand show 'Show one token (default: the owner), or with --link a one-time dashboard login link'
            cand revoke 'Remove a token: its calls, sessions, streams and dashboard logins stop at once'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;mcp;token;new'= {
            cand --agent 'The agent its calls act as (default: NAME; the owner token: the server''s agent)'
            cand --fleet 'A fleet it may use (repeatable; default: every fleet)'
            cand --read-only 'Reads only: every write tool is refused, naming the token'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;mcp;token;list'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;mcp;token;show'= {
            cand --link 'Print a login link for the dashboard instead (single use, valid 10 minutes, signed with the owner token) that opens PAGE (`/` or `/fleet/<fleet>`); the host is the running server''s, else the default'
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;mcp;token;revoke'= {
            cand --fleet 'Fleet to act in'
            cand --agent 'This agent''s id (default: user@host)'
            cand --json 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)'
            cand -q 'Print no notes on stderr'
            cand --quiet 'Print no notes on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ctxlake;mcp;token;help'= {
            cand new 'Make a token for one client and print its secret (shown this once; only its hash is kept)'
            cand list 'List the tokens: name, agent, fleets, role, creation time (secrets are never kept)'
            cand show 'Show one token (default: the owner), or with --link a one-time dashboard login link'
            cand revoke 'Remove a token: its calls, sessions, streams and dashboard logins stop at once'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;mcp;token;help;new'= {
        }
        &'ctxlake;mcp;token;help;list'= {
        }
        &'ctxlake;mcp;token;help;show'= {
        }
        &'ctxlake;mcp;token;help;revoke'= {
        }
        &'ctxlake;mcp;token;help;help'= {
        }
        &'ctxlake;mcp;help'= {
            cand status 'List the running servers (stdio by parent process, HTTP by URL) and the latest tool calls'
            cand token 'Manage the tokens of `ctxlake mcp --http` (each client gets its own)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;mcp;help;status'= {
        }
        &'ctxlake;mcp;help;token'= {
            cand new 'Make a token for one client and print its secret (shown this once; only its hash is kept)'
            cand list 'List the tokens: name, agent, fleets, role, creation time (secrets are never kept)'
            cand show 'Show one token (default: the owner), or with --link a one-time dashboard login link'
            cand revoke 'Remove a token: its calls, sessions, streams and dashboard logins stop at once'
        }
        &'ctxlake;mcp;help;token;new'= {
        }
        &'ctxlake;mcp;help;token;list'= {
        }
        &'ctxlake;mcp;help;token;show'= {
        }
        &'ctxlake;mcp;help;token;revoke'= {
        }
        &'ctxlake;mcp;help;help'= {
        }
        &'ctxlake;help'= {
            cand init 'Set up this machine: config, runtimes, semantic model, sync service, history import'
            cand import 'Replay the session transcripts already on disk into the fleet''s history'
            cand fleet 'Who is working where: status, advisory leases, history, handoffs'
            cand memory 'The fleet''s shared memory: search, propose, timeline; operators list, promote, contest, retire'
            cand spool 'Inspect the local write queue'
            cand sync 'Move queued writes into the lake and refresh the local cache'
            cand maint 'Fold claim events, run the promotion gate and publish each fleet''s snapshot'
            cand lake 'Manage the lake itself: copy it into another store'
            cand status 'Show whether sync and maint are keeping this host''s view fresh'
            cand doctor 'Prove each link of the chain works on this machine, and repair drift'
            cand service 'Run `ctxlake sync --watch` as a user service'
            cand completions 'Print a shell completion script to stdout'
            cand hook 'Capture a runtime''s hook event; print its briefing or collision warning'
            cand install 'Add ctxlake''s MCP server and hooks to coding-agent runtimes'' own config files'
            cand uninstall 'Remove ctxlake''s MCP server and hooks from coding-agent runtimes'' config files'
            cand mcp 'Serve ctxlake''s tools to an MCP client (stdio, newline-delimited JSON-RPC)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ctxlake;help;init'= {
        }
        &'ctxlake;help;import'= {
        }
        &'ctxlake;help;fleet'= {
            cand status 'Show active agents, their tasks and every lease''s standing (held or contended)'
            cand list 'List the fleets this host is configured for, mirrors, or served over MCP'
            cand claim 'Ask for advisory leases on paths you are about to edit'
            cand release 'Release leases you hold; with no paths, release all of this session''s leases'
            cand history 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first'
            cand handoff 'Leave a handoff note: what you did, where it stands, what comes next'
        }
        &'ctxlake;help;fleet;status'= {
        }
        &'ctxlake;help;fleet;list'= {
        }
        &'ctxlake;help;fleet;claim'= {
        }
        &'ctxlake;help;fleet;release'= {
        }
        &'ctxlake;help;fleet;history'= {
        }
        &'ctxlake;help;fleet;handoff'= {
        }
        &'ctxlake;help;memory'= {
            cand search 'Search the fleet''s promoted claims (lexical FTS5 and vector similarity, fused)'
            cand propose 'Propose a claim for the fleet''s memory. It stays a candidate until the gate promotes it'
            cand timeline 'Show what the fleet proposed, promoted, contested and handed off about a subject'
            cand list 'List claims in the published snapshot by status (operators see every status)'
            cand promote 'Promote a claim by hand: agents see it (preferences are promoted only this way)'
            cand contest 'Mark a claim CONTESTED by hand: it stays visible, flagged'
            cand retire 'Retire a claim by hand: agents no longer see it'
            cand supersede 'Supersede a claim by hand (confirms a probable update): it is kept but no longer current'
            cand keep 'Keep a claim flagged as probably outdated: the flag is dismissed'
            cand model 'The semantic model (all-MiniLM-L6-v2): check what is configured, or install it'
        }
        &'ctxlake;help;memory;search'= {
        }
        &'ctxlake;help;memory;propose'= {
        }
        &'ctxlake;help;memory;timeline'= {
        }
        &'ctxlake;help;memory;list'= {
        }
        &'ctxlake;help;memory;promote'= {
        }
        &'ctxlake;help;memory;contest'= {
        }
        &'ctxlake;help;memory;retire'= {
        }
        &'ctxlake;help;memory;supersede'= {
        }
        &'ctxlake;help;memory;keep'= {
        }
        &'ctxlake;help;memory;model'= {
            cand check 'Report the configured embedder and model directory, and load the model once'
            cand install 'Download (or unpack) and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2'
        }
        &'ctxlake;help;memory;model;check'= {
        }
        &'ctxlake;help;memory;model;install'= {
        }
        &'ctxlake;help;spool'= {
            cand check 'Validate every spool file: intact records, torn lines skipped, resynced records'
        }
        &'ctxlake;help;spool;check'= {
        }
        &'ctxlake;help;sync'= {
        }
        &'ctxlake;help;maint'= {
        }
        &'ctxlake;help;lake'= {
            cand copy 'Copy every object of one lake into another, skipping what is already there'
        }
        &'ctxlake;help;lake;copy'= {
        }
        &'ctxlake;help;status'= {
        }
        &'ctxlake;help;doctor'= {
        }
        &'ctxlake;help;service'= {
            cand install 'Write the user service that keeps `ctxlake sync --watch` running, and start it'
            cand uninstall 'Stop and remove the user service'
        }
        &'ctxlake;help;service;install'= {
        }
        &'ctxlake;help;service;uninstall'= {
        }
        &'ctxlake;help;completions'= {
        }
        &'ctxlake;help;hook'= {
        }
        &'ctxlake;help;install'= {
        }
        &'ctxlake;help;uninstall'= {
        }
        &'ctxlake;help;mcp'= {
            cand status 'List the running servers (stdio by parent process, HTTP by URL) and the latest tool calls'
            cand token 'Manage the tokens of `ctxlake mcp --http` (each client gets its own)'
        }
        &'ctxlake;help;mcp;status'= {
        }
        &'ctxlake;help;mcp;token'= {
            cand new 'Make a token for one client and print its secret (shown this once; only its hash is kept)'
            cand list 'List the tokens: name, agent, fleets, role, creation time (secrets are never kept)'
            cand show 'Show one token (default: the owner), or with --link a one-time dashboard login link'
            cand revoke 'Remove a token: its calls, sessions, streams and dashboard logins stop at once'
        }
        &'ctxlake;help;mcp;token;new'= {
        }
        &'ctxlake;help;mcp;token;list'= {
        }
        &'ctxlake;help;mcp;token;show'= {
        }
        &'ctxlake;help;mcp;token;revoke'= {
        }
        &'ctxlake;help;help'= {
        }
    ]
    $completions[$command]
}
