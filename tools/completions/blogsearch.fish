# fish completion for blogsearch: every command and option of
# `blogsearch --help`, `blogsearch show --help` and `blogsearch diff --help` (tests/e2e/install.sh
# checks that).
complete -c blogsearch -f
set -l search "not __fish_seen_subcommand_from show diff"
complete -c blogsearch -s h -l help -d 'Print help and exit'
complete -c blogsearch -l db -x -a '(__fish_complete_directories)' -d 'Database directory'
complete -c blogsearch -l pretty -d 'JSON: indent'
complete -c blogsearch -n "__fish_is_first_arg" -a show -d 'Show one post in full, by id or link'
complete -c blogsearch -n "__fish_is_first_arg" -a diff -d 'Compare two versions of a post, word by word'
complete -c blogsearch -n "__fish_seen_subcommand_from show diff" -l format -x -a 'text json' -d 'Output'
complete -c blogsearch -n "__fish_seen_subcommand_from show" -l version -x -d 'Print version N of the post'
complete -c blogsearch -n "__fish_seen_subcommand_from show" -l all -d 'List every version, not only the newest 20'
complete -c blogsearch -n "__fish_seen_subcommand_from diff" -l context -x -d 'Unchanged words kept around each change'
complete -c blogsearch -n "__fish_seen_subcommand_from diff" -l color -x -a 'auto always never' -d 'Colour removed and added words'

complete -c blogsearch -n $search -l version -d 'Print the version and exit'
complete -c blogsearch -n $search -l format -x -a 'text json ids' -d 'Output'
complete -c blogsearch -n $search -l count -d 'Print only the number of matching posts'
complete -c blogsearch -n $search -l facets -x -a 'category author feed month' -d 'Count matches per field (comma-separated)'
complete -c blogsearch -n $search -l facet-limit -x -d 'Values per facet'
complete -c blogsearch -n $search -l limit -x -d 'Results per page'
complete -c blogsearch -n $search -l offset -x -d 'Skip this many results'
complete -c blogsearch -n $search -l page -x -d 'Page number, from 1'
complete -c blogsearch -n $search -l sort -x -a 'relevance date recent' -d 'Order'
complete -c blogsearch -n $search -l reverse -d 'With --sort date: oldest first'
complete -c blogsearch -n $search -l since -x -d 'Published on or after'
complete -c blogsearch -n $search -l until -x -d 'Published on or before'
complete -c blogsearch -n $search -l category -x -d 'Only posts with this category'
complete -c blogsearch -n $search -l author -x -d 'Only posts by this author'
complete -c blogsearch -n $search -l feed -x -d 'Only posts from this feed id'
complete -c blogsearch -n $search -l color -x -a 'auto always never' -d 'Highlight matches'
complete -c blogsearch -n $search -l wildcard-limit -x -d 'Most words a wildcard may expand to'
complete -c blogsearch -n $search -l time-limit -x -d 'Ms after which a large match stops counting (0: none)'
complete -c blogsearch -n $search -l with-text -d "JSON: include each post's full text"
complete -c blogsearch -n $search -l history -d "JSON: include each post's history"
