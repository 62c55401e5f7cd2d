function __chatbench_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __chatbench_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __chatbench_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __chatbench_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __chatbench_parse_tokens -S
    set -l unparsed_tokens (__chatbench_tokens -pc)
    switch $unparsed_tokens[1]
    case 'chatbench'
        __chatbench_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'repl'
            __chatbench_parse_subcommand 0 'seed=' 'db=' 'no-record' 'name=' 'bail' 'server=' 'api-key=' 'no-rc' 'no-pager' 'c=' 'version' 'h/help'
        case 'run'
            __chatbench_parse_subcommand 1 'seed=' 'db=' 'no-record' 'name=' 'bail' 'server=' 'api-key=' 'version' 'h/help'
        case 'test'
            __chatbench_parse_subcommand -r 1 'junit=' 'update' 'jobs=' 'json' 'annotations=' 'html-on-failure=' 'timeout=' 'shard=' 'server=' 'version' 'h/help'
        case 'explore'
            __chatbench_parse_subcommand -r 1 'runs=' 'seed=' 'faults=' 'no-expects' 'no-shrink' 'out=' 'jobs=' 'timeout=' 'junit=' 'shard=' 'report=' 'merge' 'version' 'h/help'
        case 'shrink'
            __chatbench_parse_subcommand 1 'o/output=' 'seed=' 'no-expects' 'db=' 'timeout=' 'version' 'h/help'
        case 'replay'
            __chatbench_parse_subcommand 1 'update' 'tape' 'json' 'html-on-failure=' 'seed=' 'db=' 'no-record' 'name=' 'bail' 'server=' 'api-key=' 'version' 'h/help'
        case 'sessions'
            __chatbench_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __chatbench_parse_subcommand 1 'db=' 'json' 'version' 'h/help'
            case 'show'
                __chatbench_parse_subcommand 1 'timeline' 'traffic' 'html=' 'db=' 'json' 'version' 'h/help'
            end
        case 'export'
            __chatbench_parse_subcommand 2 'bundle=' 'html=' 'force' 'db=' 'version' 'h/help'
        case 'serve'
            __chatbench_parse_subcommand 0 'host=' 'port=' 'db=' 'sync=' 'seed=' 'idle-timeout=' 'request-timeout=' 'max-connections=' 'max-connections-per-address=' 'max-streams-per-user=' 'shutdown-grace=' 'log-level=' 'no-demo-app' 'version' 'h/help'
        case 'apps'
            __chatbench_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __chatbench_parse_subcommand 0 'db=' 'json' 'version' 'h/help'
            case 'add'
                __chatbench_parse_subcommand 1 'db=' 'secret-stdin' 'allow-user-id-only' 'version' 'h/help'
            end
        case 'help'
            __chatbench_parse_subcommand -r 1 'version'
        end
    end
end

