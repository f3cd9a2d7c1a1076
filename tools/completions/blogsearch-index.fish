# fish completion for blogsearch-index: every command and option of
# `blogsearch-index --help` (tests/e2e/install.sh checks that).
set -l commands add fetch rebuild import-git stats feeds parse
set -l feeds_commands add list remove import export
complete -c blogsearch-index -f
complete -c blogsearch-index -s h -l help -d 'Print help and exit'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -l version -d 'Print the version and exit'

complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a add -d 'Ingest snapshot files or directories'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a fetch -d 'Fetch the feeds in feeds.toml and index them'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a rebuild -d 'Rebuild the database from the archive'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a import-git -d 'Index every committed version of a feed file'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a stats -d 'Show what the database holds'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a parse -d 'Print what the parser reads, as JSON'
complete -c blogsearch-index -n "not __fish_seen_subcommand_from $commands" -a feeds -d 'Subscriptions: add, list, remove, import, export'

# feeds and its commands (add, list... are also top-level names: the
# conditions look for "feeds" first).
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and not __fish_seen_subcommand_from $feeds_commands" -a add -d 'Subscribe to a feed or a page that names one'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and not __fish_seen_subcommand_from $feeds_commands" -a list -d 'List the feeds and their state'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and not __fish_seen_subcommand_from $feeds_commands" -a remove -d 'Remove a feed from feeds.toml'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and not __fish_seen_subcommand_from $feeds_commands" -a import -d 'Add the feeds of an OPML file'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and not __fish_seen_subcommand_from $feeds_commands" -a export -d 'Print the feeds as OPML 2.0'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and __fish_seen_subcommand_from $feeds_commands" -l config -r -F -d 'feeds.toml'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and __fish_seen_subcommand_from add" -l id -x -d 'Feed id'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and __fish_seen_subcommand_from add" -l title -x -d 'Title to keep'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and __fish_seen_subcommand_from add" -l category -x -d 'Category, outer/inner'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and __fish_seen_subcommand_from add" -l timeout -x -d 'Give up on a request after SECONDS'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and __fish_seen_subcommand_from add" -l connect-timeout -x -d 'Give up connecting after SECONDS'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and __fish_seen_subcommand_from list" -l db -x -a '(__fish_complete_directories)' -d 'Database directory'
complete -c blogsearch-index -n "__fish_seen_subcommand_from feeds; and __fish_seen_subcommand_from import" -F

# Options by command.
set -l writers add fetch rebuild import-git
complete -c blogsearch-index -n "__fish_seen_subcommand_from $writers stats; and not __fish_seen_subcommand_from feeds" -l db -x -a '(__fish_complete_directories)' -d 'Database directory'
complete -c blogsearch-index -n "__fish_seen_subcommand_from add fetch rebuild import-git" -l archive -x -a '(__fish_complete_directories)' -d 'Snapshot archive'
complete -c blogsearch-index -n "__fish_seen_subcommand_from $writers; and not __fish_seen_subcommand_from feeds" -s q -l quiet -d 'No progress line'
complete -c blogsearch-index -n "__fish_seen_subcommand_from $writers; and not __fish_seen_subcommand_from feeds" -l wait -x -d 'Wait up to SECONDS for another writer'
complete -c blogsearch-index -n "__fish_seen_subcommand_from $writers parse; and not __fish_seen_subcommand_from feeds" -l max-body -x -d 'Skip snapshots larger than BYTES'
complete -c blogsearch-index -n "__fish_seen_subcommand_from $writers parse; and not __fish_seen_subcommand_from feeds" -l max-items -x -d 'Read at most N items of a snapshot'
complete -c blogsearch-index -n "__fish_seen_subcommand_from add fetch import-git; and not __fish_seen_subcommand_from feeds" -l feed -x -d 'Feed id'
complete -c blogsearch-index -n "__fish_seen_subcommand_from add; and not __fish_seen_subcommand_from feeds" -l link -d 'Hard-link snapshots into the archive instead of copying'
complete -c blogsearch-index -n "__fish_seen_subcommand_from add fetch rebuild import-git; and not __fish_seen_subcommand_from feeds" -l shards -x -d 'Shards of a database created (rebuild: of the new one)'
complete -c blogsearch-index -n "__fish_seen_subcommand_from add parse; and not __fish_seen_subcommand_from feeds" -F
complete -c blogsearch-index -n "__fish_seen_subcommand_from fetch" -l config -r -F -d 'feeds.toml'
complete -c blogsearch-index -n "__fish_seen_subcommand_from fetch" -l timeout -x -d 'Give up on a request after SECONDS'
complete -c blogsearch-index -n "__fish_seen_subcommand_from fetch" -l connect-timeout -x -d 'Give up connecting after SECONDS'
complete -c blogsearch-index -n "__fish_seen_subcommand_from fetch" -l retries -x -d 'Extra attempts after a transient failure'
complete -c blogsearch-index -n "__fish_seen_subcommand_from import-git" -l path -r -F -d 'The feed file, relative to the repository root'
complete -c blogsearch-index -n "__fish_seen_subcommand_from import-git" -l chunk -x -d 'Versions archived and indexed together'
complete -c blogsearch-index -n "__fish_seen_subcommand_from import-git" -a '(__fish_complete_directories)'
complete -c blogsearch-index -n "__fish_seen_subcommand_from parse" -l base-url -x -d "The document's URL"
complete -c blogsearch-index -n "__fish_seen_subcommand_from parse" -l charset -x -d 'The HTTP charset'
