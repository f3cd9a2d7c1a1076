# install_configured.cmake: run by `cmake --install` (see install.cmake).
# Fills in the systemd units, the cron line and the web server snippets with
# the paths of this install and installs them. CMAKE_INSTALL_PREFIX is the
# install's prefix here; file(INSTALL) adds $DESTDIR itself.
function(blogsearch_full out dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "${CMAKE_INSTALL_PREFIX}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

blogsearch_full(BINDIR "${BLOGSEARCH_BINDIR}")
blogsearch_full(CGIDIR "${BLOGSEARCH_CGI_DIR}")
# GNUInstallDirs' rule: a /usr or / prefix keeps its configuration in /etc.
if(IS_ABSOLUTE "${BLOGSEARCH_SYSCONFDIR}")
  set(SYSCONFDIR "${BLOGSEARCH_SYSCONFDIR}")
elseif(CMAKE_INSTALL_PREFIX STREQUAL "/usr" OR CMAKE_INSTALL_PREFIX STREQUAL "/")
  set(SYSCONFDIR "/${BLOGSEARCH_SYSCONFDIR}")
else()
  set(SYSCONFDIR "${CMAKE_INSTALL_PREFIX}/${BLOGSEARCH_SYSCONFDIR}")
endif()
# Where systemd's StateDirectory=blogsearch is, whatever the prefix.
set(STATEDIR "/var/lib/blogsearch")

set(out "${BLOGSEARCH_CONFIGURED_DIR}")
foreach(f systemd/blogsearch-fetch.service systemd/blogsearch-fetch.timer systemd/blogsearch.cron
          webserver/lighttpd.conf webserver/apache.conf webserver/nginx.conf)
  configure_file("${BLOGSEARCH_SOURCE_DIR}/tools/${f}.in" "${out}/${f}" @ONLY)
endforeach()

blogsearch_full(unitdir "${BLOGSEARCH_SYSTEMD_UNIT_DIR}")
blogsearch_full(docdir "${BLOGSEARCH_DOCDIR}")
file(INSTALL DESTINATION "${unitdir}" TYPE FILE
  FILES "${out}/systemd/blogsearch-fetch.service" "${out}/systemd/blogsearch-fetch.timer")
file(INSTALL DESTINATION "${docdir}/examples" TYPE FILE
  FILES "${out}/systemd/blogsearch.cron" "${out}/webserver/lighttpd.conf"
        "${out}/webserver/apache.conf" "${out}/webserver/nginx.conf")
