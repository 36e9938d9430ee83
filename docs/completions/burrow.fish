function __burrow_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __burrow_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __burrow_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __burrow_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __burrow_parse_tokens -S
    set -l unparsed_tokens (__burrow_tokens -pc)
    switch $unparsed_tokens[1]
    case 'burrow'
        __burrow_parse_subcommand 0 'db=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'add'
            __burrow_parse_subcommand -r 1 'db=' 'under=' 'top' 'literal' 'version' 'h/help'
        case 'ls'
            __burrow_parse_subcommand 1 'db=' 'tree' 'depth=' 'ids' 'notes' 'json' 'tag=' 'version' 'h/help'
        case 'note'
            __burrow_parse_subcommand 2 'db=' 'version' 'h/help'
        case 'rm'
            __burrow_parse_subcommand 1 'db=' 'version' 'h/help'
        case 'done'
            __burrow_parse_subcommand 1 'db=' 'undo' 'version' 'h/help'
        case 'state'
            __burrow_parse_subcommand 2 'db=' 'priority=' 'version' 'h/help'
        case 'schedule'
            __burrow_parse_subcommand 2 'db=' 'deadline' 'version' 'h/help'
        case 'tag'
            __burrow_parse_subcommand -r 2 'db=' 'remove=+' 'list' 'version' 'h/help'
        case 'agenda'
            __burrow_parse_subcommand 0 'db=' 'days=' 'from=' 'json' 'version' 'h/help'
        case 'mv'
            __burrow_parse_subcommand 1 'db=' 'to=' 'position=' 'version' 'h/help'
        case 'rename'
            __burrow_parse_subcommand 2 'db=' 'version' 'h/help'
        case 'export'
            __burrow_parse_subcommand 1 'db=' 'format=' 'o/output=' 'version' 'h/help'
        case 'import'
            __burrow_parse_subcommand 1 'db=' 'format=' 'under=' 'version' 'h/help'
        case 'check'
            __burrow_parse_subcommand 0 'db=' 'repair' 'version' 'h/help'
        case 'find'
            __burrow_parse_subcommand 1 'db=' 'limit=' 'json' 'version' 'h/help'
        case 'undo'
            __burrow_parse_subcommand 1 'db=' 'version' 'h/help'
        case 'redo'
            __burrow_parse_subcommand 1 'db=' 'version' 'h/help'
        case 'history'
            __burrow_parse_subcommand 0 'db=' 'limit=' 'json' 'clear' 'version' 'h/help'
        case 'config'
            __burrow_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'check'
                __burrow_parse_subcommand 1 'version' 'h/help'
            case 'path'
                __burrow_parse_subcommand 0 'version' 'h/help'
            case 'default'
                __burrow_parse_subcommand 0 'version' 'h/help'
            end
        case 'sync'
            __burrow_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'attach'
                __burrow_parse_subcommand 1 'db=' 'version' 'h/help'
            case 'now'
                __burrow_parse_subcommand 0 'db=' 'url=' 'version' 'h/help'
            case 'status'
                __burrow_parse_subcommand 0 'db=' 'version' 'h/help'
            case 'detach'
                __burrow_parse_subcommand 0 'db=' 'version' 'h/help'
            end
        case 'help'
            __burrow_parse_subcommand -r 1 'version'
        end
    end
end

function __burrow_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __burrow_parse_subcommand -S -a positional_count
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

