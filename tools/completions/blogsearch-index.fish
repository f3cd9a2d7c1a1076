# fish completion for blogsearch-index: every command and option of
# `blogsearch-index --help` (tests/e2e/install.sh checks that).
set -l commands add fetch rebuild import-git stats parse
complete -c blogsearch-index -f
complete -c blogsearch-index -s h -l help -d 'Print help and exit'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -l version -d 'Print the version and exit'

complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a add -d 'Ingest snapshot files or directories'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a fetch -d 'Fetch the feeds in feeds.toml and index them'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a rebuild -d 'Rebuild the database from the archive'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a import-git -d 'Index every committed version of a feed file'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a stats -d 'Show what the database holds'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a parse -d 'Print what the parser reads, as JSON'

# Options by command.
set -l writers add fetch rebuild import-git
complete -c blogsearch-index -n "__fish_seen_subcommand_from $writers stats" -l db -x -a '(__fish_complete_directories)' -d 'Database directory'
complete -c blogsearch-index -n "__fish_seen_subcommand_from fetch rebuild import-git" -l archive -x -a '(__fish_complete_directories)' -d 'Snapshot archive'
complete -c blogsearch-index -n "__fish_seen_subcommand_from $writers" -s q -l quiet -d 'No progress line'
complete -c blogsearch-index -n "__fish_seen_subcommand_from $writers" -l wait -x -d 'Wait up to SECONDS for another writer'
complete -c blogsearch-index -n "__fish_seen_subcommand_from $writers parse" -l max-body -x -d 'Skip snapshots larger than BYTES'
complete -c blogsearch-index -n "__fish_seen_subcommand_from $writers parse" -l max-items -x -d 'Read at most N items of a snapshot'
complete -c blogsearch-index -n "__fish_seen_subcommand_from add fetch import-git" -l feed -x -d 'Feed id'
complete -c blogsearch-index -n "__fish_seen_subcommand_from add parse" -F
complete -c blogsearch-index -n "__fish_seen_subcommand_from fetch" -l config -r -F -d 'feeds.toml'
complete -c blogsearch-index -n "__fish_seen_subcommand_from fetch" -l timeout -x -d 'Give up on a request after SECONDS'
complete -c blogsearch-index -n "__fish_seen_subcommand_from fetch" -l connect-timeout -x -d 'Give up connecting after SECONDS'
complete -c blogsearch-index -n "__fish_seen_subcommand_from fetch" -l retries -x -d 'Extra attempts after a transient failure'
complete -c blogsearch-index -n "__fish_seen_subcommand_from import-git" -l path -r -F -d 'The feed file, relative to the repository root'
complete -c blogsearch-index -n "__fish_seen_subcommand_from import-git" -a '(__fish_complete_directories)'
complete -c blogsearch-index -n "__fish_seen_subcommand_from parse" -l base-url -x -d "The document's URL"
complete -c blogsearch-index -n "__fish_seen_subcommand_from parse" -l charset -x -d 'The HTTP charset'
