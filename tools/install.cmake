# install.cmake: what `cmake --install build [--prefix P]` puts where
# (included by CMakeLists.txt). Directories follow GNUInstallDirs, so a
# distribution's prefix and layout apply; a few that GNUInstallDirs does not
# know are cache variables, relative to the prefix unless absolute:
#
#   bin/blogsearch, bin/blogsearch-index      the two commands
#   BLOGSEARCH_CGI_DIR/blogsearch.cgi          default lib/cgi-bin (what
#                                              Debian's web servers map to /cgi-bin/)
#   share/man/man1, man8                       blogsearch(1), blogsearch-index(1), blogsearch.cgi(8)
#   share/bash-completion/completions          bash completions
#   BLOGSEARCH_ZSH_COMPLETION_DIR              default share/zsh/site-functions
#   share/fish/vendor_completions.d            fish completions
#   BLOGSEARCH_SYSTEMD_UNIT_DIR                default lib/systemd/system
#   share/doc/blogsearch/examples              feeds.toml, lighttpd/apache/nginx
#                                              snippets, a cron line
#
# The units, the cron line and the web server snippets are filled in at
# install time (install_configured.cmake) with that install's prefix: BINDIR,
# SYSCONFDIR (/etc for a /usr prefix), the CGI's directory; the state stays in
# /var/lib/blogsearch, where systemd's StateDirectory= puts it.
include(GNUInstallDirs)

set(BLOGSEARCH_CGI_DIR "lib/cgi-bin" CACHE STRING
  "Where blogsearch.cgi is installed (relative to the prefix, or absolute)")
set(BLOGSEARCH_ZSH_COMPLETION_DIR "${CMAKE_INSTALL_DATADIR}/zsh/site-functions" CACHE STRING
  "Where the zsh completions are installed (Debian: share/zsh/vendor-completions)")
set(BLOGSEARCH_SYSTEMD_UNIT_DIR "lib/systemd/system" CACHE STRING
  "Where the systemd units are installed (relative to the prefix, or absolute)")

install(TARGETS blogsearch blogsearch-index RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS blogsearch.cgi RUNTIME DESTINATION ${BLOGSEARCH_CGI_DIR})

install(FILES docs/man/blogsearch.1 docs/man/blogsearch-index.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES docs/man/blogsearch.cgi.8 DESTINATION ${CMAKE_INSTALL_MANDIR}/man8)

install(FILES tools/completions/blogsearch.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME blogsearch)
install(FILES tools/completions/blogsearch-index.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME blogsearch-index)
install(FILES tools/completions/_blogsearch tools/completions/_blogsearch-index
  DESTINATION ${BLOGSEARCH_ZSH_COMPLETION_DIR})
install(FILES tools/completions/blogsearch.fish tools/completions/blogsearch-index.fish
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

# The units, the cron line and the web server snippets get their paths when
# they are installed, from the prefix of that install (`--prefix P` too).
install(FILES tools/examples/feeds.toml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
install(CODE "
  set(BLOGSEARCH_SOURCE_DIR \"${CMAKE_SOURCE_DIR}\")
  set(BLOGSEARCH_CONFIGURED_DIR \"${CMAKE_BINARY_DIR}/configured\")
  set(BLOGSEARCH_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
  set(BLOGSEARCH_SYSCONFDIR \"${CMAKE_INSTALL_SYSCONFDIR}\")
  set(BLOGSEARCH_DOCDIR \"${CMAKE_INSTALL_DOCDIR}\")
  set(BLOGSEARCH_CGI_DIR \"${BLOGSEARCH_CGI_DIR}\")
  set(BLOGSEARCH_SYSTEMD_UNIT_DIR \"${BLOGSEARCH_SYSTEMD_UNIT_DIR}\")
  include(\"${CMAKE_SOURCE_DIR}/tools/install_configured.cmake\")
")
