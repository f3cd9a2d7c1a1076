# bash completion for blogsearch (installed as
# share/bash-completion/completions/blogsearch). Every command and option of
# `blogsearch --help`; tests/e2e/install.sh checks that.
_blogsearch() {
  local cur prev words cword
  _init_completion || return

  local search="--db --format --count --facets --facet-limit --limit --offset --page --sort --reverse
    --since --until --category --author --feed --color --wildcard-limit --time-limit --with-text --history --pretty -h --help --version"
  local show="--db --version --all --format --pretty -h --help"
  local diff="--db --format --color --context --pretty -h --help"

  # "show" and "diff" are commands only as the first word that is not an option.
  local i command=""
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      --db|--format|--facets|--facet-limit|--limit|--offset|--page|--sort|--since|--until|--category|--author|--feed|--color|--wildcard-limit|--time-limit)
        ((i++)) ;;
      -*) ;;
      show|diff) command=${words[i]}; break ;;
      *) break ;;
    esac
  done

  case "$prev" in
    --db) _filedir -d; return ;;
    --format)
      if [ -n "$command" ]; then COMPREPLY=($(compgen -W "text json" -- "$cur"));
      else COMPREPLY=($(compgen -W "text json ids" -- "$cur")); fi
      return ;;
    --sort) COMPREPLY=($(compgen -W "relevance date recent" -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --facets)
      local prefix="" last=$cur
      [[ "$cur" == *,* ]] && prefix=${cur%,*}, last=${cur##*,}
      COMPREPLY=($(compgen -P "$prefix" -W "category author feed month" -- "$last"))
      compopt -o nospace
      return ;;
    --facet-limit|--limit|--offset|--page|--since|--until|--category|--author|--feed|--wildcard-limit|--time-limit) return ;;
    --version) [ "$command" = show ] && return ;;
    --context) return ;;
  esac

  if [[ "$cur" == -* ]]; then
    if [ "$command" = show ]; then COMPREPLY=($(compgen -W "$show" -- "$cur"));
    elif [ "$command" = diff ]; then COMPREPLY=($(compgen -W "$diff" -- "$cur"));
    else COMPREPLY=($(compgen -W "$search" -- "$cur")); fi
    return
  fi
  # The first word may be a command; otherwise a query is free text.
  [ -z "$command" ] && [ "$i" -ge "$cword" ] && COMPREPLY=($(compgen -W "show diff" -- "$cur"))
} &&
  complete -F _blogsearch blogsearch
