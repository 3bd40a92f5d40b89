# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ctxlake_global_optspecs
    string join \n fleet= agent= json q/quiet h/help V/version
end

function __fish_ctxlake_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ctxlake_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ctxlake_using_subcommand
    set -l cmd (__fish_ctxlake_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ctxlake -n "__fish_ctxlake_needs_command" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_needs_command" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_needs_command" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "init" -d 'Set up this machine: config, runtimes, semantic model, sync service, history import'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "import" -d 'Replay the session transcripts already on disk into the fleet\'s history'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "fleet" -d 'Who is working where: status, advisory leases, history, handoffs'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "memory" -d 'The fleet\'s shared memory: search, propose, timeline; operators list, promote, contest, retire'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "spool" -d 'Inspect the local write queue'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "sync" -d 'Move queued writes into the lake and refresh the local cache'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "maint" -d 'Fold claim events, run the promotion gate and publish each fleet\'s snapshot'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "lake" -d 'Manage the lake itself: copy it into another store'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "status" -d 'Show whether sync and maint are keeping this host\'s view fresh'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "doctor" -d 'Prove each link of the chain works on this machine, and repair drift'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "service" -d 'Run `ctxlake sync --watch` as a user service'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "completions" -d 'Print a shell completion script to stdout'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "hook" -d 'Capture a runtime\'s hook event; print its briefing or collision warning'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "install" -d 'Add ctxlake\'s MCP server and hooks to coding-agent runtimes\' own config files'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "uninstall" -d 'Remove ctxlake\'s MCP server and hooks from coding-agent runtimes\' config files'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "mcp" -d 'Serve ctxlake\'s tools to an MCP client (stdio, newline-delimited JSON-RPC)'
complete -c ctxlake -n "__fish_ctxlake_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l store -d 'Where the fleet\'s shared state lives: `file:///path`, `s3://bucket/prefix` or `az://container/prefix` (probed before the config is written; credentials come from the provider\'s environment)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l memory -d 'Memory mode: on, shadow or off' -r -f -a "on\t''
shadow\t''
off\t''"
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -s y -l yes -d 'Do not ask; take the flags and defaults'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l dry-run -d 'Print every file it would touch, as a diff; change nothing'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l no-runtimes -d 'Do not wire runtimes'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l no-model -d 'Do not fetch the semantic model (memory stays lexical)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l no-service -d 'Do not install the sync service'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l no-import -d 'Do not import the transcripts on disk'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l config-only -d 'Write `config.toml` and stop: no runtimes, model, service, import, sync or doctor'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand init" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand import" -l since -d 'Only sessions active since: a date, an RFC 3339 time, or an age (`30d`)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand import" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand import" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand import" -l dry-run -d 'Show what would be shared; write nothing'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand import" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand import" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand import" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -s h -l help -d 'Print help'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -f -a "status" -d 'Show active agents, their tasks and every lease\'s standing (held or contended)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -f -a "list" -d 'List the fleets this host is configured for, mirrors, or served over MCP'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -f -a "claim" -d 'Ask for advisory leases on paths you are about to edit'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -f -a "release" -d 'Release leases you hold; with no paths, release all of this session\'s leases'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -f -a "history" -d 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -f -a "handoff" -d 'Leave a handoff note: what you did, where it stands, what comes next'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and not __fish_seen_subcommand_from status list claim release history handoff help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from status" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from status" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from status" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from list" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from list" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from list" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from claim" -s r -l reason -d 'What you are about to do there' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from claim" -l ttl -d 'Lease lifetime in seconds' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from claim" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from claim" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from claim" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from claim" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from claim" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from claim" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from release" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from release" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from release" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from release" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from release" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from release" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from history" -l repo -d 'Only this repository (normalized remote, e.g. `github.com/acme/api`)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from history" -l since -d 'Only since: a date, an RFC 3339 time, or an age (`30m`, `2h`, `7d`)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from history" -l limit -d 'Rows per list (default 50, at most 200)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from history" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from history" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from history" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from history" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from history" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from handoff" -l status -d 'Where the work stands (`in-progress` is accepted too)' -r -f -a "done\t''
in_progress\t''
blocked\t''
abandoned\t''"
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from handoff" -l next -d 'What the next agent should do' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from handoff" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from handoff" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from handoff" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from handoff" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from handoff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from handoff" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show active agents, their tasks and every lease\'s standing (held or contended)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the fleets this host is configured for, mirrors, or served over MCP'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "claim" -d 'Ask for advisory leases on paths you are about to edit'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "release" -d 'Release leases you hold; with no paths, release all of this session\'s leases'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "history" -d 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "handoff" -d 'Leave a handoff note: what you did, where it stands, what comes next'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -s h -l help -d 'Print help'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "search" -d 'Search the fleet\'s promoted claims (lexical FTS5 and vector similarity, fused)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "propose" -d 'Propose a claim for the fleet\'s memory. It stays a candidate until the gate promotes it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "timeline" -d 'Show what the fleet proposed, promoted, contested and handed off about a subject'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "list" -d 'List claims in the published snapshot by status (operators see every status)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "promote" -d 'Promote a claim by hand: agents see it (preferences are promoted only this way)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "contest" -d 'Mark a claim CONTESTED by hand: it stays visible, flagged'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "retire" -d 'Retire a claim by hand: agents no longer see it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "supersede" -d 'Supersede a claim by hand (confirms a probable update): it is kept but no longer current'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "keep" -d 'Keep a claim flagged as probably outdated: the flag is dismissed'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "model" -d 'The semantic model (all-MiniLM-L6-v2): check what is configured, or install it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and not __fish_seen_subcommand_from search propose timeline list promote contest retire supersede keep model help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -l subject -d 'Only claims about this subject' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -l type -d 'Only claims of this type' -r -f -a "environment\t''
convention\t''
outcome\t''
preference\t''
hypothesis\t''"
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -l scope -d 'Only claims of this scope' -r -f -a "agent\t''
fleet\t''"
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -s k -d 'How many results (default 10, at most 200)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -l include-superseded -d 'Also claims newer ones replaced (for history questions)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from search" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -l type -d 'What kind of claim it is' -r -f -a "environment\t''
convention\t''
outcome\t''
preference\t''
hypothesis\t''"
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -l subject -d 'What it is about (a component, tool or topic)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -l evidence -d 'A citation `SESSION_ID:MESSAGE_ID` (repeatable)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -l evidence-json -d 'Citations as a JSON array of objects with `session_id` and `message_id`' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -l supersedes -d 'A claim this one replaces (`c-…`, repeatable, at most 20)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -l key -d 'The slot of a single-valued fact (`ci.node-version`): replaces older claims with it' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from propose" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from timeline" -l since -d 'Only since: a date, an RFC 3339 time, or an age (`30m`, `2h`, `7d`)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from timeline" -l limit -d 'Rows (default 50, at most 200)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from timeline" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from timeline" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from timeline" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from timeline" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from timeline" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from timeline" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from list" -l status -d 'Only claims with this status (default: all but superseded)' -r -f -a "proposed\t''
promoted\t''
contested\t''
retired\t''
superseded\t''"
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from list" -l limit -d 'Rows (default 50, at most 200)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from list" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from list" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from list" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from promote" -l reason -d 'Why: recorded in the claim\'s timeline' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from promote" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from promote" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from promote" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from promote" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from promote" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from promote" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from contest" -l reason -d 'Why: recorded in the claim\'s timeline' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from contest" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from contest" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from contest" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from contest" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from contest" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from contest" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from retire" -l reason -d 'Why: recorded in the claim\'s timeline' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from retire" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from retire" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from retire" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from retire" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from retire" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from retire" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from supersede" -l by -d 'The claim that replaces it (`c-…`)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from supersede" -l reason -d 'Why: recorded in the claim\'s timeline' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from supersede" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from supersede" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from supersede" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from supersede" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from supersede" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from supersede" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from keep" -l reason -d 'Why: recorded in the claim\'s timeline' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from keep" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from keep" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from keep" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from keep" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from keep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from keep" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from model" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from model" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from model" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from model" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from model" -s h -l help -d 'Print help'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from model" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from model" -f -a "check" -d 'Report the configured embedder and model directory, and load the model once'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from model" -f -a "install" -d 'Download (or unpack) and verify all-MiniLM-L6-v2 into ~/.ctxlake/models/all-MiniLM-L6-v2'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from model" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "search" -d 'Search the fleet\'s promoted claims (lexical FTS5 and vector similarity, fused)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "propose" -d 'Propose a claim for the fleet\'s memory. It stays a candidate until the gate promotes it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "timeline" -d 'Show what the fleet proposed, promoted, contested and handed off about a subject'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "list" -d 'List claims in the published snapshot by status (operators see every status)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "promote" -d 'Promote a claim by hand: agents see it (preferences are promoted only this way)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "contest" -d 'Mark a claim CONTESTED by hand: it stays visible, flagged'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "retire" -d 'Retire a claim by hand: agents no longer see it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "supersede" -d 'Supersede a claim by hand (confirms a probable update): it is kept but no longer current'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "keep" -d 'Keep a claim flagged as probably outdated: the flag is dismissed'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "model" -d 'The semantic model (all-MiniLM-L6-v2): check what is configured, or install it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand memory; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and not __fish_seen_subcommand_from check help" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and not __fish_seen_subcommand_from check help" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and not __fish_seen_subcommand_from check help" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and not __fish_seen_subcommand_from check help" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and not __fish_seen_subcommand_from check help" -s h -l help -d 'Print help'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and not __fish_seen_subcommand_from check help" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and not __fish_seen_subcommand_from check help" -f -a "check" -d 'Validate every spool file: intact records, torn lines skipped, resynced records'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and not __fish_seen_subcommand_from check help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and __fish_seen_subcommand_from check" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and __fish_seen_subcommand_from check" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and __fish_seen_subcommand_from check" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and __fish_seen_subcommand_from help" -f -a "check" -d 'Validate every spool file: intact records, torn lines skipped, resynced records'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand spool; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand sync" -l interval -d 'Seconds between syncs with `--watch` (default: `[sync] interval_secs`, 15)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand sync" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand sync" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand sync" -l watch -d 'Keep running: sync every `--interval` seconds, drain new writes in between'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand sync" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand sync" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand sync" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand sync" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand maint" -l only -d 'Only this fleet (default: every fleet in the lake this host serves, as `sync` mirrors)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand maint" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand maint" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand maint" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand maint" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand maint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand maint" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and not __fish_seen_subcommand_from copy help" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and not __fish_seen_subcommand_from copy help" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and not __fish_seen_subcommand_from copy help" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and not __fish_seen_subcommand_from copy help" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and not __fish_seen_subcommand_from copy help" -s h -l help -d 'Print help'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and not __fish_seen_subcommand_from copy help" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and not __fish_seen_subcommand_from copy help" -f -a "copy" -d 'Copy every object of one lake into another, skipping what is already there'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and not __fish_seen_subcommand_from copy help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and __fish_seen_subcommand_from copy" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and __fish_seen_subcommand_from copy" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and __fish_seen_subcommand_from copy" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and __fish_seen_subcommand_from copy" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and __fish_seen_subcommand_from copy" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and __fish_seen_subcommand_from copy" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and __fish_seen_subcommand_from help" -f -a "copy" -d 'Copy every object of one lake into another, skipping what is already there'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand lake; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand status" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand status" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand status" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand status" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand status" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand doctor" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand doctor" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand doctor" -l fix -d 'Repair ctxlake\'s own entries (after showing the diff)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand doctor" -l dry-run -d 'With `--fix`: print the diff, write nothing'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand doctor" -l strict -d 'Exit 1 on warnings too'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand doctor" -s y -l yes -d 'With `--fix`: install the sync service without asking'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand doctor" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand doctor" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and not __fish_seen_subcommand_from install uninstall help" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and not __fish_seen_subcommand_from install uninstall help" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and not __fish_seen_subcommand_from install uninstall help" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and not __fish_seen_subcommand_from install uninstall help" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and not __fish_seen_subcommand_from install uninstall help" -s h -l help -d 'Print help'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and not __fish_seen_subcommand_from install uninstall help" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and not __fish_seen_subcommand_from install uninstall help" -f -a "install" -d 'Write the user service that keeps `ctxlake sync --watch` running, and start it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and not __fish_seen_subcommand_from install uninstall help" -f -a "uninstall" -d 'Stop and remove the user service'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and not __fish_seen_subcommand_from install uninstall help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from install" -l http -d 'The `ctxlake mcp --http ADDR` service instead of sync (ADDR default 127.0.0.1:8719)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from install" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from install" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from install" -l no-start -d 'Only write/remove the file; do not call systemctl/launchctl'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from install" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from install" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from install" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l http -d 'The `ctxlake mcp --http ADDR` service instead of sync (ADDR default 127.0.0.1:8719)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l no-start -d 'Only write/remove the file; do not call systemctl/launchctl'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from uninstall" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from uninstall" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "install" -d 'Write the user service that keeps `ctxlake sync --watch` running, and start it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Stop and remove the user service'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand completions" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand completions" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand completions" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand completions" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand completions" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand hook" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand hook" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand hook" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand hook" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand hook" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand hook" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -l http -d 'Write the runtime\'s remote entry for a running `ctxlake mcp --http` at URL (default http://127.0.0.1:8719/mcp) instead of a command; the entry sends the token found in CTXLAKE_MCP_TOKEN when the runtime starts (`ctxlake mcp token new NAME` makes one)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -l all -d 'Install into every detected runtime'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -l project -d 'Write the project\'s file (in the current directory), pinned to the fleet'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -l dry-run -d 'Print a unified diff per file; write nothing'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -l no-hooks -d 'Write only the MCP entry, no hooks'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -l force -d 'Install into a named runtime even if it is not detected'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -s y -l yes -d 'Do not prompt: with no runtime named, take every detected one'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -l list -d 'Show each runtime, detected or not, installed or not, and its files'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand install" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand uninstall" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand uninstall" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand uninstall" -l all -d 'Uninstall from every runtime where ctxlake is installed'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand uninstall" -l project -d 'Edit the project\'s files (in the current directory) instead of the user\'s'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand uninstall" -l dry-run -d 'Print a unified diff per file; write nothing'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand uninstall" -s y -l yes -d 'Do not prompt: with no runtime named, take every one where ctxlake is installed'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand uninstall" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand uninstall" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand uninstall" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -l http -d 'Serve over MCP Streamable HTTP instead of stdio, on ADDR (default 127.0.0.1:8719; port 0 picks a free port). Runs until SIGTERM or SIGINT' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -l bind -d 'Listen address for --http (same as its ADDR)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -l allow-host -d 'Another host name clients may use in Host/Origin (e.g. a tailnet name); repeatable' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -l no-auth -d 'Serve without tokens: every caller acts as this server\'s agent in every fleet. Loopback addresses only; anyone on this host can then use it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -f -a "status" -d 'List the running servers (stdio by parent process, HTTP by URL) and the latest tool calls'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -f -a "token" -d 'Manage the tokens of `ctxlake mcp --http` (each client gets its own)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and not __fish_seen_subcommand_from status token help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from status" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from status" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from status" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -l fleet -d 'Fleet to act in' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -l agent -d 'This agent\'s id (default: user@host)' -r
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -l json -d 'Print the result as JSON (for a command that is also an MCP tool, exactly that tool\'s structuredContent)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -s q -l quiet -d 'Print no notes on stderr'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -s h -l help -d 'Print help'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -s V -l version -d 'Print version'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -f -a "new" -d 'Make a token for one client and print its secret (shown this once; only its hash is kept)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -f -a "list" -d 'List the tokens: name, agent, fleets, role, creation time (secrets are never kept)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -f -a "show" -d 'Show one token (default: the owner), or with --link a one-time dashboard login link'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -f -a "revoke" -d 'Remove a token: its calls, sessions, streams and dashboard logins stop at once'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from token" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "status" -d 'List the running servers (stdio by parent process, HTTP by URL) and the latest tool calls'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "token" -d 'Manage the tokens of `ctxlake mcp --http` (each client gets its own)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "init" -d 'Set up this machine: config, runtimes, semantic model, sync service, history import'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "import" -d 'Replay the session transcripts already on disk into the fleet\'s history'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "fleet" -d 'Who is working where: status, advisory leases, history, handoffs'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "memory" -d 'The fleet\'s shared memory: search, propose, timeline; operators list, promote, contest, retire'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "spool" -d 'Inspect the local write queue'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "sync" -d 'Move queued writes into the lake and refresh the local cache'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "maint" -d 'Fold claim events, run the promotion gate and publish each fleet\'s snapshot'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "lake" -d 'Manage the lake itself: copy it into another store'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "status" -d 'Show whether sync and maint are keeping this host\'s view fresh'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "doctor" -d 'Prove each link of the chain works on this machine, and repair drift'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "service" -d 'Run `ctxlake sync --watch` as a user service'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "completions" -d 'Print a shell completion script to stdout'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "hook" -d 'Capture a runtime\'s hook event; print its briefing or collision warning'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "install" -d 'Add ctxlake\'s MCP server and hooks to coding-agent runtimes\' own config files'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "uninstall" -d 'Remove ctxlake\'s MCP server and hooks from coding-agent runtimes\' config files'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "mcp" -d 'Serve ctxlake\'s tools to an MCP client (stdio, newline-delimited JSON-RPC)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and not __fish_seen_subcommand_from init import fleet memory spool sync maint lake status doctor service completions hook install uninstall mcp help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from fleet" -f -a "status" -d 'Show active agents, their tasks and every lease\'s standing (held or contended)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from fleet" -f -a "list" -d 'List the fleets this host is configured for, mirrors, or served over MCP'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from fleet" -f -a "claim" -d 'Ask for advisory leases on paths you are about to edit'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from fleet" -f -a "release" -d 'Release leases you hold; with no paths, release all of this session\'s leases'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from fleet" -f -a "history" -d 'Show recent sessions (outcome, files, commands, tests) and handoff notes, newest first'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from fleet" -f -a "handoff" -d 'Leave a handoff note: what you did, where it stands, what comes next'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "search" -d 'Search the fleet\'s promoted claims (lexical FTS5 and vector similarity, fused)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "propose" -d 'Propose a claim for the fleet\'s memory. It stays a candidate until the gate promotes it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "timeline" -d 'Show what the fleet proposed, promoted, contested and handed off about a subject'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "list" -d 'List claims in the published snapshot by status (operators see every status)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "promote" -d 'Promote a claim by hand: agents see it (preferences are promoted only this way)'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "contest" -d 'Mark a claim CONTESTED by hand: it stays visible, flagged'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "retire" -d 'Retire a claim by hand: agents no longer see it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "supersede" -d 'Supersede a claim by hand (confirms a probable update): it is kept but no longer current'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "keep" -d 'Keep a claim flagged as probably outdated: the flag is dismissed'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from memory" -f -a "model" -d 'The semantic model (all-MiniLM-L6-v2): check what is configured, or install it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from spool" -f -a "check" -d 'Validate every spool file: intact records, torn lines skipped, resynced records'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from lake" -f -a "copy" -d 'Copy every object of one lake into another, skipping what is already there'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from service" -f -a "install" -d 'Write the user service that keeps `ctxlake sync --watch` running, and start it'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from service" -f -a "uninstall" -d 'Stop and remove the user service'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from mcp" -f -a "status" -d 'List the running servers (stdio by parent process, HTTP by URL) and the latest tool calls'
complete -c ctxlake -n "__fish_ctxlake_using_subcommand help; and __fish_seen_subcommand_from mcp" -f -a "token" -d 'Manage the tokens of `ctxlake mcp --http` (each client gets its own)'
