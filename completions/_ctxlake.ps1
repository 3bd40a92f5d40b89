
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
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write `config.toml` with this machine''s fleet, agent id, store and memory mode.')
            [CompletionResult]::new('fleet', 'fleet', [CompletionResultType]::ParameterValue, 'Who is working where: status, advisory leases, history, handoffs')
            [CompletionResult]::new('memory', 'memory', [CompletionResultType]::ParameterValue, 'The fleet''s shared memory: search, propose, timeline')
            [CompletionResult]::new('spool', 'spool', [CompletionResultType]::ParameterValue, 'Inspect the local write queue')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script to stdout.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;init' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'Where the fleet''s shared state lives (`file:///path`)')
            [CompletionResult]::new('--memory', '--memory', [CompletionResultType]::ParameterName, 'Memory mode: on, shadow or off')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask; use flags and defaults')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask; use flags and defaults')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
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
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show active agents, their tasks and every lease''s standing (held or contended).')
            [CompletionResult]::new('claim', 'claim', [CompletionResultType]::ParameterValue, 'Ask for advisory leases on paths you are about to edit.')
            [CompletionResult]::new('release', 'release', [CompletionResultType]::ParameterValue, 'Release leases you hold; with no paths, release all of this session''s leases.')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first.')
            [CompletionResult]::new('handoff', 'handoff', [CompletionResultType]::ParameterValue, 'Leave a handoff note: what you did, where it stands, what comes next.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;fleet;status' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
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
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
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
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
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
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;fleet;handoff' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Where the work stands')
            [CompletionResult]::new('--next', '--next', [CompletionResultType]::ParameterName, 'What the next agent should do')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;fleet;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show active agents, their tasks and every lease''s standing (held or contended).')
            [CompletionResult]::new('claim', 'claim', [CompletionResultType]::ParameterValue, 'Ask for advisory leases on paths you are about to edit.')
            [CompletionResult]::new('release', 'release', [CompletionResultType]::ParameterValue, 'Release leases you hold; with no paths, release all of this session''s leases.')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first.')
            [CompletionResult]::new('handoff', 'handoff', [CompletionResultType]::ParameterValue, 'Leave a handoff note: what you did, where it stands, what comes next.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;fleet;help;status' {
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
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the fleet''s promoted claims (lexical FTS5 and vector similarity, fused).')
            [CompletionResult]::new('propose', 'propose', [CompletionResultType]::ParameterValue, 'Propose a claim for the fleet''s memory. It stays a candidate until the gate promotes it.')
            [CompletionResult]::new('timeline', 'timeline', [CompletionResultType]::ParameterValue, 'Show what the fleet proposed, promoted, contested and handed off about a subject.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;memory;search' {
            [CompletionResult]::new('--subject', '--subject', [CompletionResultType]::ParameterName, 'Only claims about this subject')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only claims of this type (environment, convention, outcome, preference, hypothesis)')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Only claims of this scope (`agent` or `fleet`)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'How many results (default 10, at most 200)')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
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
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
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
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;memory;help' {
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the fleet''s promoted claims (lexical FTS5 and vector similarity, fused).')
            [CompletionResult]::new('propose', 'propose', [CompletionResultType]::ParameterValue, 'Propose a claim for the fleet''s memory. It stays a candidate until the gate promotes it.')
            [CompletionResult]::new('timeline', 'timeline', [CompletionResultType]::ParameterValue, 'Show what the fleet proposed, promoted, contested and handed off about a subject.')
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
        'ctxlake;memory;help;help' {
            break
        }
        'ctxlake;spool' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every spool file: intact records, torn lines skipped, resynced records.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;spool;check' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;spool;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every spool file: intact records, torn lines skipped, resynced records.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;spool;help;check' {
            break
        }
        'ctxlake;spool;help;help' {
            break
        }
        'ctxlake;completions' {
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Fleet to act in')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'This agent''s id (default: user@host)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON (exactly the MCP tool''s structuredContent)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ctxlake;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write `config.toml` with this machine''s fleet, agent id, store and memory mode.')
            [CompletionResult]::new('fleet', 'fleet', [CompletionResultType]::ParameterValue, 'Who is working where: status, advisory leases, history, handoffs')
            [CompletionResult]::new('memory', 'memory', [CompletionResultType]::ParameterValue, 'The fleet''s shared memory: search, propose, timeline')
            [CompletionResult]::new('spool', 'spool', [CompletionResultType]::ParameterValue, 'Inspect the local write queue')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script to stdout.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ctxlake;help;init' {
            break
        }
        'ctxlake;help;fleet' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show active agents, their tasks and every lease''s standing (held or contended).')
            [CompletionResult]::new('claim', 'claim', [CompletionResultType]::ParameterValue, 'Ask for advisory leases on paths you are about to edit.')
            [CompletionResult]::new('release', 'release', [CompletionResultType]::ParameterValue, 'Release leases you hold; with no paths, release all of this session''s leases.')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first.')
            [CompletionResult]::new('handoff', 'handoff', [CompletionResultType]::ParameterValue, 'Leave a handoff note: what you did, where it stands, what comes next.')
            break
        }
        'ctxlake;help;fleet;status' {
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
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the fleet''s promoted claims (lexical FTS5 and vector similarity, fused).')
            [CompletionResult]::new('propose', 'propose', [CompletionResultType]::ParameterValue, 'Propose a claim for the fleet''s memory. It stays a candidate until the gate promotes it.')
            [CompletionResult]::new('timeline', 'timeline', [CompletionResultType]::ParameterValue, 'Show what the fleet proposed, promoted, contested and handed off about a subject.')
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
        'ctxlake;help;spool' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate every spool file: intact records, torn lines skipped, resynced records.')
            break
        }
        'ctxlake;help;spool;check' {
            break
        }
        'ctxlake;help;completions' {
            break
        }
        'ctxlake;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