function __burrow_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __burrow_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__burrow_tokens -p)
    if test -z "$(__burrow_tokens -t)"
        set -l index (count (__burrow_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'burrow' -f
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'add' -d 'Add items: one per argument, or one per line from standard input with -.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'ls' -d 'List a level, or a subtree with --tree.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'note' -d 'Show an item\'s note, or set it: to TEXT, or to standard input with -.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'rm' -d 'Delete an item with all its sub-items.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'done' -d 'Mark an item done (or not done with --undo).'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'state' -d 'Show or set an item\'s task state (TODO, DONE, or the outline\'s own) and priority.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'schedule' -d 'Plan an item for a day (or set its deadline with --deadline).'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'tag' -d 'Show, add or remove an item\'s tags, or list every tag.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'agenda' -d 'List the tasks overdue, then each day\'s planned and due tasks, from today.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'mv' -d 'Move an item (with its sub-items) under another item.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'rename' -d 'Give an item a new title.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'export' -d 'Write the outline, or one item with its sub-items, as OPML, Markdown, Org, text or JSON.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'import' -d 'Add the items of an OPML, Markdown, Org, text or JSON file; nothing is added if the file is bad.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'check' -d 'Verify the outline (and repair what can be derived with --repair).'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'find' -d 'Find the items whose title or note contains a text, or that a query\'s filters match.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'undo' -d 'Undo the latest actions, whichever burrow made them.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'redo' -d 'Redo the latest undone actions.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'history' -d 'List the undo history, newest first (or clear it).'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'config' -d 'Check the config file, or say where it goes, or print a default one.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'sync' -d 'Share the outline through a PostgreSQL server.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow add" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow add" under' -l 'under' -d 'The item to add under (a path or #ID; default: the top level).' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow add" top' -l 'top' -d 'Add at the top of the level instead of at the end.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow add" literal' -l 'literal' -d 'Take each text as the title as it is: no state, !A, due: or sched: tokens.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow add" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow ls" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow ls" tree' -l 'tree' -d 'List the whole subtree, indented.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow ls" depth' -l 'depth' -d 'How many levels to list (default: 1, or all with --tree).' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow ls" ids' -l 'ids' -d 'Show each item\'s ID (#42), which any PATH accepts.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow ls" notes' -l 'notes' -d 'Show each item\'s note under it, indented past its box.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow ls" json' -l 'json' -d 'Print JSON: id, title, note, done, a task\'s state, priority, dates and tags, and children.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow ls" tag' -l 'tag' -d 'List every item tagged TAG (work or #work), each with its path, instead of a level.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow ls" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow note" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow note" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow note" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow rm" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow rm" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow done" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow done" undo' -l 'undo' -d 'Mark it not done.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow done" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow done" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow state" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow state" priority' -l 'priority' -d 'The priority to set: one letter (A, B, C) or none.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow state" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow state" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow schedule" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow schedule" deadline' -l 'deadline' -d 'Set the deadline rather than when it is planned.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow schedule" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow schedule" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow tag" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow tag"' -l 'remove' -d 'A tag to take off (repeat for more).' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow tag" list' -l 'list' -d 'List every tag with how many items have it.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow tag" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow tag" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow agenda" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow agenda" days' -l 'days' -d 'How many days from the first (default: 7).' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow agenda" from' -l 'from' -d 'The first day (2026-12-01; default: today).' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow agenda" json' -l 'json' -d 'Print JSON: overdue and days, each entry with id, title, state, priority, scheduled, deadline and path.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow agenda" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow agenda" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow mv" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow mv" to' -l 'to' -d 'The new parent.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow mv" position' -l 'position' -d 'Its position among the new parent\'s sub-items, from 1 (default: last).' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow mv" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow mv" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow rename" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow rename" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow rename" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow export" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow export" format' -l 'format' -d 'opml, markdown, org, text or json (default: from the -o file name, else opml).' -rfka 'opml markdown org text json'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow export" o output' -l 'output' -s 'o' -d 'The file to write (default: standard output).' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow export" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow import" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow import" format' -l 'format' -d 'auto (from the file name, else the content; text only by name), opml, markdown, org, text or json.' -rfka 'auto opml markdown org text json'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow import" under' -l 'under' -d 'The item to add under (default: the top level).' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow import" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow check" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow check" repair' -l 'repair' -d 'Repair what can be derived, in one transaction.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow check" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow find" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow find" limit' -l 'limit' -d 'Show at most this many hits (default: all).' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow find" json' -l 'json' -d 'Print JSON: an array of id, title, path (the titles above it), done and note.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow find" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow find" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow undo" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow undo" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow undo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow redo" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow redo" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow redo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow history" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow history" limit' -l 'limit' -d 'How many actions to list.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow history" json' -l 'json' -d 'Print JSON: sequence, name, date, origin, state (done, undone or skipped), objects, bytes, place.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow history" clear' -l 'clear' -d 'Forget every action (nothing in the outline changes).'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow history" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow history" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow config" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow config" -eq 1' -fa 'check' -d 'Check the config file: one line per problem, PATH:LINE:COLUMN: what is wrong.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow config" -eq 1' -fa 'path' -d 'Print where the config file goes (whether or not it exists).'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow config" -eq 1' -fa 'default' -d 'Print a complete config file that changes nothing, to start one from.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow config check" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow config check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow config path" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow config path" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow config default" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow config default" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow sync" -eq 1' -fa 'attach' -d 'Share this outline through the server at URL.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow sync" -eq 1' -fa 'now' -d 'Send what waits and receive what others did, once.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow sync" -eq 1' -fa 'status' -d 'Where the outline is shared and what waits to be sent.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_positional "burrow sync" -eq 1' -fa 'detach' -d 'Stop sharing this outline (its items stay).'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync attach" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync attach" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync attach" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync now" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync now" url' -l 'url' -d 'The server\'s URL, when its password is only there (it is never kept in the outline).' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync now" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync now" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync status" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync status" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync detach" db' -l 'db' -d 'The outline database.' -rfka ''
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync detach" version' -l 'version' -d 'Show the version.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow sync detach" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'burrow' -n '__burrow_should_offer_completions_for_flags_or_options "burrow help" version' -l 'version' -d 'Show the version.'
