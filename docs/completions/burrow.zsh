#compdef burrow

__burrow_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__burrow_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __burrow_complete "${completions[@]:0:-1}"
    fi
}

__burrow_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_burrow() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Add items: one per argument, or one per line from standard input with -.'
            'ls:List a level, or a subtree with --tree.'
            'note:Show an item'\''s note, or set it: to TEXT, or to standard input with -.'
            'rm:Delete an item with all its sub-items.'
            'done:Mark an item done (or not done with --undo).'
            'state:Show or set an item'\''s task state (TODO, DONE, or the outline'\''s own) and priority.'
            'schedule:Plan an item for a day (or set its deadline with --deadline).'
            'tag:Show, add or remove an item'\''s tags, or list every tag.'
            'agenda:List the tasks overdue, then each day'\''s planned and due tasks, from today.'
            'mv:Move an item (with its sub-items) under another item.'
            'rename:Give an item a new title.'
            'export:Write the outline, or one item with its sub-items, as OPML, Markdown, Org, text or JSON.'
            'import:Add the items of an OPML, Markdown, Org, text or JSON file; nothing is added if the file is bad.'
            'check:Verify the outline (and repair what can be derived with --repair).'
            'find:Find the items whose title or note contains a text, or that a query'\''s filters match.'
            'undo:Undo the latest actions, whichever burrow made them.'
            'redo:Redo the latest undone actions.'
            'history:List the undo history, newest first (or clear it).'
            'config:Check the config file, or say where it goes, or print a default one.'
            'sync:Share the outline through a PostgreSQL server.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|ls|note|rm|done|state|schedule|tag|agenda|mv|rename|export|import|check|find|undo|redo|history|config|sync|help)
            "_burrow_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_burrow_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        '--under[The item to add under (a path or #ID; default\: the top level).]:under:'
        '--top[Add at the top of the level instead of at the end.]'
        '--literal[Take each text as the title as it is\: no state, !A, due\: or sched\: tokens.]'
        '*:texts:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_ls() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':path:'
        '--tree[List the whole subtree, indented.]'
        '--depth[How many levels to list (default\: 1, or all with --tree).]:depth:'
        '--ids[Show each item'\''s ID (#42), which any PATH accepts.]'
        '--notes[Show each item'\''s note under it, indented past its box.]'
        '--json[Print JSON\: id, title, note, done, a task'\''s state, priority, dates and tags, and children.]'
        '--tag[List every item tagged TAG (work or #work), each with its path, instead of a level.]:tag:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_note() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':path:'
        ':text:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_rm() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_done() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':path:'
        '--undo[Mark it not done.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_state() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':path:'
        ':state:'
        '--priority[The priority to set\: one letter (A, B, C) or none.]:priority:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_schedule() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':path:'
        ':date:'
        '--deadline[Set the deadline rather than when it is planned.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_tag() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':path:'
        '*:tags:'
        '*--remove[A tag to take off (repeat for more).]:remove:'
        '--list[List every tag with how many items have it.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_agenda() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        '--days[How many days from the first (default\: 7).]:days:'
        '--from[The first day (2026-12-01; default\: today).]:from:'
        '--json[Print JSON\: overdue and days, each entry with id, title, state, priority, scheduled, deadline and path.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_mv() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':path:'
        '--to[The new parent.]:to:'
        '--position[Its position among the new parent'\''s sub-items, from 1 (default\: last).]:position:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_rename() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':path:'
        ':title:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_export() {
    local -i ret=1
    local -ar ___format=('opml' 'markdown' 'org' 'text' 'json')
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':path:'
        '--format[opml, markdown, org, text or json (default\: from the -o file name, else opml).]:format:{__burrow_complete "${___format[@]}"}'
        '(--output -o)'{--output,-o}'[The file to write (default\: standard output).]:output:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_import() {
    local -i ret=1
    local -ar ___format=('auto' 'opml' 'markdown' 'org' 'text' 'json')
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':file:'
        '--format[auto (from the file name, else the content; text only by name), opml, markdown, org, text or json.]:format:{__burrow_complete "${___format[@]}"}'
        '--under[The item to add under (default\: the top level).]:under:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_check() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        '--repair[Repair what can be derived, in one transaction.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_find() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':query:'
        '--limit[Show at most this many hits (default\: all).]:limit:'
        '--json[Print JSON\: an array of id, title, path (the titles above it), done and note.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_undo() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':count:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_redo() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':count:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_history() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        '--limit[How many actions to list.]:limit:'
        '--json[Print JSON\: sequence, name, date, origin, state (done, undone or skipped), objects, bytes, place.]'
        '--clear[Forget every action (nothing in the outline changes).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_config() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'check:Check the config file: one line per problem, PATH:LINE:COLUMN: what is wrong.'
            'path:Print where the config file goes (whether or not it exists).'
            'default:Print a complete config file that changes nothing, to start one from.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        check|path|default)
            "_burrow_config_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_burrow_config_check() {
    local -i ret=1
    local -ar arg_specs=(
        ':file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_config_path() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_config_default() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_sync() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'attach:Share this outline through the server at URL.'
            'now:Send what waits and receive what others did, once.'
            'status:Where the outline is shared and what waits to be sent.'
            'detach:Stop sharing this outline (its items stay).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        attach|now|status|detach)
            "_burrow_sync_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_burrow_sync_attach() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        ':url:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_sync_now() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        '--url[The server'\''s URL, when its password is only there (it is never kept in the outline).]:url:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_sync_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_sync_detach() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The outline database.]:db:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_burrow_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _burrow ]]; then
    _burrow "${@}"
else
    compdef _burrow burrow
fi
