# bash completion for blogsearch-index (installed as
# share/bash-completion/completions/blogsearch-index). Every command and
# option of `blogsearch-index --help`; tests/e2e/install.sh checks that.
_blogsearch_index() {
  local cur prev words cword
  _init_completion || return

  local commands="add fetch rebuild import-git stats feeds parse"
  local common="-h --help"
  local -A opts=(
    [add]="--db --archive --link --feed -q --quiet --wait --max-body --max-items --shards"
    [fetch]="--config --archive --feed --db -q --quiet --wait --timeout --connect-timeout --retries --max-body --max-items --shards"
    [rebuild]="--archive --db -q --quiet --wait --max-body --max-items --shards"
    [import-git]="--path --feed --archive --db -q --quiet --wait --max-body --max-items --chunk --shards"
    [stats]="--db"
    [parse]="--base-url --charset --max-body --max-items"
    [feeds]=""
    [feeds add]="--id --title --category --timeout --connect-timeout --config"
    [feeds list]="--db --config"
    [feeds remove]="--config"
    [feeds import]="--config"
    [feeds export]="--config"
  )
  local feeds_commands="add list remove import export"

  # The command is the first word that is not an option.
  local i command=""
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      -*) ;;
      *) command=${words[i]}; break ;;
    esac
  done
  # feeds has commands of its own: the next word that is not an option.
  local sub=""
  if [ "$command" = feeds ]; then
    for ((i = i + 1; i < cword; i++)); do
      case "${words[i]}" in
        -*) ;;
        *) sub=${words[i]}; break ;;
      esac
    done
    [ -z "$sub" ] || command="feeds $sub"
  fi

  case "$prev" in
    --db|--archive) _filedir -d; return ;;
    --config) _filedir toml; return ;;
    --path) _filedir; return ;;
    --id|--title|--category) return ;;
    --feed|--wait|--timeout|--connect-timeout|--retries|--max-body|--max-items|--chunk|--shards|--base-url|--charset) return ;;
  esac

  if [ -z "$command" ]; then
    COMPREPLY=($(compgen -W "$commands $common --version" -- "$cur"))
    return
  fi
  if [ "$command" = feeds ] && [[ "$cur" != -* ]]; then
    COMPREPLY=($(compgen -W "$feeds_commands" -- "$cur"))
    return
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "${opts[$command]} $common" -- "$cur"))
    return
  fi
  case "$command" in
    add|parse) _filedir ;;
    import-git) _filedir -d ;;
    "feeds import") _filedir opml ;;
  esac
} &&
  complete -F _blogsearch_index blogsearch-index