function __chatbench_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __chatbench_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __chatbench_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __chatbench_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__chatbench_tokens -p)
    if test -z "$(__chatbench_tokens -t)"
        set -l index (count (__chatbench_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'chatbench' -f
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'repl' -d 'Open the REPL (the default subcommand).'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'run' -d 'Run a script or a transcript file.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'test' -d 'Run .chat files as tests.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'explore' -d 'Run scripts under many seeded fault schedules and check invariants.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'shrink' -d 'Reduce a failing script, transcript or recorded session to a smallest one that fails the same way.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'replay' -d 'Replay a recorded session and compare its output.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'sessions' -d 'List or show recorded sessions.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'export' -d 'Export a recorded session as a transcript, or as a self-contained bundle.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'serve' -d 'Run the backend as an HTTP + WebSocket server.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'apps' -d 'List a server\'s apps, or add one with a secret of its own.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" seed' -l 'seed' -d 'Seed of the embedded world\'s random choices.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" db' -l 'db' -d 'Record into this SQLite database instead of the default one.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" no-record' -l 'no-record' -d 'Do not record this session.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" name' -l 'name' -d 'Name the recorded session (replay and sessions show accept the name).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" bail' -l 'bail' -d 'Stop at the first failing `expect` or line that cannot be understood.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" server' -l 'server' -d 'Run against a running `chatbench serve` (real sockets, real time) instead of the embedded backend.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" api-key' -l 'api-key' -d 'With --server: play this app of the server\'s (chatbench apps add), its secret in CHATBENCH_APP_SECRET; default the demo app.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" no-rc' -l 'no-rc' -d 'Do not run the start-up file ($XDG_CONFIG_HOME/chatbench/rc.chat, by default ~/.config/chatbench/rc.chat).'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" no-pager' -l 'no-pager' -d 'Do not page long output at a terminal ($CHATBENCH_PAGER, $PAGER or less -FRX; an empty variable turns it off too).'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" c' -s 'c' -d 'Run this one line of the language and exit; the exit status is a script\'s.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench repl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench run" -eq 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'chat\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench run" seed' -l 'seed' -d 'Seed of the embedded world\'s random choices.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench run" db' -l 'db' -d 'Record into this SQLite database instead of the default one.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench run" no-record' -l 'no-record' -d 'Do not record this session.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench run" name' -l 'name' -d 'Name the recorded session (replay and sessions show accept the name).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench run" bail' -l 'bail' -d 'Stop at the first failing `expect` or line that cannot be understood.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench run" server' -l 'server' -d 'Run against a running `chatbench serve` (real sockets, real time) instead of the embedded backend.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench run" api-key' -l 'api-key' -d 'With --server: play this app of the server\'s (chatbench apps add), its secret in CHATBENCH_APP_SECRET; default the demo app.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench run" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench run" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench test" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'chat\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" junit' -l 'junit' -d 'Write a JUnit XML report to this file (valid against Jenkins xunit\'s junit-10.xsd; a failure\'s message starts with path:line:).' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" update' -l 'update' -d 'Rewrite the expected output of transcripts (never when CI is set).'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" jobs' -l 'jobs' -d 'How many files run at once (default: the number of cores).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" json' -l 'json' -d 'Print results as JSON: per file its path, status (passed, failed, skipped, timedOut), failures and failedSteps (file, line, input, expected, found).'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" annotations' -l 'annotations' -d 'Also print a CI annotation per failing step: `github` prints GitHub Actions `::error file=…,line=…` commands, shown on the pull request\'s diff.' -rfka 'github'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" html-on-failure' -l 'html-on-failure' -d 'Write the HTML sequence view of each failing file\'s run into this folder.' -rfa '(__chatbench_complete_directories)'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" timeout' -l 'timeout' -d 'Fail a file still running after this many seconds of wall time, and go on with the others (0: no limit).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" shard' -l 'shard' -d 'Run only shard K of N: every Nth file by name, starting at the Kth (for splitting a folder across CI machines).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" server' -l 'server' -d 'Run against this running `chatbench serve` (files one after the other), or `fresh` for a new in-process server per file.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench test" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench explore" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'chat\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" runs' -l 'runs' -d 'Runs per file.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" seed' -l 'seed' -d 'The seed the fault schedules are drawn from.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" faults' -l 'faults' -d 'The kinds of fault, comma-separated (default all but cut): offline,fail,drop,latency,restart,background,provider,expire,revoke,clock,link,cut.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" no-expects' -l 'no-expects' -d 'Check only the invariants, not the script\'s own expect lines.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" no-shrink' -l 'no-shrink' -d 'Save failures as they are, without shrinking them.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" out' -l 'out' -d 'Where failing runs are saved.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" jobs' -l 'jobs' -d 'How many runs at once (default: the number of cores).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" timeout' -l 'timeout' -d 'Kill a run (or a trial run of its shrink) still running after this many seconds of wall time: it fails as a hang (0: no limit). The default, 60, is hundreds of times what a run of an example takes (well under a second), so a run slowed down by a loaded machine is not taken for a hang.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" junit' -l 'junit' -d 'Write a JUnit XML report to this file: a test case per file explored.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" shard' -l 'shard' -d 'Make only shard K of N of the runs: every Nth run, starting at run K-1 (for splitting an exploration across CI machines).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" report' -l 'report' -d 'Write what this exploration found to this JSON file, for --merge.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" merge' -l 'merge' -d 'The arguments are the --report files of an exploration\'s shards: report, save failures and write --junit as the unsharded exploration would.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench explore" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench shrink" -eq 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'chat\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench shrink" o output' -l 'output' -s 'o' -d 'Write the smallest script or transcript here.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench shrink" seed' -l 'seed' -d 'The world\'s seed (default: the file\'s `# seed: N`, else 1).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench shrink" no-expects' -l 'no-expects' -d 'Check only the invariants, not the script\'s own expect lines.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench shrink" db' -l 'db' -d 'The recording database (for a SESSION named by id or name).' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench shrink" timeout' -l 'timeout' -d 'Kill a trial run still running after this many seconds of wall time: it fails as a hang (0: no limit).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench shrink" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench shrink" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" update' -l 'update' -d 'Re-record the session\'s output instead of comparing it.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" tape' -l 'tape' -d 'Replay a server-mode session offline from its traffic tape.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" json' -l 'json' -d 'Print the result as JSON.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" html-on-failure' -l 'html-on-failure' -d 'When the replay diverges, write its HTML sequence view into this folder.' -rfa '(__chatbench_complete_directories)'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" seed' -l 'seed' -d 'Seed of the embedded world\'s random choices.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" db' -l 'db' -d 'Record into this SQLite database instead of the default one.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" no-record' -l 'no-record' -d 'Do not record this session.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" name' -l 'name' -d 'Name the recorded session (replay and sessions show accept the name).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" bail' -l 'bail' -d 'Stop at the first failing `expect` or line that cannot be understood.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" server' -l 'server' -d 'Run against a running `chatbench serve` (real sockets, real time) instead of the embedded backend.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" api-key' -l 'api-key' -d 'With --server: play this app of the server\'s (chatbench apps add), its secret in CHATBENCH_APP_SECRET; default the demo app.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench replay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench sessions" -eq 1' -fa 'list' -d 'List recorded sessions: id, name, start, steps, kind, status.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench sessions" -eq 1' -fa 'show' -d 'Show one recorded session\'s steps with their virtual times.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench sessions list" -eq 1' -F
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions list" db' -l 'db' -d 'The recording database.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions list" json' -l 'json' -d 'Print as JSON.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions list" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions show" timeline' -l 'timeline' -d 'Draw the session as client ↔ server exchanges and watcher emissions over virtual time.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions show" traffic' -l 'traffic' -d 'Print the traffic tape of a server-mode session: each HTTP exchange and WebSocket frame, with its time, step and device.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions show" html' -l 'html' -d 'Write the session as one self-contained HTML sequence view to this file.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'html\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions show" db' -l 'db' -d 'The recording database.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions show" json' -l 'json' -d 'Print as JSON.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions show" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench sessions show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench export" -eq 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'chat\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench export" bundle' -l 'bundle' -d 'Write a self-contained SQLite bundle to this file instead.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench export" html' -l 'html' -d 'Write an HTML sequence view of the session to this file instead.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'html\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench export" force' -l 'force' -d 'Overwrite FILE if it exists.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench export" db' -l 'db' -d 'The recording database.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench export" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" host' -l 'host' -d 'The address to listen on.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" port' -l 'port' -d 'The TCP port to listen on (0 picks a free one).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" db' -l 'db' -d 'The server\'s SQLite database (:memory: for a private one, deleted when the server stops).' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" sync' -l 'sync' -d 'How each commit is synced to disk: normal (a commit survives a crash or kill of the server, the last ones may be lost on power loss) or full (a sync per commit, survives power loss, about 1.6 ms each).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" seed' -l 'seed' -d 'Seed of the identifiers and tokens the server makes (reproducible runs; tokens become guessable).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" idle-timeout' -l 'idle-timeout' -d 'Close a connection that sends nothing for this many seconds while none of its requests is being answered (event streams are pinged more often).' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" request-timeout' -l 'request-timeout' -d 'Close a connection whose request (head and body) is not read in full this many seconds after its first byte, however slowly the bytes come.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" max-connections' -l 'max-connections' -d 'Open connections the server holds, event streams included (default: the open-file limit, ulimit -n, less an eighth of it and at least 64 for the database and the rest, which is also the most it can be). Past it the connection idle, or reading one request, the longest is closed to make room; when all are busy a new one is closed at once.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" max-connections-per-address' -l 'max-connections-per-address' -d 'Open connections from one client address (default: half of --max-connections); past it that address\'s longest idle one closes.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" max-streams-per-user' -l 'max-streams-per-user' -d 'Open event streams of one user; one more closes that user\'s oldest, with the reason.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" shutdown-grace' -l 'shutdown-grace' -d 'On SIGINT or SIGTERM, idle connections close at once; requests in flight get this many seconds to be answered, then every connection still open is closed and the server exits.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" log-level' -l 'log-level' -d 'Log level: trace, debug, info, notice, warning, error, critical.' -rfka ''
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" no-demo-app' -l 'no-demo-app' -d 'Do not create the well-known demo app (demo-key and its published secret) in a database that does not have it.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench apps" -eq 1' -fa 'list' -d 'List the apps: API key, users, conversations, and whether anyone may sign in by user id alone.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_positional "chatbench apps" -eq 1' -fa 'add' -d 'Add an app; print its new secret, once.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps list" db' -l 'db' -d 'The server\'s SQLite database.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps list" json' -l 'json' -d 'Print as JSON.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps list" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps add" db' -l 'db' -d 'The server\'s SQLite database.' -rF
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps add" secret-stdin' -l 'secret-stdin' -d 'Read the app\'s secret from the first line of standard input instead of making one.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps add" allow-user-id-only' -l 'allow-user-id-only' -d 'Let anyone with the API key sign in as any of the app\'s users by id alone (SPEC A10; the demo app\'s setting).'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps add" version' -l 'version' -d 'Show the version.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench apps add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'chatbench' -n '__chatbench_should_offer_completions_for_flags_or_options "chatbench help" version' -l 'version' -d 'Show the version.'
