
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ctxlake' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ctxlake'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ctxlake' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Set up this machine: config, runtimes, semantic model, sync service, history import')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Replay the session transcripts already on disk into the fleet''s history')
            [CompletionResult]::new('fleet', 'fleet', [CompletionResultType]::ParameterValue, 'Who is working where: status, advisory leases, history, handoffs')
            [CompletionResult]::new('memory', 'memory', [CompletionResultType]::ParameterValue, 'The fleet''s shared memory: search, propose, timeline; operators list, promote, contest, retire')
            [CompletionResult]::new('spool', 'spool', [CompletionResultType]::ParameterValue, 'Inspect the local write queue')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Move queued writes into the lake and refresh the local cache')
            [CompletionResult]::new('maint', 'maint', [CompletionResultType]::ParameterValue, 'Fold claim events, run the promotion gate and publish each fleet''s snapshot')
            [CompletionResult]::new('lake', 'lake', [CompletionResultType]::ParameterValue, 'Manage the lake itself: copy it into another store')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show whether sync and maint are keeping this host''s view fresh')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Prove each link of the chain works on this machine, and repair drift')
            [CompletionResult]::new('service', 'service', [CompletionResultType]::ParameterValue, 'Run `ctxlake sync --watch` as a user service')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script to stdout')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'Capture a runtime''s hook event; print its briefing or collision warning')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Add ctxlake''s MCP server and hooks to coding-agent runtimes'' own config files')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove ctxlake''s MCP server and hooks from coding-agent runtimes'' config files')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve ctxlake''s tools to an MCP client (stdio, newline-delimited JSON-RPC)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;init' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'Where the fleet''s shared state lives: `file:///path`, `s3://bucket/prefix` or `az://container/prefix` (probed before the config is written; credentials come from the provider''s environment)')
            [CompletionResult]::new('--memory', '--memory', [CompletionResultType]::ParameterName, 'Memory mode: on, shadow or off')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask; take the flags and defaults')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask; take the flags and defaults')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print every file it would touch, as a diff; change nothing')
            [CompletionResult]::new('--no-runtimes', '--no-runtimes', [CompletionResultType]::ParameterName, 'Do not wire runtimes')
            [CompletionResult]::new('--no-model', '--no-model', [CompletionResultType]::ParameterName, 'Do not fetch the semantic model (memory stays lexical)')
            [CompletionResult]::new('--no-service', '--no-service', [CompletionResultType]::ParameterName, 'Do not install the sync service')
            [CompletionResult]::new('--no-import', '--no-import', [CompletionResultType]::ParameterName, 'Do not import the transcripts on disk')
            [CompletionResult]::new('--config-only', '--config-only', [CompletionResultType]::ParameterName, 'Write `config.toml` and stop: no runtimes, model, service, import, sync or doctor')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;import' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions active since: a date, an RFC 3339 time, or an age (`30d`)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would be shared; write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;fleet' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show active agents, their tasks and every lease''s standing (held or contended)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the fleets this host is configured for, mirrors, or served over MCP')
            [CompletionResult]::new('claim', 'claim', [CompletionResultType]::ParameterValue, 'Ask for advisory leases on paths you are about to edit')
            [CompletionResult]::new('release', 'release', [CompletionResultType]::ParameterValue, 'Release leases you hold; with no paths, release all of this session''s leases')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first')
            [CompletionResult]::new('handoff', 'handoff', [CompletionResultType]::ParameterValue, 'Leave a handoff note: what you did, where it stands, what comes next')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;fleet;status' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;fleet;list' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;fleet;claim' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'What you are about to do there')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'What you are about to do there')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'Lease lifetime in seconds')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;fleet;release' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;fleet;history' {
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Only this repository (normalized remote, e.g. `github.com/acme/api`)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only since: a date, an RFC 3339 time, or an age (`30m`, `2h`, `7d`)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Rows per list (default 50, at most 200)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;fleet;handoff' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Where the work stands (`in-progress` is accepted too)')
            [CompletionResult]::new('--next', '--next', [CompletionResultType]::ParameterName, 'What the next agent should do')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;fleet;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show active agents, their tasks and every lease''s standing (held or contended)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the fleets this host is configured for, mirrors, or served over MCP')
            [CompletionResult]::new('claim', 'claim', [CompletionResultType]::ParameterValue, 'Ask for advisory leases on paths you are about to edit')
            [CompletionResult]::new('release', 'release', [CompletionResultType]::ParameterValue, 'Release leases you hold; with no paths, release all of this session''s leases')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first')
            [CompletionResult]::new('handoff', 'handoff', [CompletionResultType]::ParameterValue, 'Leave a handoff note: what you did, where it stands, what comes next')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;fleet;help;status' {
            break
        }
        'ctxlake;fleet;help;list' {
            break
        }
        'ctxlake;fleet;help;claim' {
            break
        }
        'ctxlake;fleet;help;release' {
            break
        }
        'ctxlake;fleet;help;history' {
            break
        }
        'ctxlake;fleet;help;handoff' {
            break
        }
        'ctxlake;fleet;help;help' {
            break
        }
        'ctxlake;memory' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the fleet''s promoted claims (lexical FTS5 and vector similarity, fused)')
            [CompletionResult]::new('propose', 'propose', [CompletionResultType]::ParameterValue, 'Propose a claim for the fleet''s memory. It stays a candidate until the gate promotes it')
            [CompletionResult]::new('timeline', 'timeline', [CompletionResultType]::ParameterValue, 'Show what the fleet proposed, promoted, contested and handed off about a subject')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List claims in the published snapshot by status (operators see every status)')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Promote a claim by hand: agents see it (preferences are promoted only this way)')
            [CompletionResult]::new('contest', 'contest', [CompletionResultType]::ParameterValue, 'Mark a claim CONTESTED by hand: it stays visible, flagged')
            [CompletionResult]::new('retire', 'retire', [CompletionResultType]::ParameterValue, 'Retire a claim by hand: agents no longer see it')
            [CompletionResult]::new('supersede', 'supersede', [CompletionResultType]::ParameterValue, 'Supersede a claim by hand (confirms a probable update): it is kept but no longer current')
            [CompletionResult]::new('keep', 'keep', [CompletionResultType]::ParameterValue, 'Keep a claim flagged as probably outdated: the flag is dismissed')
            [CompletionResult]::new('model', 'model', [CompletionResultType]::ParameterValue, 'The semantic model (all-MiniLM-L6-v2): check what is configured, or install it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;memory;search' {
            [CompletionResult]::new('--subject', '--subject', [CompletionResultType]::ParameterName, 'Only claims about this subject')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only claims of this type')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Only claims of this scope')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'How many results (default 10, at most 200)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--include-superseded', '--include-superseded', [CompletionResultType]::ParameterName, 'Also claims newer ones replaced (for history questions)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;propose' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'What kind of claim it is')
            [CompletionResult]::new('--subject', '--subject', [CompletionResultType]::ParameterName, 'What it is about (a component, tool or topic)')
            [CompletionResult]::new('--evidence', '--evidence', [CompletionResultType]::ParameterName, 'A citation `SESSION_ID:MESSAGE_ID` (repeatable)')
            [CompletionResult]::new('--evidence-json', '--evidence-json', [CompletionResultType]::ParameterName, 'Citations as a JSON array of objects with `session_id` and `message_id`')
            [CompletionResult]::new('--supersedes', '--supersedes', [CompletionResultType]::ParameterName, 'A claim this one replaces (`c-…`, repeatable, at most 20)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'The slot of a single-valued fact (`ci.node-version`): replaces older claims with it')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;timeline' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only since: a date, an RFC 3339 time, or an age (`30m`, `2h`, `7d`)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Rows (default 50, at most 200)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;list' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only claims with this status (default: all but superseded)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Rows (default 50, at most 200)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;promote' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why: recorded in the claim''s timeline')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;contest' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why: recorded in the claim''s timeline')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;retire' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why: recorded in the claim''s timeline')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;supersede' {
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'The claim that replaces it (`c-…`)')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why: recorded in the claim''s timeline')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;keep' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why: recorded in the claim''s timeline')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;model' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Report the configured embedder and model directory, and load the model once')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Download (or unpack) and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;memory;model;check' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;model;install' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'A wheel, a zip or a directory holding the model (offline; default: download)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;model;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Report the configured embedder and model directory, and load the model once')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Download (or unpack) and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;memory;model;help;check' {
            break
        }
        'ctxlake;memory;model;help;install' {
            break
        }
        'ctxlake;memory;model;help;help' {
            break
        }
        'ctxlake;memory;help' {
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the fleet''s promoted claims (lexical FTS5 and vector similarity, fused)')
            [CompletionResult]::new('propose', 'propose', [CompletionResultType]::ParameterValue, 'Propose a claim for the fleet''s memory. It stays a candidate until the gate promotes it')
            [CompletionResult]::new('timeline', 'timeline', [CompletionResultType]::ParameterValue, 'Show what the fleet proposed, promoted, contested and handed off about a subject')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List claims in the published snapshot by status (operators see every status)')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Promote a claim by hand: agents see it (preferences are promoted only this way)')
            [CompletionResult]::new('contest', 'contest', [CompletionResultType]::ParameterValue, 'Mark a claim CONTESTED by hand: it stays visible, flagged')
            [CompletionResult]::new('retire', 'retire', [CompletionResultType]::ParameterValue, 'Retire a claim by hand: agents no longer see it')
            [CompletionResult]::new('supersede', 'supersede', [CompletionResultType]::ParameterValue, 'Supersede a claim by hand (confirms a probable update): it is kept but no longer current')
            [CompletionResult]::new('keep', 'keep', [CompletionResultType]::ParameterValue, 'Keep a claim flagged as probably outdated: the flag is dismissed')
            [CompletionResult]::new('model', 'model', [CompletionResultType]::ParameterValue, 'The semantic model (all-MiniLM-L6-v2): check what is configured, or install it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;memory;help;search' {
            break
        }
        'ctxlake;memory;help;propose' {
            break
        }
        'ctxlake;memory;help;timeline' {
            break
        }
        'ctxlake;memory;help;list' {
            break
        }
        'ctxlake;memory;help;promote' {
            break
        }
        'ctxlake;memory;help;contest' {
            break
        }
        'ctxlake;memory;help;retire' {
            break
        }
        'ctxlake;memory;help;supersede' {
            break
        }
        'ctxlake;memory;help;keep' {
            break
        }
        'ctxlake;memory;help;model' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Report the configured embedder and model directory, and load the model once')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Download (or unpack) and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2')
            break
        }
        'ctxlake;memory;help;model;check' {
            break
        }
        'ctxlake;memory;help;model;install' {
            break
        }
        'ctxlake;memory;help;help' {
            break
        }
        'ctxlake;spool' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every spool file: intact records, torn lines skipped, resynced records')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;spool;check' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;spool;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every spool file: intact records, torn lines skipped, resynced records')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;spool;help;check' {
            break
        }
        'ctxlake;spool;help;help' {
            break
        }
        'ctxlake;sync' {
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Seconds between syncs with `--watch` (default: `[sync] interval_secs`, 15)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Keep running: sync every `--interval` seconds, drain new writes in between')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;maint' {
            [CompletionResult]::new('--only', '--only', [CompletionResultType]::ParameterName, 'Only this fleet (default: every fleet in the lake this host serves, as `sync` mirrors)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;lake' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('copy', 'copy', [CompletionResultType]::ParameterValue, 'Copy every object of one lake into another, skipping what is already there')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;lake;copy' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;lake;help' {
            [CompletionResult]::new('copy', 'copy', [CompletionResultType]::ParameterValue, 'Copy every object of one lake into another, skipping what is already there')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;lake;help;copy' {
            break
        }
        'ctxlake;lake;help;help' {
            break
        }
        'ctxlake;status' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;doctor' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--fix', '--fix', [CompletionResultType]::ParameterName, 'Repair ctxlake''s own entries (after showing the diff)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'With `--fix`: print the diff, write nothing')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 1 on warnings too')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'With `--fix`: install the sync service without asking')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'With `--fix`: install the sync service without asking')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;service' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Write the user service that keeps `ctxlake sync --watch` running, and start it')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Stop and remove the user service')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;service;install' {
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'The `ctxlake mcp --http ADDR` service instead of sync (ADDR default 127.0.0.1:8719)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--no-start', '--no-start', [CompletionResultType]::ParameterName, 'Only write/remove the file; do not call systemctl/launchctl')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;service;uninstall' {
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'The `ctxlake mcp --http ADDR` service instead of sync (ADDR default 127.0.0.1:8719)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--no-start', '--no-start', [CompletionResultType]::ParameterName, 'Only write/remove the file; do not call systemctl/launchctl')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;service;help' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Write the user service that keeps `ctxlake sync --watch` running, and start it')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Stop and remove the user service')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;service;help;install' {
            break
        }
        'ctxlake;service;help;uninstall' {
            break
        }
        'ctxlake;service;help;help' {
            break
        }
        'ctxlake;completions' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;hook' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;install' {
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Write the runtime''s remote entry for a running `ctxlake mcp --http` at URL (default http://127.0.0.1:8719/mcp) instead of a command; the entry sends the token found in CTXLAKE_MCP_TOKEN when the runtime starts (`ctxlake mcp token new NAME` makes one)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Install into every detected runtime')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Write the project''s file (in the current directory), pinned to the fleet')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print a unified diff per file; write nothing')
            [CompletionResult]::new('--no-hooks', '--no-hooks', [CompletionResultType]::ParameterName, 'Write only the MCP entry, no hooks')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Install into a named runtime even if it is not detected')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not prompt: with no runtime named, take every detected one')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not prompt: with no runtime named, take every detected one')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Show each runtime, detected or not, installed or not, and its files')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;uninstall' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Uninstall from every runtime where ctxlake is installed')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Edit the project''s files (in the current directory) instead of the user''s')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print a unified diff per file; write nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not prompt: with no runtime named, take every one where ctxlake is installed')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not prompt: with no runtime named, take every one where ctxlake is installed')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;mcp' {
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Serve over MCP Streamable HTTP instead of stdio, on ADDR (default 127.0.0.1:8719; port 0 picks a free port). Runs until SIGTERM or SIGINT')
            [CompletionResult]::new('--bind', '--bind', [CompletionResultType]::ParameterName, 'Listen address for --http (same as its ADDR)')
            [CompletionResult]::new('--allow-host', '--allow-host', [CompletionResultType]::ParameterName, 'Another host name clients may use in Host/Origin (e.g. a tailnet name); repeatable')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--no-auth', '--no-auth', [CompletionResultType]::ParameterName, 'Serve without tokens: every caller acts as this server''s agent in every fleet. Loopback addresses only; anyone on this host can then use it')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List the running servers (stdio by parent process, HTTP by URL) and the latest tool calls')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Manage the tokens of `ctxlake mcp --http` (each client gets its own)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;mcp;status' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;mcp;token' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Make a token for one client and print its secret (shown this once; only its hash is kept)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the tokens: name, agent, fleets, role, creation time (secrets are never kept)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one token (default: the owner), or with --link a one-time dashboard login link')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Remove a token: its calls, sessions, streams and dashboard logins stop at once')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;mcp;token;new' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent its calls act as (default: NAME; the owner token: the server''s agent)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'A fleet it may use (repeatable; default: every fleet)')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Reads only: every write tool is refused, naming the token')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;mcp;token;list' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;mcp;token;show' {
            [CompletionResult]::new('--link', '--link', [CompletionResultType]::ParameterName, 'Print a login link for the dashboard instead (single use, valid 10 minutes, signed with the owner token) that opens PAGE (`/` or `/fleet/<fleet>`); the host is the running server''s, else the default')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;mcp;token;revoke' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;mcp;token;help' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Make a token for one client and print its secret (shown this once; only its hash is kept)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the tokens: name, agent, fleets, role, creation time (secrets are never kept)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one token (default: the owner), or with --link a one-time dashboard login link')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Remove a token: its calls, sessions, streams and dashboard logins stop at once')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;mcp;token;help;new' {
            break
        }
        'ctxlake;mcp;token;help;list' {
            break
        }
        'ctxlake;mcp;token;help;show' {
            break
        }
        'ctxlake;mcp;token;help;revoke' {
            break
        }
        'ctxlake;mcp;token;help;help' {
            break
        }
        'ctxlake;mcp;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List the running servers (stdio by parent process, HTTP by URL) and the latest tool calls')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Manage the tokens of `ctxlake mcp --http` (each client gets its own)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;mcp;help;status' {
            break
        }
        'ctxlake;mcp;help;token' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Make a token for one client and print its secret (shown this once; only its hash is kept)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the tokens: name, agent, fleets, role, creation time (secrets are never kept)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one token (default: the owner), or with --link a one-time dashboard login link')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Remove a token: its calls, sessions, streams and dashboard logins stop at once')
            break
        }
        'ctxlake;mcp;help;token;new' {
            break
        }
        'ctxlake;mcp;help;token;list' {
            break
        }
        'ctxlake;mcp;help;token;show' {
            break
        }
        'ctxlake;mcp;help;token;revoke' {
            break
        }
        'ctxlake;mcp;help;help' {
            break
        }
        'ctxlake;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Set up this machine: config, runtimes, semantic model, sync service, history import')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Replay the session transcripts already on disk into the fleet''s history')
            [CompletionResult]::new('fleet', 'fleet', [CompletionResultType]::ParameterValue, 'Who is working where: status, advisory leases, history, handoffs')
            [CompletionResult]::new('memory', 'memory', [CompletionResultType]::ParameterValue, 'The fleet''s shared memory: search, propose, timeline; operators list, promote, contest, retire')
            [CompletionResult]::new('spool', 'spool', [CompletionResultType]::ParameterValue, 'Inspect the local write queue')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Move queued writes into the lake and refresh the local cache')
            [CompletionResult]::new('maint', 'maint', [CompletionResultType]::ParameterValue, 'Fold claim events, run the promotion gate and publish each fleet''s snapshot')
            [CompletionResult]::new('lake', 'lake', [CompletionResultType]::ParameterValue, 'Manage the lake itself: copy it into another store')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show whether sync and maint are keeping this host''s view fresh')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Prove each link of the chain works on this machine, and repair drift')
            [CompletionResult]::new('service', 'service', [CompletionResultType]::ParameterValue, 'Run `ctxlake sync --watch` as a user service')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script to stdout')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'Capture a runtime''s hook event; print its briefing or collision warning')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Add ctxlake''s MCP server and hooks to coding-agent runtimes'' own config files')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove ctxlake''s MCP server and hooks from coding-agent runtimes'' config files')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve ctxlake''s tools to an MCP client (stdio, newline-delimited JSON-RPC)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;help;init' {
            break
        }
        'ctxlake;help;import' {
            break
        }
        'ctxlake;help;fleet' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show active agents, their tasks and every lease''s standing (held or contended)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the fleets this host is configured for, mirrors, or served over MCP')
            [CompletionResult]::new('claim', 'claim', [CompletionResultType]::ParameterValue, 'Ask for advisory leases on paths you are about to edit')
            [CompletionResult]::new('release', 'release', [CompletionResultType]::ParameterValue, 'Release leases you hold; with no paths, release all of this session''s leases')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first')
            [CompletionResult]::new('handoff', 'handoff', [CompletionResultType]::ParameterValue, 'Leave a handoff note: what you did, where it stands, what comes next')
            break
        }
        'ctxlake;help;fleet;status' {
            break
        }
        'ctxlake;help;fleet;list' {
            break
        }
        'ctxlake;help;fleet;claim' {
            break
        }
        'ctxlake;help;fleet;release' {
            break
        }
        'ctxlake;help;fleet;history' {
            break
        }
        'ctxlake;help;fleet;handoff' {
            break
        }
        'ctxlake;help;memory' {
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the fleet''s promoted claims (lexical FTS5 and vector similarity, fused)')
            [CompletionResult]::new('propose', 'propose', [CompletionResultType]::ParameterValue, 'Propose a claim for the fleet''s memory. It stays a candidate until the gate promotes it')
            [CompletionResult]::new('timeline', 'timeline', [CompletionResultType]::ParameterValue, 'Show what the fleet proposed, promoted, contested and handed off about a subject')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List claims in the published snapshot by status (operators see every status)')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Promote a claim by hand: agents see it (preferences are promoted only this way)')
            [CompletionResult]::new('contest', 'contest', [CompletionResultType]::ParameterValue, 'Mark a claim CONTESTED by hand: it stays visible, flagged')
            [CompletionResult]::new('retire', 'retire', [CompletionResultType]::ParameterValue, 'Retire a claim by hand: agents no longer see it')
            [CompletionResult]::new('supersede', 'supersede', [CompletionResultType]::ParameterValue, 'Supersede a claim by hand (confirms a probable update): it is kept but no longer current')
            [CompletionResult]::new('keep', 'keep', [CompletionResultType]::ParameterValue, 'Keep a claim flagged as probably outdated: the flag is dismissed')
            [CompletionResult]::new('model', 'model', [CompletionResultType]::ParameterValue, 'The semantic model (all-MiniLM-L6-v2): check what is configured, or install it')
            break
        }
        'ctxlake;help;memory;search' {
            break
        }
        'ctxlake;help;memory;propose' {
            break
        }
        'ctxlake;help;memory;timeline' {
            break
        }
        'ctxlake;help;memory;list' {
            break
        }
        'ctxlake;help;memory;promote' {
            break
        }
        'ctxlake;help;memory;contest' {
            break
        }
        'ctxlake;help;memory;retire' {
            break
        }
        'ctxlake;help;memory;supersede' {
            break
        }
        'ctxlake;help;memory;keep' {
            break
        }
        'ctxlake;help;memory;model' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Report the configured embedder and model directory, and load the model once')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Download (or unpack) and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2')
            break
        }
        'ctxlake;help;memory;model;check' {
            break
        }
        'ctxlake;help;memory;model;install' {
            break
        }
        'ctxlake;help;spool' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every spool file: intact records, torn lines skipped, resynced records')
            break
        }
        'ctxlake;help;spool;check' {
            break
        }
        'ctxlake;help;sync' {
            break
        }
        'ctxlake;help;maint' {
            break
        }
        'ctxlake;help;lake' {
            [CompletionResult]::new('copy', 'copy', [CompletionResultType]::ParameterValue, 'Copy every object of one lake into another, skipping what is already there')
            break
        }
        'ctxlake;help;lake;copy' {
            break
        }
        'ctxlake;help;status' {
            break
        }
        'ctxlake;help;doctor' {
            break
        }
        'ctxlake;help;service' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Write the user service that keeps `ctxlake sync --watch` running, and start it')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Stop and remove the user service')
            break
        }
        'ctxlake;help;service;install' {
            break
        }
        'ctxlake;help;service;uninstall' {
            break
        }
        'ctxlake;help;completions' {
            break
        }
        'ctxlake;help;hook' {
            break
        }
        'ctxlake;help;install' {
            break
        }
        'ctxlake;help;uninstall' {
            break
        }
        'ctxlake;help;mcp' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List the running servers (stdio by parent process, HTTP by URL) and the latest tool calls')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Manage the tokens of `ctxlake mcp --http` (each client gets its own)')
            break
        }
        'ctxlake;help;mcp;status' {
            break
        }
        'ctxlake;help;mcp;token' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Make a token for one client and print its secret (shown this once; only its hash is kept)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the tokens: name, agent, fleets, role, creation time (secrets are never kept)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one token (default: the owner), or with --link a one-time dashboard login link')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Remove a token: its calls, sessions, streams and dashboard logins stop at once')
            break
        }
        'ctxlake;help;mcp;token;new' {
            break
        }
        'ctxlake;help;mcp;token;list' {
            break
        }
        'ctxlake;help;mcp;token;show' {
            break
        }
        'ctxlake;help;mcp;token;revoke' {
            break
        }
        'ctxlake;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
