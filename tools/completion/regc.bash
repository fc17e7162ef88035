# bash completion for regc and regctl (installed as
# $(PREFIX)/share/bash-completion/completions/regc and .../regctl; or: source this file).
#
# The candidates come from the programs themselves, so they cannot drift from them:
#   regctl  `regctl __complete WORD...` prints them (commands, options, specs, blocks,
#           registers, fields, events), from the tables regctl parses its command line with
#           (runtime/regctl/cmdline.h, complete.c);
#   regc    its options from `regc --help`, its templates from `regc --list-templates`, its
#           spec NAMEs from the places regc looks a NAME up (compiler/specpath.h:
#           $REGC_SPEC_PATH, then BINDIR/../share/regc/regspec, then BINDIR/../regspec).
# The program completed is the one named on the line (regctl, ./build/regctl...).

# The words of the line up to the cursor, split on blanks only (so "ubox:EV" and "ev_sel=" stay
# whole, unlike COMP_WORDS); the last is the word being completed, "" after a blank.
_regc_line_words() {
    local line=${COMP_LINE:0:COMP_POINT}
    read -ra _regc_w <<<"$line"
    if [[ -z $line || $line =~ [[:space:]]$ ]]; then _regc_w+=(""); fi
}

# COMPREPLY from candidates (one a line) for the word 'cur': readline replaces only what follows
# the last ':' or '=' of the word (COMP_WORDBREAKS), so that part is cut from each candidate; a
# single candidate ending in '.', ':' or '=' goes on: no space after it.
_regc_reply() {
    local cur=$1 cands=$2 pre c
    local brk=${COMP_WORDBREAKS-:=}
    brk=${brk//[^:=]/}
    pre=""
    if [[ -n $brk && $cur == *[$brk]* ]]; then pre=${cur%"${cur##*[$brk]}"}; fi
    COMPREPLY=()
    while IFS= read -r c; do
        [[ -n $c && $c == "$cur"* ]] && COMPREPLY+=("${c#"$pre"}")
    done <<<"$cands"
    if [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *[.:=] ]]; then
        compopt -o nospace 2>/dev/null
    fi
    return 0
}

_regctl() {
    local _regc_w cur out
    _regc_line_words
    cur=${_regc_w[${#_regc_w[@]} - 1]}
    out=$("${_regc_w[0]}" __complete "${_regc_w[@]:1}" 2>/dev/null)
    if [[ $out == *@dirs* ]]; then
        _regc_reply "$cur" "$(compgen -d -- "$cur")"
        compopt -o filenames 2>/dev/null
    else
        _regc_reply "$cur" "$out"
    fi
}

# regc's spec NAMEs: NAME.xml in the directories specpath.h names, in its order.
_regc_spec_names() {
    local prog=$1 bin dir f dirs=()
    bin=$(command -v -- "$prog" 2>/dev/null) || return
    bin=$(dirname -- "$(readlink -f -- "$bin")") # where regc really is, as /proc/self/exe says
    IFS=: read -ra dirs <<<"${REGC_SPEC_PATH-}"
    dirs+=("$bin/../share/regc/regspec" "$bin/../regspec")
    for dir in "${dirs[@]}"; do
        for f in "$dir"/*.xml; do [[ -f $f ]] && f=${f##*/} && echo "${f%.xml}"; done
    done
}

_regc() {
    local _regc_w cur prev prog opts
    _regc_line_words
    prog=${_regc_w[0]}
    cur=${_regc_w[${#_regc_w[@]} - 1]}
    prev=${_regc_w[${#_regc_w[@]} - 2]:-}
    case $prev in
    -o | -MF | -MT)
        _regc_reply "$cur" "$(compgen -f -- "$cur")"
        compopt -o filenames 2>/dev/null
        return ;;
    -I)
        _regc_reply "$cur" "$(compgen -d -- "$cur")"
        compopt -o filenames 2>/dev/null
        return ;;
    -t)
        _regc_reply "$cur" "$("$prog" --list-templates 2>/dev/null | awk '{print $1}'; compgen -f -X '!*.mustache' -- "$cur")"
        return ;;
    -j | --prefix) return ;;
    esac
    case $cur in
    --escape=*)
        # the kinds --help lists on its --escape line ("html, c, md, json or none")
        _regc_reply "$cur" "$("$prog" --help 2>/dev/null | sed -n 's/^ *--escape=KIND.*: \(.*\) (.*/\1/p' | tr -s ', ' '\n' | grep -vx or | sed 's/^/--escape=/')" ;;
    -*)
        opts=$("$prog" --help 2>/dev/null | grep -oE '(^|[[:space:],])--?[A-Za-z][A-Za-z0-9-]*=?' |
            sed 's/^[[:space:],]*//; s/NAME$//' | sort -u)
        _regc_reply "$cur" "$opts" ;;
    *)
        _regc_reply "$cur" "$( (( ${#_regc_w[@]} == 2 )) && echo render
            _regc_spec_names "$prog"
            compgen -f -X '!*.@(xml|json|svd|mustache)' -- "$cur"; compgen -d -- "$cur")"
        compopt -o filenames 2>/dev/null ;;
    esac
}

complete -F _regctl regctl
complete -F _regc regc
